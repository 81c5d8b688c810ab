// The training pipeline end to end, through GraphQL against a real server wired to the simulated
// provider and ART backend over real HTTP: a whole run with exact counts, watched live; RULER
// requests as ART builds them; cancel mid-collection and mid-training; retries; permanent failure;
// hang detection; testTrainedModel; and the settings a pipeline run needs.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { OnProgressSubscription } from './gql/graphql';
import { pipelineConfig, PROVIDER_KEY, startPipelineServer, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { startServer, useTestServer, type TestServer } from './helpers/server';
import { subscribe, take, waitFor, wsClient } from './helpers/subscriptions';
import {
  CancelRun,
  CreatePipelineRun,
  FleetRun,
  OnProgress,
  OnRunStatus,
  PipelineRunDetails,
  StepTrajectories,
  TestModel,
} from './operations';

let sims: Sims;
beforeAll(async () => {
  sims = await startSims();
});
afterAll(() => sims?.close());
const s = useTestServer(() => ({ pipeline: pipelineConfig(sims, { maxConcurrentRuns: 4 }) }));
afterEach(() => {
  sims.openai.faults.reset();
  sims.art.faults.reset();
  sims.openai.faults.setLatency(0);
  sims.art.faults.setLatency(0);
  sims.art.setGradientStepMs(5);
});

type Input = Record<string, unknown>;
async function create(server: TestServer, input: Input = {}, pipeline: Input = {}) {
  const res = await server.gql(CreatePipelineRun, {
    input: {
      modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
      projectName: 'pipe',
      taskDescription: 'Answer customer questions about shipping',
      numExamples: 6,
      rolloutsPerGroup: 3,
      numEpochs: 2,
      pipeline: { groupsPerStep: 2, ...pipeline },
      ...input,
    },
  });
  return expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
}

async function details(server: TestServer, id: string) {
  return (await server.gql(PipelineRunDetails, { id })).run!;
}

async function waitStatus(server: TestServer, id: string, statuses: string[], timeoutMs = 30_000) {
  let last = '';
  await waitFor(
    async () => statuses.includes((last = (await details(server, id)).status)),
    timeoutMs,
    `status ${statuses.join('/')} (last ${last})`,
  );
  return details(server, id);
}

async function allTrajectories(server: TestServer, runId: string, step?: number) {
  const out = [];
  let after: string | null | undefined;
  do {
    const page = (await server.gql(StepTrajectories, { runId, step, first: 100, after })).trajectories;
    out.push(...page.edges.map((e) => e.node));
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after);
  return out;
}

describe('a whole pipeline run', () => {
  it('goes from creation to COMPLETED with the exact counts, watched live', async () => {
    const client = wsClient(s.url);
    const baseline = s.app.events.listenerCount('runStatus'); // the runner listens too
    const all = subscribe(client, OnRunStatus, { projectName: 'whole' });
    const first = all.next();
    await waitFor(() => s.app.events.listenerCount('runStatus') > baseline, 5000, 'the subscription');
    const run = await create(s, { projectName: 'whole' });
    expect(run).toMatchObject({ status: 'PENDING', mode: 'PIPELINE', config: { pipeline: { groupsPerStep: 2 } } });

    // 6 inputs / 2 per step = 3 steps per epoch, 2 epochs: 6 steps of 2 groups × 3 rollouts.
    const steps = 6;
    const expected = [
      'PENDING',
      'GENERATING',
      ...Array.from({ length: steps }, () => ['COLLECTING', 'SCORING', 'TRAINING']).flat(),
      'COMPLETED',
    ];
    const events = [(await first).value!.data!, ...(await take(all, expected.length - 1, 60_000))];
    expect(events.map((e) => e.runStatusChanged.to)).toEqual(expected);
    await client.dispose();

    const done = await details(s, run.id);
    expect(done).toMatchObject({ status: 'COMPLETED', error: null, trainedModelName: `atelier-run-${run.databaseId}` });
    expect(done.completedAt).not.toBeNull();
    expect(done.systemPrompt).toBeTruthy();
    expect(done.taskInputs).toHaveLength(6);
    expect(new Set(done.taskInputs.map((t) => t.inputText)).size).toBe(6);
    expect(done.trajectories.totalCount).toBe(steps * 2 * 3);
    expect(done.metricHistory.map((p) => [p.step, p.epoch, p.totalTrajectories])).toEqual(
      Array.from({ length: steps }, (_, i) => [i, Math.floor(i / 3), 6]),
    );
    for (const p of done.metricHistory) {
      expect(p.avgReward).toBeGreaterThanOrEqual(0);
      expect(p.avgReward).toBeLessThanOrEqual(1);
      expect(p.values.find((v) => v.name === 'groups')?.value).toBe(2);
    }
    // One loss series per step: the gradient steps the backend streamed, one per trainable group.
    for (let step = 0; step < steps; step++) {
      const series = done.gradientSteps.filter((g) => g.step === step);
      const trainable = done.metricHistory[step].values.find((v) => v.name === 'trainable_groups')!.value!;
      expect(series.map((g) => g.gradientStep)).toEqual(Array.from({ length: trainable }, (_, i) => i));
      expect(series.every((g) => typeof g.loss === 'number')).toBe(true);
    }
    expect(done.metrics).toMatchObject({ totalTrajectories: 36, step: 5, epoch: 1 });
    // The batch of the last step, and of any step, as ART's iteration gives it with the run's groupsPerStep.
    expect(done.currentBatch).toMatchObject({ step: 5, epoch: 1, epochStep: 2 });
    expect(done.inputBatch).toMatchObject({ step: 4, epoch: 1, epochStep: 1 });
    for (const batch of [done.currentBatch!, done.inputBatch!]) {
      expect(batch.items).toHaveLength(2);
      const stepInputs = new Set((await allTrajectories(s, run.id, batch.step)).map((t) => t.taskInput.inputText));
      expect(new Set(batch.items.map((i) => i.inputText))).toEqual(stepInputs);
    }

    // Each step trained exactly once by the backend, on the run's model, with the run's learning rate.
    const calls = sims.art.trainCalls.filter((c) => c.name === done.trainedModelName);
    expect(calls.map((c) => c.step)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(
      calls.every((c) => c.outcome === 'completed' && c.config.learning_rate === 1e-5 && c.config.beta === 0),
    ).toBe(true);
    expect(sims.art.stepOf('whole', done.trainedModelName!)).toBe(6);

    // Every trajectory keeps RULER's verdict; the raw choices never leak into the API.
    const trajectories = await allTrajectories(s, run.id);
    expect(trajectories).toHaveLength(36);
    for (const t of trajectories) {
      expect(t.reward).toBeGreaterThanOrEqual(0);
      expect(t.judgeExplanation).toBeTruthy();
      expect(t.independentReward).toBeNull();
      expect(t.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
      expect(t.metadata).toMatchObject({ kind: 'rollout', ruler_score: t.reward });
    }
    expect(JSON.stringify(trajectories)).not.toContain('logprobs');
  }, 90_000);

  it('sends RULER requests as ART builds them and the backend the JSON shapes it expects', async () => {
    const run = await create(s, { projectName: 'shapes', numEpochs: 1, maxSteps: 1, rolloutsPerGroup: 4 });
    await waitStatus(s, run.id, ['COMPLETED']);
    // Runs on one backend execute one at a time: the latest judge call is this run's.
    const body = sims.openai.requests.filter((r) => r.kind === 'judge').at(-1)!.body as {
      model: string;
      messages: { role: string; content: string }[];
      response_format: { type: string };
    };
    expect(body.model).toBe('sim-judge');
    expect(body.messages[0].content).toMatch(/score between 0 and 1/);
    const user = body.messages[1].content;
    // As ART's ruler.py builds it: Python's json.dumps, the shared prefix once, then "Trajectories:".
    expect(user).toMatch(/^<context>\n\[\{"role": "system"/);
    expect(user).toContain('</context>\n\nTrajectories:\n\n<trajectory id="1">');
    expect(user.match(/<trajectory id="\d+">/g) ?? []).toEqual([
      '<trajectory id="1">',
      '<trajectory id="2">',
      '<trajectory id="3">',
      '<trajectory id="4">',
    ]);
    // The shared prefix (system + user) is sent once, not inside each trajectory.
    expect(user.split('<trajectory')[1]).toMatch(/^ id="1">\n\[\{"role": "assistant"/);
    expect(user).toMatch(/Return exactly 4 scores, one for each trajectory_id: 1, 2, 3, 4\.$/);
    expect(body.response_format.type).toBe('json_schema');

    const rollout = sims.openai.requests.find((r) => r.kind === 'rollout')!.body as {
      model: string;
      logprobs: boolean;
      temperature: number;
    };
    expect(rollout).toMatchObject({ logprobs: true, temperature: 0.7 });
    // The default simulator is ART 0.3.11's `art run`, whose vLLM serves the LoRA under the model's bare name.
    expect(rollout.model).toMatch(/^atelier-run-\d+$/);
    const prepare = sims.art.requests.find(
      (r) => r.path === '/_prepare_backend_for_training' && JSON.stringify(r.body).includes('"shapes"'),
    )!;
    expect(prepare.body).toMatchObject({
      model: { project: 'shapes', base_model: 'Qwen/Qwen2.5-1.5B-Instruct', trainable: true },
      config: null,
    });
    const train = sims.art.requests.filter((r) => r.path === '/_train_model').at(-1)!.body as {
      trajectory_groups: { trajectories: { messages_and_choices: unknown[] }[] }[];
    };
    const mc = train.trajectory_groups[0].trajectories[0].messages_and_choices as Record<string, unknown>[];
    expect(mc.map((m) => ('role' in m ? m.role : 'choice'))).toEqual(['system', 'user', 'choice']);
    expect(mc[2]).toMatchObject({
      finish_reason: expect.any(String),
      message: { role: 'assistant' },
      logprobs: { content: expect.any(Array) },
    });
    // The provider key travels only in the Authorization header.
    expect(sims.openai.requests.some((r) => JSON.stringify(r.body).includes(PROVIDER_KEY))).toBe(false);
  }, 60_000);

  it('retries a wrong number of RULER scores once, and rejects scores outside [0, 1]', async () => {
    sims.openai.faults.wrongScoreCountNext(1);
    const ok = await create(s, { projectName: 'judge-retry', numEpochs: 1, maxSteps: 1 });
    expect((await waitStatus(s, ok.id, ['COMPLETED', 'FAILED'])).status).toBe('COMPLETED');
    // The retry carries the bad answer as the judge's turn, then names what was wrong with it.
    const retry = sims.openai.requests.find(
      (r) => r.kind === 'judge' && (r.body as { messages: unknown[] }).messages.length === 4,
    )!.body as { messages: { role: string; content: string }[] };
    expect(retry.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(JSON.parse(retry.messages[2].content).scores).toHaveLength(2);
    expect(retry.messages[3].content).toMatch(
      /missing trajectory_id 3\b.*Return exactly 3 scores, one for each trajectory_id: 1, 2, 3\./,
    );

    sims.openai.setResponder('judge', (req) => {
      const n = (JSON.stringify(req.messages).match(/<trajectory id=/g) ?? []).length;
      return {
        scores: Array.from({ length: n }, (_, i) => ({
          trajectory_id: String(i + 1),
          explanation: 'too good',
          score: 1.5,
        })),
      };
    });
    try {
      const bad = await create(s, { projectName: 'judge-range', numEpochs: 1, maxSteps: 1 });
      const failed = await waitStatus(s, bad.id, ['COMPLETED', 'FAILED']);
      expect(failed.status).toBe('FAILED');
      expect(failed.error).toMatch(/^SCORING: .*outside \[0, 1\]/);
      // What was stored stays: the collected rollouts are still there.
      expect(failed.trajectories.totalCount).toBe(6);
    } finally {
      sims.openai.setResponder('judge', null);
    }
  }, 60_000);

  it('pushes runProgress through each stage of a step', async () => {
    sims.openai.faults.setLatency(100, 'rollout');
    sims.art.setGradientStepMs(100);
    const run = await create(s, { projectName: 'progress', numEpochs: 1, maxSteps: 2 }, { maxConcurrentRollouts: 2 });
    const client = wsClient(s.url);
    const progress = subscribe(client, OnProgress, { runId: run.id });
    const seen: OnProgressSubscription['runProgress'][] = [];
    // Read until the last step's training has streamed a gradient step.
    while (!seen.some((p) => p.step === 1 && p.gradientStepsDone > 0))
      seen.push(...(await take(progress, 1, 20_000)).map((e) => e.runProgress));
    await client.dispose();
    await waitStatus(s, run.id, ['COMPLETED']);
    expect(seen.every((p) => p.run.id === run.id && p.totalSteps === 2 && p.rolloutsTotal === 6)).toBe(true);
    const last = seen.filter((p) => p.step === 1);
    // Rollouts counted one by one, then every judge call, then the trainer's gradient steps.
    const rollouts = last.map((p) => p.rolloutsDone);
    expect(rollouts).toEqual([...rollouts].sort((a, b) => a - b));
    expect(rollouts).toContain(6);
    expect(last.some((p) => p.judgeCallsTotal === 2 && p.judgeCallsDone === 2)).toBe(true);
    expect(last.at(-1)).toMatchObject({ rolloutsDone: 6, judgeCallsDone: 2, gradientStepsDone: 1 });
  }, 60_000);

  it('records a failed rollout with its error and drops a group left with fewer than two', async () => {
    // One rollout at a time: the first group's first two rollouts are the two that fail.
    sims.openai.faults.failNext(2, 400, { kind: 'rollout', message: 'context length exceeded' });
    const run = await create(
      s,
      { projectName: 'failed-rollouts', numEpochs: 1, maxSteps: 1 },
      { maxConcurrentRollouts: 1 },
    );
    const done = await waitStatus(s, run.id, ['COMPLETED', 'FAILED']);
    expect(done.status).toBe('COMPLETED');
    const step = await allTrajectories(s, run.id, 0);
    expect(step).toHaveLength(6);
    const failed = step.filter((t) => t.error);
    expect(failed).toHaveLength(2);
    expect(failed[0].error).toMatch(/HTTP 400.*context length exceeded/);
    expect(failed.every((t) => t.messages.map((m) => m.role).join() === 'system,user' && t.reward === null)).toBe(true);
    const dropped = step.filter((t) => t.droppedReason);
    expect(dropped).toHaveLength(3);
    expect(dropped[0].droppedReason).toMatch(/only 1 of 3 rollouts succeeded/);
    expect(dropped.every((t) => t.reward === null)).toBe(true);
    expect(step.filter((t) => t.reward !== null)).toHaveLength(3);
    expect(done.metricHistory[0].values.find((v) => v.name === 'groups')?.value).toBe(1);
  }, 60_000);

  it('honours maxSteps', async () => {
    const run = await create(s, { projectName: 'capped', maxSteps: 2 });
    const done = await waitStatus(s, run.id, ['COMPLETED']);
    expect(done.metricHistory.map((p) => p.step)).toEqual([0, 1]);
    expect(done.trajectories.totalCount).toBe(12);
  }, 60_000);

  it('runs one run at a time on a backend; the others wait in PENDING, first come first served', async () => {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await create(s, { projectName: 'fifo', numEpochs: 1, maxSteps: 1 }));
    const positions = await Promise.all(
      runs.map(async (r) => (await s.gql(FleetRun, { id: r.id })).run!.queuePosition),
    );
    expect(positions[2]).toBeGreaterThan(0);
    for (const r of runs) await waitStatus(s, r.id, ['COMPLETED']);
    const spans = await Promise.all(
      runs.map(async (r) => {
        const h = (await details(s, r.id)).statusHistory;
        return [Date.parse(h.find((x) => x.to === 'GENERATING')!.at), Date.parse(h.at(-1)!.at)];
      }),
    );
    for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBeGreaterThanOrEqual(spans[i - 1][1]);
  }, 60_000);
});

describe('control and failure', () => {
  it('cancels mid-collection within seconds: calls aborted, nothing more written', async () => {
    sims.openai.faults.setLatency(5_000, 'rollout');
    const run = await create(s, { projectName: 'cancel-collect' });
    await waitStatus(s, run.id, ['COLLECTING']);
    await waitFor(() => sims.openai.inFlightOf('rollout') > 0, 10_000, 'rollouts in flight');
    const t0 = Date.now();
    const res = await s.gql(CancelRun, { id: run.id });
    expect(res.cancelTrainingRun).toMatchObject({
      __typename: 'CancelTrainingRunPayload',
      run: { status: 'CANCELLED' },
    });
    expect(Date.now() - t0).toBeLessThan(3000);
    await waitFor(() => sims.openai.inFlightOf('rollout') === 0, 3000, 'in-flight rollouts aborted');
    await new Promise((r) => setTimeout(r, 300));
    const after = await details(s, run.id);
    expect(after.status).toBe('CANCELLED');
    expect(after.trajectories.totalCount).toBe(0);
    expect(after.statusHistory.at(-1)).toMatchObject({ from: 'COLLECTING', to: 'CANCELLED' });
    const again = await s.gql(CancelRun, { id: run.id });
    expectResult(again.cancelTrainingRun, 'IllegalTransitionError');
  }, 30_000);

  it('cancels mid-training: the stream is aborted and no more gradient steps are stored', async () => {
    sims.art.setGradientStepMs(1500);
    const run = await create(s, { projectName: 'cancel-train', numEpochs: 1, maxSteps: 1 });
    await waitStatus(s, run.id, ['TRAINING']);
    await waitFor(() => sims.art.trainingInFlight > 0, 10_000, 'training in flight');
    const res = await s.gql(CancelRun, { id: run.id });
    expect(res.cancelTrainingRun).toMatchObject({ run: { status: 'CANCELLED' } });
    await waitFor(() => sims.art.trainingInFlight === 0, 5000, 'the training stream closed');
    const stored = (await details(s, run.id)).gradientSteps.length;
    await new Promise((r) => setTimeout(r, 2000));
    const after = await details(s, run.id);
    expect(after.gradientSteps.length).toBe(stored);
    expect(after.metricHistory).toHaveLength(0);
    expect(sims.art.trainCalls.filter((c) => c.project === 'cancel-train').map((c) => c.outcome)).toEqual(['aborted']);
  }, 30_000);

  it('retries 429 (honouring Retry-After) and 5xx answers, and completes', async () => {
    sims.openai.faults.failNext(2, 429, { kind: 'rollout', retryAfter: 1 });
    sims.openai.faults.failNext(2, 503, { kind: 'judge' });
    sims.art.faults.failNext(1, 502, { endpoint: '/_get_step' });
    const run = await create(s, { projectName: 'retries', numEpochs: 1, maxSteps: 1 });
    const done = await waitStatus(s, run.id, ['COMPLETED', 'FAILED']);
    expect(done.error).toBeNull();
    expect(done.status).toBe('COMPLETED');
    expect(done.trajectories.totalCount).toBe(6);
    const statuses = sims.openai.requests.map((r) => r.status);
    expect(statuses.filter((x) => x === 429)).toHaveLength(2);
    expect(statuses.filter((x) => x === 503)).toHaveLength(2);
    expect(sims.openai.faults.pending()).toBe(0);
    expect(sims.art.faults.pending()).toBe(0);
    // Retry-After: 1 s was waited, not skipped.
    const r429 = sims.openai.requests.filter((r) => r.kind === 'rollout');
    const firstRetry = r429.findIndex((r) => r.status === 429);
    expect(r429.slice(firstRetry + 1).some((r) => r.at - r429[firstRetry].at >= 900)).toBe(true);
  }, 60_000);

  it('fails on a permanent error, naming the stage and the cause, and keeps what was stored', async () => {
    sims.art.faults.failNext(1, 400, { endpoint: '/_train_model' });
    const run = await create(s, { projectName: 'permanent', numEpochs: 1, maxSteps: 1 });
    const failed = await waitStatus(s, run.id, ['COMPLETED', 'FAILED']);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(/^TRAINING: ART backend \/_train_model: HTTP 400/);
    expect(failed.error).not.toContain(PROVIDER_KEY);
    expect(failed.trajectories.totalCount).toBe(6);
    expect(failed.taskInputs).toHaveLength(6);
  }, 30_000);

  it('fails a run whose backend hangs, saying so', async () => {
    const hung = await startPipelineServer(sims, { stallTimeoutMs: 1500, requestTimeoutMs: 60_000 });
    try {
      sims.art.faults.hangForever({ endpoint: '/_train_model' });
      const run = await create(hung, { projectName: 'hang', numEpochs: 1, maxSteps: 1 });
      const failed = await waitStatus(hung, run.id, ['FAILED', 'COMPLETED'], 30_000);
      expect(failed.status).toBe('FAILED');
      expect(failed.error).toMatch(
        /^TRAINING: no progress for \d+ s \(is the ART backend or the model provider hung\?\)/,
      );
    } finally {
      sims.art.faults.reset();
      await hung.stop();
    }
  }, 40_000);

  it('testTrainedModel answers with the trained model and stores the exchange as a test trajectory', async () => {
    const run = await create(s, { projectName: 'test-model', numEpochs: 1, maxSteps: 1 });
    await waitStatus(s, run.id, ['COMPLETED']);
    const tested = expectResult(
      (await s.gql(TestModel, { runId: run.id, inputText: 'Where is my parcel?' })).testTrainedModel,
      'TestTrainedModelPayload',
    );
    expect(tested.reply.length).toBeGreaterThan(0);
    expect(tested.trajectory).toMatchObject({
      isTest: true,
      taskInput: { step: 999, inputText: 'Where is my parcel?' },
    });
    expect(tested.trajectory.messages.at(-1)).toEqual({ role: 'assistant', content: tested.reply });
    const tests = await allTrajectories(s, run.id, 999);
    expect(tests).toHaveLength(1);

    const pending = await create(s, { projectName: 'test-model-early' }, {});
    const early = await s.gql(TestModel, { runId: pending.id, inputText: 'hi' });
    expectResult(early.testTrainedModel, 'ConflictError');
    await s.gql(CancelRun, { id: pending.id });
  }, 40_000);
});

describe('the runner', () => {
  it('keeps picking up work with one run at a time (a run created after the last one finished starts too)', async () => {
    const single = await startPipelineServer(sims, { maxConcurrentRuns: 1 });
    // Long enough that the runner polls (with no free slot) while the first run trains.
    sims.art.setGradientStepMs(800);
    try {
      for (const project of ['one-a', 'one-b']) {
        const run = await create(single, { projectName: project, numEpochs: 1, maxSteps: 1 });
        expect((await waitStatus(single, run.id, ['COMPLETED', 'FAILED'], 20_000)).status).toBe('COMPLETED');
      }
    } finally {
      await single.stop();
    }
  }, 60_000);
});

describe('settings', () => {
  it('refuses a pipeline run when a server setting is missing, naming it', async () => {
    const bare = await startServer();
    try {
      const res = await bare.gql(CreatePipelineRun, {
        input: { modelName: 'm', projectName: 'p', taskDescription: 't' },
      });
      expect(res.createTrainingRun).toMatchObject({ __typename: 'MissingSettingError', setting: 'ART_BACKEND_URL' });
      const tracked = await bare.gql(CreatePipelineRun, {
        input: { mode: 'TRACKED', modelName: 'm', projectName: 'p', taskDescription: 't' },
      });
      expectResult(tracked.createTrainingRun, 'CreateTrainingRunPayload');
      const mixed = await bare.gql(CreatePipelineRun, {
        input: {
          mode: 'TRACKED',
          modelName: 'm',
          projectName: 'p',
          taskDescription: 't',
          pipeline: { groupsPerStep: 2 },
        },
      });
      expectResult(mixed.createTrainingRun, 'ValidationError');
    } finally {
      await bare.stop();
    }
    const noJudge = await startPipelineServer(sims, { judgeModel: undefined });
    try {
      const res = await noJudge.gql(CreatePipelineRun, {
        input: { modelName: 'm', projectName: 'p', taskDescription: 't' },
      });
      expect(res.createTrainingRun).toMatchObject({ __typename: 'MissingSettingError', setting: 'JUDGE_MODEL' });
      const withJudge = await noJudge.gql(CreatePipelineRun, {
        input: {
          mode: 'PIPELINE',
          modelName: 'm',
          projectName: 'p',
          taskDescription: 't',
          pipeline: { judgeModel: 'my-judge' },
        },
      });
      await noJudge.gql(CancelRun, {
        id: expectResult(withJudge.createTrainingRun, 'CreateTrainingRunPayload').run.id,
      });
      const bad = await noJudge.gql(CreatePipelineRun, {
        input: { modelName: 'm', projectName: 'p', taskDescription: 't', pipeline: { temperature: 3 } },
      });
      expect(bad.createTrainingRun).toMatchObject({ __typename: 'ValidationError' });
    } finally {
      await noJudge.stop();
    }
  }, 30_000);
});
