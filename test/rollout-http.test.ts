// The HTTP rollout kind end to end: a real Atelier server, the simulated inference server (which
// calls tools) and ART backend, and the example calculator environment (examples/http-env) on a free
// port. Multi-turn tool-calling episodes are stored ART-natively and trained with every assistant
// choice; the environment's reward is used, or RULER (with <available_tools>) when it gives none;
// faults are retried, then stored with their cause; a hung environment trips the watchdog; cancel
// closes the in-flight episode.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startHttpEnvSim, type HttpEnvSim } from './fixtures/http-env-sim';
import { waitDone } from './fixtures/pipeline-bed';
import type { OnProgressSubscription, OnTrajectoryCountsSubscription } from './gql/graphql';
import { pipelineConfig, startPipelineServer, startSims, type Sims } from './helpers/pipeline';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { useTestServer, type TestServer } from './helpers/server';
import { subscribe, waitFor, wsClient } from './helpers/subscriptions';
import { AgenticTrajectories, CancelRun, CreatePipelineRun, OnProgress, OnTrajectoryCounts } from './operations';

let sims: Sims;
let env: HttpEnvSim;
beforeAll(async () => {
  [sims, env] = await Promise.all([startSims(), startHttpEnvSim()]);
});
afterAll(async () => {
  await env?.close();
  await sims?.close();
});
afterEach(() => {
  env.faults.reset();
  sims.openai.faults.reset();
});
const s = useTestServer(() => ({ pipeline: pipelineConfig(sims, { maxConcurrentRuns: 4 }) }));

const SCENARIOS = [
  { inputText: 'Compute 12 * 7 + 5', context: { answer: 89 } },
  { inputText: 'Compute (3 + 4) * 6', context: { answer: 42 } },
  { inputText: 'Compute 100 - 58 / 2', context: { answer: 71 } },
  { inputText: 'Compute 9 * 9 - 1', context: { answer: 80 } },
];

async function createHttpRun(
  server: TestServer,
  projectName: string,
  rollout: Record<string, unknown> = {},
  input: Record<string, unknown> = {},
) {
  const res = await server.gql(CreatePipelineRun, {
    input: {
      modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
      projectName,
      taskDescription: 'Solve arithmetic with a calculator',
      systemPrompt: 'You are careful with numbers.',
      rolloutsPerGroup: 2,
      numEpochs: 1,
      scenarios: SCENARIOS,
      pipeline: { groupsPerStep: 2, rollout: { kind: 'HTTP', url: env.url, maxTurns: 6, ...rollout } },
      ...input,
    },
  });
  return expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
}

const trajectoriesOf = async (server: TestServer, runId: string) =>
  (await server.gql(AgenticTrajectories, { runId })).trajectories.edges.map((e) => e.node);

