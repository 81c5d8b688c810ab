// The WORKER rollout kind end to end: a real Atelier server runs PIPELINE runs whose rollouts are the user's
// own ART rollout function (examples/worker-rollout/calculator_agent.py, ART-style, multi-turn, tool-calling,
// using the real `openai` client), run by the real Python worker (`python -m atelier_worker`, the stand-in
// `art` only) against the simulated inference server. The trajectories are streamed back, stored ART-natively
// and trained by the same worker with every assistant turn's choice and its logprobs; an entrypoint that does
// not import fails the run before anything is trained, naming the module; cancel closes the in-flight rollout.
// Skips, saying why, without a Python that has the real openai, pydantic and httpx (scripts/python-env.sh).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { bedConfig, PROVIDER_KEY, waitDone } from './fixtures/pipeline-bed';
import { startWandbSim, type WandbSim } from './fixtures/wandb-sim';
import { pythonSkipReason, pythonWith } from './helpers/python';
import { startPythonWorker, type PythonWorker } from './helpers/python-worker';
import { expectResult } from './helpers/results';
import { startServer, type TestServer } from './helpers/server';
import { subscribe, waitFor, wsClient } from './helpers/subscriptions';
import { AgenticTrajectories, CancelRun, CreatePipelineRun, OnProgress, OnTrajectoryCounts } from './operations';

/** Reads a subscription's events into a list in the background. */
function drain<R>(iter: AsyncIterableIterator<{ data?: R | null }>): { events: R[] } {
  const out = { events: [] as R[] };
  void (async () => {
    for await (const e of iter) if (e.data) out.events.push(e.data);
  })().catch(() => undefined);
  return out;
}

const ROOT = join(import.meta.dirname, '..');
const WORKER_DIR = join(ROOT, 'worker');
const PATHS = [
  join(WORKER_DIR, 'tests', 'stand_in'),
  WORKER_DIR,
  join(ROOT, 'examples', 'worker-rollout'),
  join(WORKER_DIR, 'tests'),
];
const MODULES = ['openai', 'pydantic', 'httpx'];
const PYTHON = pythonWith(...MODULES);
const TOKEN = 'rollout-worker-token-0123456789';

const SCENARIOS: Array<{ inputText: string; context: Record<string, unknown> }> = [
  { inputText: 'Compute 12 * 7 + 5', context: { answer: 89 } },
  { inputText: 'Compute (3 + 4) * 6', context: { answer: 42 } },
  { inputText: 'Compute 100 - 58 / 2', context: { answer: 71 } },
  { inputText: 'Compute 9 * 9 - 1', context: { answer: 80 } },
];

/** Starts the real worker on a free port with the stand-in art, the examples and the test simulators importable. */
const startWorker = (args: string[], env: Record<string, string> = {}) =>
  startPythonWorker(PYTHON!, { args, pythonPath: PATHS, env });