/** A whole HTTP run on a server: what is stored, what was trained on, every episode closed. */
async function playsAgenticRun(server: TestServer, input: Record<string, unknown> = {}): Promise<void> {
  const judged = sims.openai.counts.judge;
  const trainsBefore = sims.art.requests.filter((r) => r.path === '/_train_model').length;
  const run = await createHttpRun(server, 'agentic', {}, input);
  const done = await waitDone(server, run.id, 60_000);
  expect(done.error).toBeNull();
  expect(done.status).toBe('COMPLETED');

  const trajectories = await trajectoriesOf(server, run.id);
  expect(trajectories).toHaveLength(8);
  for (const t of trajectories) {
    expect(t.error).toBeNull();
    const calls = t.messages.flatMap((m) => m.toolCalls ?? []);
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.at(-1)!.name).toBe('submit_answer');
    expect(t.messages.filter((m) => m.role === 'tool').length).toBe(calls.length);
    expect(t.messages.filter((m) => m.trainable).length).toBe(4);
    expect((t.tools as Array<{ function: { name: string } }>).map((x) => x.function.name)).toEqual([
      'calculate',
      'submit_answer',
    ]);
    // The environment's reward: 1 for the right number, 0 for the wrong one.
    expect([0, 1]).toContain(t.reward);
    expect(t.metadata).toMatchObject({ reward_source: 'environment', rollout_kind: 'http', turns: 4 });
  }
  // Sampled variants differ: each group has one right and one wrong answer, so GRPO learns from it.
  expect(trajectories.filter((t) => t.reward === 1)).toHaveLength(4);
  // The environment gave every reward: RULER was not asked.
  expect(sims.openai.counts.judge).toBe(judged);

  // What the trainer got: each trajectory with all four assistant choices, logprobs included, and the tools.
  const trains = sims.art.requests.filter((r) => r.path === '/_train_model').slice(trainsBefore);
  expect(trains).toHaveLength(2);
  for (const train of trains) {
    const body = train.body as {
      trajectory_groups: Array<{
        trajectories: Array<{
          messages_and_choices: Array<Record<string, unknown>>;
          tools: unknown[];
          reward: number;
        }>;
      }>;
    };
    expect(body.trajectory_groups).toHaveLength(2);
    for (const t of body.trajectory_groups.flatMap((g) => g.trajectories)) {
      const choices = t.messages_and_choices.filter((m) => m.role === undefined);
      expect(choices).toHaveLength(4);
      for (const c of choices) {
        expect((c.logprobs as { content: unknown[] }).content.length).toBeGreaterThan(0);
        expect((c.message as { tool_calls: unknown[] }).tool_calls).toHaveLength(1);
      }
      expect(t.tools).toHaveLength(2);
    }
  }
  // Every episode was closed.
  expect(env.open()).toEqual([]);
  const episodes = new Set(env.callsTo('/reset').map((c) => c.body.episodeId));
  expect(new Set(env.callsTo('/close').map((c) => c.body.episodeId))).toEqual(episodes);
}

describe('HTTP rollouts', () => {
  it('stores multi-turn tool-calling episodes and trains on every assistant choice with its logprobs', () =>
    playsAgenticRun(s));
});

// Each trajectory is appended to its group as it finishes, then the group is completed: the same
// statements on PostgreSQL (its own locking and conflict rules) must store the same run.
describe.skipIf(!postgresUrl)(postgresSuiteTitle('HTTP rollouts (PostgreSQL)'), () => {
  let db: FreshPostgresDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
  });
  afterAll(() => db?.drop());
  const pg = useTestServer(() => ({ databaseUrl: db.url, pipeline: pipelineConfig(sims, { maxConcurrentRuns: 4 }) }));
  // Its own model name: the ART simulator is shared with the SQLite server, whose first run has the same default.
  it('stores and trains the same multi-turn run on PostgreSQL', () =>
    playsAgenticRun(pg, { trainedModelName: 'agentic-postgres' }));
});

describe('HTTP rollouts without an environment reward', () => {
  it('are scored by RULER, whose prompt carries the tools in <available_tools>', async () => {
    const judgeCalls = sims.openai.callsOf('judge').length;
    const run = await createHttpRun(
      s,
      'agentic-ruler',
      {},
      {
        scenarios: SCENARIOS.slice(0, 2).map((x) => ({ ...x, context: { ...x.context, reward: false } })),
      },
    );
    const done = await waitDone(s, run.id, 60_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('COMPLETED');
    const judged = sims.openai.callsOf('judge').slice(judgeCalls);
    expect(judged).toHaveLength(2); // one per group
    for (const call of judged) {
      const prompt = (call.body as { messages: Array<{ content: string }> }).messages[1].content;
      expect(prompt).toContain('<available_tools>');
      expect(prompt).toContain('"name": "calculate"');
      expect(prompt).toContain('"tool_calls"');
    }
    for (const t of await trajectoriesOf(s, run.id)) {
      expect(t.judgeExplanation).toBeTruthy();
      expect(t.metadata).not.toHaveProperty('reward_source');
      expect((t.art as { reward: number }).reward).toBe(t.reward);
    }
  });
});

describe('HTTP environment faults', () => {
  it('retries 5xx and malformed JSON with backoff; the episodes succeed', async () => {
    env.faults.failNext(2, 503, '/step');
    env.faults.malformedNext(1, '/reset');
    const run = await createHttpRun(s, 'agentic-retry', {}, { scenarios: SCENARIOS.slice(0, 2) });
    const done = await waitDone(s, run.id, 60_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('COMPLETED');
    const trajectories = await trajectoriesOf(s, run.id);
    expect(trajectories.map((t) => t.error)).toEqual([null, null, null, null]);
    expect(env.faults).toBeDefined();
    expect(env.calls.filter((c) => c.status === 503)).toHaveLength(2);
  });

  it('stores an episode that never says done as failed with its cause; a group left with fewer than two is not trained', async () => {
    env.faults.neverDone(true);
    const trainsBefore = sims.art.trainCalls.length;
    const run = await createHttpRun(s, 'agentic-never-done', { maxTurns: 3 }, { scenarios: SCENARIOS.slice(0, 2) });
    const done = await waitDone(s, run.id, 60_000);
    expect(done.status).toBe('FAILED');
    expect(done.error).toContain('every rollout failed');
    expect(done.error).toContain('did not say done within maxTurns (3)');
    const trajectories = await trajectoriesOf(s, run.id);
    expect(trajectories).toHaveLength(4);
    for (const t of trajectories) {
      expect(t.error).toMatch(
        /^EnvironmentError: .* did not say done within maxTurns \(3\) \(the episode was played 2 times\)$/,
      );
      expect(t.droppedReason).toContain('only 0 of 2 rollouts succeeded');
      expect(t.messages.filter((m) => m.trainable)).toHaveLength(3);
    }
    expect(sims.art.trainCalls.length).toBe(trainsBefore);
    expect(env.open()).toEqual([]);
  });

  it('fails the run as hung when the environment stops answering, and closes the episodes', async () => {
    const hung = await startPipelineServer(sims, { stallTimeoutMs: 1500, requestTimeoutMs: 60_000 });
    try {
      env.faults.hangNext(100, '/step');
      const run = await createHttpRun(hung, 'agentic-hang', {}, { scenarios: SCENARIOS.slice(0, 2) });
      const done = await waitDone(hung, run.id, 60_000);
      expect(done.status).toBe('FAILED');
      expect(done.error).toMatch(/^COLLECTING: no progress for 2 s/);
      await waitFor(() => env.open().length === 0, 10_000, 'every episode closed');
    } finally {
      await hung.stop();
    }
  });

  it('cancel stops the run within its in-flight episode and closes it', async () => {
    env.faults.hangNext(100, '/step');
    const seen = env.calls.length;
    const run = await createHttpRun(s, 'agentic-cancel', {}, { scenarios: SCENARIOS.slice(0, 2) });
    await waitFor(
      () => env.calls.slice(seen).some((c) => c.path === '/step' && c.status === undefined),
      30_000,
      'a step in flight',
    );
    expect(env.open().length).toBeGreaterThan(0);
    const cancelled = expectResult(
      (await s.gql(CancelRun, { id: run.id })).cancelTrainingRun,
      'CancelTrainingRunPayload',
    );
    expect(cancelled.run.status).toBe('CANCELLED');
    await waitFor(() => env.open().length === 0, 10_000, 'the in-flight episodes closed');
    expect((await trajectoriesOf(s, run.id)).length).toBe(0);
  });
});

describe('HTTP rollouts, live', () => {
  it('publish runProgress after every turn (each model call and each environment step) and trajectoriesRecorded per trajectory', async () => {
    // The model's first answer waits until both subscriptions listen, so no event can be missed.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    sims.openai.setResponder('rollout', async (_req, ctx) => {
      await gate;
      return ctx.defaultReply();
    });
    try {
      const run = await createHttpRun(s, 'agentic-live', {}, { scenarios: SCENARIOS.slice(0, 2) });
      const client = wsClient(s.url);
      const before = [s.app.events.listenerCount('runProgress'), s.app.events.listenerCount('trajectoriesRecorded')];
      const progress: OnProgressSubscription[] = [];
      const recorded: OnTrajectoryCountsSubscription[] = [];
      void (async () => {
        for await (const e of subscribe(client, OnProgress, { runId: run.id })) if (e.data) progress.push(e.data);
      })().catch(() => undefined);
      void (async () => {
        for await (const e of subscribe(client, OnTrajectoryCounts, { runId: run.id }))
          if (e.data) recorded.push(e.data);
      })().catch(() => undefined);
      await waitFor(
        () =>
          s.app.events.listenerCount('runProgress') > before[0] &&
          s.app.events.listenerCount('trajectoriesRecorded') > before[1],
        10_000,
        'both subscriptions',
      );
      release();
      const done = await waitDone(s, run.id, 60_000);
      expect(done.status).toBe('COMPLETED');
      await waitFor(() => recorded.length >= 4, 10_000, 'trajectoriesRecorded for each trajectory');
      expect(recorded.map((e) => e.trajectoriesRecorded.count)).toEqual([1, 1, 1, 1]);
      const collecting = progress.filter((e) => e.runProgress.step === 0 && e.runProgress.gradientStepsDone === 0);
      // 4 episodes × (reset + 4 model calls + 4 steps) turns, each published, before the last rollout is done.
      expect(collecting.filter((e) => e.runProgress.rolloutsDone < 4).length).toBeGreaterThanOrEqual(4 * 9);
      expect(new Set(collecting.map((e) => e.runProgress.rolloutsDone))).toEqual(new Set([0, 1, 2, 3, 4]));
      await client.dispose();
    } finally {
      sims.openai.setResponder('rollout', null);
    }
  });

  it('stores and announces each trajectory as it finishes, while the rest of its group still plays', async () => {
    // The model's first answer waits until the subscription listens; the first episode's steps are held.
    let start!: () => void;
    const gate = new Promise<void>((r) => (start = r));
    sims.openai.setResponder('rollout', async (_req, ctx) => {
      await gate;
      return ctx.defaultReply();
    });
    const hold = env.faults.holdNextEpisode();
    try {
      const run = await createHttpRun(s, 'agentic-arrival', {}, { scenarios: SCENARIOS.slice(0, 1) });
      const client = wsClient(s.url);
      const before = s.app.events.listenerCount('trajectoriesRecorded');
      const recorded: OnTrajectoryCountsSubscription[] = [];
      void (async () => {
        for await (const e of subscribe(client, OnTrajectoryCounts, { runId: run.id }))
          if (e.data) recorded.push(e.data);
      })().catch(() => undefined);
      await waitFor(() => s.app.events.listenerCount('trajectoriesRecorded') > before, 10_000, 'the subscription');
      start();
      const held = await hold.episodeId;
      await waitFor(() => recorded.length >= 1, 30_000, 'the first trajectory announced');
      // The group's other episode is still open, its step held: the announced one was stored on its own.
      expect(env.open()).toContain(held);
      expect(recorded[0].trajectoriesRecorded).toEqual({ count: 1, step: 0 });
      const stored = await trajectoriesOf(s, run.id);
      expect(stored).toHaveLength(1);
      expect(stored[0].error).toBeNull();
      hold.release();
      const done = await waitDone(s, run.id, 60_000);
      expect(done.status).toBe('COMPLETED');
      await waitFor(() => recorded.length >= 2, 10_000, 'the second trajectory announced');
      expect(recorded.map((e) => e.trajectoriesRecorded.count)).toEqual([1, 1]);
      const all = await trajectoriesOf(s, run.id);
      expect(all).toHaveLength(2);
      expect(all.every((t) => t.reward !== null)).toBe(true);
      await client.dispose();
    } finally {
      hold.release();
      sims.openai.setResponder('rollout', null);
    }
  });
});