describe.skipIf(PYTHON === null)(
  PYTHON === null ? `WORKER rollouts (${pythonSkipReason(...MODULES)})` : 'WORKER rollouts',
  () => {
    let openai: OpenAISim;
    let main: PythonWorker;
    let tmp: string;
    let s: TestServer;
    let workerUrl = '';

    beforeAll(async () => {
      openai = await startOpenAISim();
      tmp = mkdtempSync(join(tmpdir(), 'atelier-rollout-worker-'));
      main = await startWorker(['--art-path', join(tmp, '.art')], { ATELIER_WORKER_TOKEN: TOKEN });
      workerUrl = main.url;
      s = await startServer({
        pipeline: {
          // The stand-in's "vLLM" is at 127.0.0.1:8000: point inference at the simulator instead.
          ...bedConfig(openai.url, { name: 'gpu1', url: workerUrl, kind: 'worker', inferenceUrl: openai.url }),
          workerToken: TOKEN,
          maxConcurrentRuns: 4,
        },
      });
    }, 60_000);

    afterAll(async () => {
      await s?.stop();
      await main?.stop();
      await openai?.close();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    async function createWorkerRun(projectName: string, entrypoint: string, scenarios = SCENARIOS, server = s) {
      const res = await server.gql(CreatePipelineRun, {
        input: {
          modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
          projectName,
          taskDescription: 'Solve arithmetic with a calculator',
          rolloutsPerGroup: 2,
          numEpochs: 1,
          scenarios,
          pipeline: { groupsPerStep: 2, rollout: { kind: 'WORKER', entrypoint } },
        },
      });
      return expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
    }

    /** What the stand-in ART's _train_model got for this model: per trajectory, the kind of each item. */
    function trainedItems(model: string): string[][][] {
      const path = join(tmp, '.art', 'stand_in_received.jsonl');
      if (!existsSync(path)) return [];
      return readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { call: string; model: string; messages_and_choices_types?: string[][] })
        .filter((e) => e.call === '_train_model' && e.model === model)
        .map((e) => e.messages_and_choices_types!);
    }

    it("runs the user's ART rollout: multi-turn tool calls stored ART-natively, live, and trained with every choice", async () => {
      // The model's first answer waits until both subscriptions listen, so no event can be missed.
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      openai.setResponder('rollout', async (_req, ctx) => {
        await gate;
        return ctx.defaultReply();
      });
      const run = await createWorkerRun('worker-agent', 'calculator_agent:rollout');
      const client = wsClient(s.url);
      const progressBefore = s.app.events.listenerCount('runProgress');
      const recordedBefore = s.app.events.listenerCount('trajectoriesRecorded');
      const progress = drain(subscribe(client, OnProgress, { runId: run.id }));
      const recorded = drain(subscribe(client, OnTrajectoryCounts, { runId: run.id }));
      await waitFor(
        () =>
          s.app.events.listenerCount('runProgress') > progressBefore &&
          s.app.events.listenerCount('trajectoriesRecorded') > recordedBefore,
        10_000,
        'both subscriptions',
      );
      release();
      const done = await waitDone(s, run.id, 90_000);
      expect(done.error, main.stderr()).toBeNull();
      expect(done.status).toBe('COMPLETED');

      const trajectories = (await s.gql(AgenticTrajectories, { runId: run.id })).trajectories.edges.map((e) => e.node);
      expect(trajectories).toHaveLength(8);
      for (const t of trajectories) {
        expect(t.error).toBeNull();
        const calls = t.messages.flatMap((m) => m.toolCalls ?? []);
        expect(calls.length).toBeGreaterThanOrEqual(3);
        expect(calls.at(-1)!.name).toBe('submit_answer');
        // Each call's result follows it, linked by tool_call_id.
        expect(t.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(calls.map((c) => c.id));
        expect(t.messages.filter((m) => m.trainable)).toHaveLength(4);
        const art = t.art as { messages_and_choices: Array<Record<string, unknown>>; reward: number };
        for (const c of art.messages_and_choices.filter((m) => m.role === undefined))
          expect((c.logprobs as { content: unknown[] }).content.length).toBeGreaterThan(0);
        // The reward the user's rollout set (1 for the right number), as under ART's trainer.
        expect([0, 1]).toContain(t.reward);
        expect(t.metadata).toMatchObject({ rollout_kind: 'worker', turns: 4 });
      }
      // The simulator's variants differ: one right and one wrong answer per group, so each group trains.
      expect(trajectories.filter((t) => t.reward === 1)).toHaveLength(4);

      // What ART trained on, per step: 2 groups of 2, each trajectory with its 4 assistant turns as Choice objects.
      const trained = trainedItems(done.trainedModelName!);
      expect(trained).toHaveLength(2);
      for (const step of trained) {
        expect(step).toHaveLength(4);
        for (const kinds of step) expect(kinds.filter((k) => k === 'Choice')).toHaveLength(4);
      }
      // Every trajectory had logprobs, so every one was a trainable sequence: 4 gradient steps a step.
      expect(done.gradientSteps).toHaveLength(8);

      openai.setResponder('rollout', null);
      // Live: progress as each model call and each rollout finished (rolloutsDone counting up one by one,
      // every step), and each trajectory announced as it was stored.
      await waitFor(() => recorded.events.length >= 8, 10_000, 'trajectoriesRecorded for each trajectory');
      for (const step of [0, 1]) {
        const ofStep = progress.events.filter((e) => e.runProgress.step === step);
        const done = new Set(ofStep.map((e) => e.runProgress.rolloutsDone));
        expect([...done].sort()).toEqual([0, 1, 2, 3, 4]);
        // Turns are progress too: more events than rollouts (each of the 16 model calls of a step reports).
        expect(ofStep.filter((e) => e.runProgress.rolloutsDone < 4).length).toBeGreaterThan(16);
      }
      expect(recorded.events.map((e) => e.trajectoriesRecorded.count)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
      await client.dispose();

      // The rollouts ran on the served checkpoint, name@step, with logprobs asked.
      const rollouts = openai
        .callsOf('rollout')
        .filter((c) => String((c.body as { model: string }).model).startsWith(done.trainedModelName!));
      expect(new Set(rollouts.map((c) => (c.body as { model: string }).model))).toEqual(
        new Set([`${done.trainedModelName}@0`, `${done.trainedModelName}@1`]),
      );
      expect(rollouts.every((c) => (c.body as { logprobs?: boolean }).logprobs === true)).toBe(true);
    }, 120_000);

    it('fails a run whose entrypoint cannot be imported before anything is trained, naming the module', async () => {
      const run = await createWorkerRun('worker-broken', 'rollout_broken:rollout');
      const done = await waitDone(s, run.id, 60_000);
      expect(done.status).toBe('FAILED');
      expect(done.error).toContain('entrypoint_not_importable');
      expect(done.error).toContain("cannot import module 'rollout_broken'");
      expect(done.error).toContain('atelier_not_installed_package');
      expect(done.trajectories.totalCount).toBe(0);
      expect(trainedItems(`atelier-run-${run.databaseId}`)).toEqual([]);
      // The check ran before any rollout: the inference server was never asked for this run.
      expect(
        openai
          .callsOf('rollout')
          .some((c) => String((c.body as { model: string }).model).startsWith(`atelier-run-${run.databaseId}@`)),
      ).toBe(false);
    }, 90_000);

    it('cancels within seconds: the in-flight rollout is closed on the worker', async () => {
      const marker = join(tmp, 'hang');
      const run = await createWorkerRun('worker-cancel', 'rollout_fixtures:hang', [
        { inputText: 'wait', context: { marker } },
        { inputText: 'wait too', context: { marker: `${marker}-2` } },
      ]);
      await waitFor(() => existsSync(`${marker}.started`), 60_000, 'the rollout started on the worker');
      expect(existsSync(`${marker}.closed`)).toBe(false);
      expectResult((await s.gql(CancelRun, { id: run.id })).cancelTrainingRun, 'CancelTrainingRunPayload');
      await waitFor(() => existsSync(`${marker}.closed`), 10_000, 'the in-flight rollout closed');
      const done = await waitDone(s, run.id, 30_000);
      expect(done.status).toBe('CANCELLED');
    }, 90_000);

    it('trips the stall watchdog when the rollout makes no progress (heartbeats are not progress), and closes it', async () => {
      const hung = await startServer({
        pipeline: {
          ...bedConfig(openai.url, { name: 'gpu1', url: workerUrl, kind: 'worker', inferenceUrl: openai.url }),
          workerToken: TOKEN,
          stallTimeoutMs: 1500,
        },
      });
      try {
        const marker = join(tmp, 'stall');
        const run = await createWorkerRun(
          'worker-stall',
          'rollout_fixtures:hang',
          [
            { inputText: 'wait', context: { marker } },
            { inputText: 'wait too', context: { marker: `${marker}-2` } },
          ],
          hung,
        );
        const done = await waitDone(hung, run.id, 60_000);
        expect(done.status).toBe('FAILED');
        expect(done.error).toMatch(/^COLLECTING: no progress for 2 s/);
        await waitFor(() => existsSync(`${marker}.closed`), 10_000, 'the hung rollout closed on the worker');
      } finally {
        await hung.stop();
      }
    }, 90_000);
  },
);

describe.skipIf(PYTHON === null)(
  PYTHON === null
    ? `WORKER rollouts beside serverless training (${pythonSkipReason(...MODULES)})`
    : 'WORKER rollouts beside serverless training',
  () => {
    const WANDB_KEY = 'wandb-test-key-0123456789abcdef-never-shown';
    let openai: OpenAISim;
    let wandb: WandbSim;
    let worker: Awaited<ReturnType<typeof startWorker>>;
    let s: TestServer;

    beforeAll(async () => {
      openai = await startOpenAISim({ apiKey: PROVIDER_KEY });
      wandb = await startWandbSim({ apiKey: WANDB_KEY, upstreamUrl: openai.url, upstreamKey: PROVIDER_KEY });
      // GPU-less: no LocalBackend, rollouts only.
      worker = await startWorker(['--rollouts-only']);
      s = await startServer({
        pipeline: {
          ...bedConfig(openai.url, { name: 'wandb', url: wandb.url, kind: 'serverless', pollMs: 10 }),
          wandbApiKey: WANDB_KEY,
        },
      });
    }, 60_000);
    afterAll(async () => {
      await s?.stop();
      await worker?.stop();
      await wandb?.close();
      await openai?.close();
    });

    it("plays the user's rollout on a --rollouts-only worker against W&B's inference, and W&B trains the steps", async () => {
      const res = await s.gql(CreatePipelineRun, {
        input: {
          modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
          projectName: 'worker-serverless',
          taskDescription: 'Solve arithmetic with a calculator',
          rolloutsPerGroup: 2,
          numEpochs: 1,
          scenarios: SCENARIOS,
          pipeline: {
            groupsPerStep: 2,
            rollout: { kind: 'WORKER', entrypoint: 'calculator_agent:rollout', url: worker.url },
          },
        },
      });
      const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
      const done = await waitDone(s, run.id, 90_000);
      expect(done.error, worker.stderr()).toBeNull();
      expect(done.status).toBe('COMPLETED');
      expect(wandb.stepOf('worker-serverless', done.trainedModelName!)).toBe(2);
      const trajectories = (await s.gql(AgenticTrajectories, { runId: run.id })).trajectories.edges.map((e) => e.node);
      expect(trajectories).toHaveLength(8);
      for (const t of trajectories) {
        expect(t.error).toBeNull();
        expect(t.messages.flatMap((m) => m.toolCalls ?? []).length).toBeGreaterThanOrEqual(3);
        expect(t.messages.filter((m) => m.trainable)).toHaveLength(4);
      }
      // The rollouts' model calls went to W&B's inference (with the W&B key), on the served checkpoints.
      const chats = wandb.requests.filter((r) => r.route === 'chat');
      expect(chats.length).toBe(8 * 4);
      expect(new Set(wandb.servedModels).size).toBe(2);
    }, 120_000);
  },
);
