// Evaluate while training (#21), through GraphQL against the simulated worker (`name@step`), W&B
// serverless (`name:stepN`) and legacy `art run`: the simulated model answers better or worse with the
// checkpoint it is asked for (best at step 2, not the last), and the simulated RULER judge scores the
// quality the answer states, so val curves, the best checkpoint and retention have a known answer.
// ART's own polars code picks the best step from the same history; retention deletes what ART's rule
// would; an evaluation of step 2 started while step 5 collects completes, and the run trains on.
// Every wait is on an event or a stored state, never on time.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startArtBackendSim, type ArtBackendSim } from './fixtures/art-backend-sim';
import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { trajectoriesIn } from './fixtures/openai-sim-replies';
import { bedConfig, createRun, PROVIDER_KEY, waitDone } from './fixtures/pipeline-bed';
import { startWandbSim, type WandbSim } from './fixtures/wandb-sim';
import { startWorkerSim, type WorkerSim } from './fixtures/worker-sim';
import { spawnServer, type ServerProcess } from './helpers/pipeline';
import { createPostgresDatabase, postgresSuiteTitle, postgresUrl } from './helpers/postgres';
import { pythonSkipReason, pythonWith } from './helpers/python';
import { startServer, type TestServer } from './helpers/server';
import { iterate, waitFor, wsClient } from './helpers/subscriptions';

const TOKEN = 'worker-token-0123456789abcdef';
const WANDB_KEY = 'wandb-test-key-0123456789abcdef-never-shown';
/** The simulated model's quality per checkpoint step: best at 2, and the last (6) is not. */
const QUALITY = [0.2, 0.4, 0.9, 0.6, 0.5, 0.3, 0.35, 0.25];
const VAL = [
  { inputText: 'VAL-SCENARIO-1: where is my parcel?', context: { answer: 'in transit' } },
  { inputText: 'VAL-SCENARIO-2: can I change the address?', context: null },
];

let openai: OpenAISim;
let worker: WorkerSim;
let wandb: WandbSim;
let legacy: ArtBackendSim;
let s: TestServer;
const polarsPython = pythonWith('polars');

/** Held rollouts: a prompt containing the key waits until the test releases it. */
const holds = new Map<
  string,
  { all: string[]; reached: () => void; reachedP: Promise<void>; release: () => void; releaseP: Promise<void> }
>();
/** Holds rollouts whose model and prompt contain the key (every one of them, when several). */
function hold(key: string | string[]) {
  let reached!: () => void;
  let release!: () => void;
  const reachedP = new Promise<void>((r) => (reached = r));
  const releaseP = new Promise<void>((r) => (release = r));
  const all = Array.isArray(key) ? key : [key];
  const h = { all, reached, reachedP, release, releaseP };
  holds.set(all.join('+'), h);
  return h;
}

function stepOf(model: string): number {
  const m = /(?:@|:step)(\d+)$/.exec(model);
  return m ? Number(m[1]) : 0;
}

beforeAll(async () => {
  openai = await startOpenAISim({ apiKey: PROVIDER_KEY });
  openai.setResponder('rollout', async (req, ctx) => {
    const text = `${String(req.model)} ${JSON.stringify(req.messages)}`;
    for (const h of holds.values())
      if (h.all.every((k) => text.includes(k))) {
        h.reached();
        await h.releaseP;
      }
    const step = stepOf(String(req.model));
    return `Quality ${QUALITY[step] ?? 0.1} answer (variant ${ctx.call}) from checkpoint ${step}.`;
  });
  openai.setResponder('judge', (req) => ({
    scores: trajectoriesIn(req).map(({ id, text }) => ({
      trajectory_id: id,
      explanation: 'scored by the quality it states',
      score: Number(/Quality ([\d.]+)/.exec(text)?.[1] ?? 0),
    })),
  }));
  worker = await startWorkerSim({ inferenceUrl: openai.url, inferenceApiKey: PROVIDER_KEY, token: TOKEN });
  legacy = await startArtBackendSim({ inferenceUrl: openai.url, inferenceApiKey: PROVIDER_KEY });
  wandb = await startWandbSim({ apiKey: WANDB_KEY, upstreamUrl: openai.url, upstreamKey: PROVIDER_KEY });
  s = await startServer({
    pipeline: {
      ...bedConfig(openai.url, { name: 'gpu1', url: worker.url, kind: 'worker' }),
      artBackends: [
        { name: 'gpu1', url: worker.url, kind: 'worker' },
        { name: 'wandb', url: wandb.url, kind: 'serverless', pollMs: 10 },
        { name: 'legacy', url: legacy.url, kind: 'art-run' },
      ],
      workerToken: TOKEN,
      wandbApiKey: WANDB_KEY,
    },
  });
});
afterAll(async () => {
  for (const h of holds.values()) h.release();
  await s?.stop();
  await worker?.close();
  await wandb?.close();
  await legacy?.close();
  await openai?.close();
});

const DETAILS = `query($id: ID!) { run(id: $id) {
  status error trainedModelName
  checkpoints(first: 100) { step name deletedAt metrics { name value } }
  bestCheckpoint { step value checkpoint { step } }
  val: metricHistory(split: "val") { step avgReward }
  train: metricHistory(split: "train") { step avgReward trainingLoss }
  eval: metricHistory(split: "eval") { step avgReward }
  valTrajectories: trajectories(filter: { split: "val" }, first: 1) { totalCount }
  evaluations { id step status modelName error metrics { name value } }
} }`;
interface Details {
  status: string;
  error: string | null;
  trainedModelName: string;
  checkpoints: Array<{
    step: number;
    name: string;
    deletedAt: string | null;
    metrics: Array<{ name: string; value: number }>;
  }>;
  bestCheckpoint: { step: number; value: number; checkpoint: { step: number } | null } | null;
  val: Array<{ step: number; avgReward: number | null }>;
  train: Array<{ step: number; avgReward: number | null; trainingLoss: number | null }>;
  eval: Array<{ step: number; avgReward: number | null }>;
  valTrajectories: { totalCount: number };
  evaluations: Array<{
    id: string;
    step: number;
    status: string;
    modelName: string | null;
    error: string | null;
    metrics: Array<{ name: string; value: number }>;
  }>;
}
const details = async (id: string) => (await s.gql<{ run: Details }, unknown>(DETAILS, { id })).run;

const EVALUATE = `mutation($r: ID!, $step: Int!, $sc: [EvalScenarioInput!], $d: ID) {
  evaluateCheckpoint(runId: $r, step: $step, scenarios: $sc, datasetId: $d) {
    __typename
    ... on EvaluateCheckpointPayload { evaluation { id step status } }
    ... on CheckpointNotServedError { step servedStep }
    ... on ValidationError { issues { field rule } }
    ... on Error { message }
  } }`;
type Evaluated = {
  evaluateCheckpoint: {
    __typename: string;
    evaluation?: { id: string; step: number; status: string };
    message?: string;
    servedStep?: number;
    issues?: Array<{ field: string; rule: string }>;
  };
};
const evaluate = async (runId: string, step: number, scenarios?: unknown, datasetId?: string) =>
  (await s.gql<Evaluated, unknown>(EVALUATE, { r: runId, step, sc: scenarios, d: datasetId })).evaluateCheckpoint;

const EVALUATION = `query($id: ID!) { run(id: $id) { evaluations { id step status modelName error
  metrics { name value } trajectories { split step reward metadata } } } }`;
type EvaluationOut = {
  id: string;
  step: number;
  status: string;
  modelName: string | null;
  error: string | null;
  metrics: Array<{ name: string; value: number }>;
  trajectories: Array<{ split: string; step: number; reward: number | null; metadata: Record<string, unknown> }>;
};
async function evaluationOf(runId: string, id: string): Promise<EvaluationOut> {
  const { run } = await s.gql<{ run: { evaluations: EvaluationOut[] } }, unknown>(EVALUATION, { id: runId });
  return run.evaluations.find((e) => e.id === id)!;
}

/** Every event of an evaluation's progress subscription until it completes. */
async function followEvaluation(id: string): Promise<Array<{ status: string; rolloutsDone: number }>> {
  const client = wsClient(s.url);
  const events: Array<{ status: string; rolloutsDone: number }> = [];
  try {
    for await (const r of iterate<{ evaluationProgress: { status: string; rolloutsDone: number } }>(client, {
      query: `subscription($id: ID!) { evaluationProgress(evaluationId: $id) { status rolloutsDone rolloutsTotal } }`,
      variables: { id },
    })) {
      if (r.errors) throw new Error(JSON.stringify(r.errors));
      events.push(r.data!.evaluationProgress);
    }
  } finally {
    await client.dispose();
  }
  return events;
}

const expectClose = (a: number | null | undefined, b: number) => expect(a).toBeCloseTo(b, 6);

describe('validation during a pipeline run (evalEvery)', () => {
  let d: Details;
  let runId: string;
  let stages: string[];

  beforeAll(async () => {
    const run = await createRun(s, 'eval-val', {
      numExamples: 12,
      rolloutsPerGroup: 3,
      pipeline: {
        groupsPerStep: 2,
        backend: 'gpu1',
        evalEvery: 1,
        evalScenarios: VAL,
        retention: { keepLast: 1, keepBest: 1, metric: 'val/reward' },
      },
    });
    runId = run.id;
    // The run's progress, to its end (the stream completes after the final transition).
    const client = wsClient(s.url);
    stages = [];
    try {
      for await (const r of iterate<{ runProgress: { stage: string; step: number } }>(client, {
        query: `subscription($id: ID!) { runProgress(runId: $id) { stage step rolloutsDone rolloutsTotal } }`,
        variables: { id: runId },
      }))
        if (r.data) stages.push(`${r.data.runProgress.stage}@${r.data.runProgress.step}`);
        else throw new Error(JSON.stringify(r.errors));
    } finally {
      await client.dispose();
    }
    await waitDone(s, runId, 60_000);
    d = await details(runId);
  });

  it('records a val point at every step and the last checkpoint: the val curve follows the checkpoint quality', () => {
    expect(d).toMatchObject({ status: 'COMPLETED', error: null });
    expect(d.checkpoints.map((c) => c.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(d.val.map((p) => p.step)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const p of d.val) expectClose(p.avgReward, QUALITY[p.step]);
    // 7 validations × 2 scenarios × 3 rollouts, all under split val.
    expect(d.valTrajectories.totalCount).toBe(7 * 2 * 3);
    // Each checkpoint carries its val reward (the dashboard's checkpoints list).
    for (const c of d.checkpoints) expectClose(c.metrics.find((m) => m.name === 'val/reward')?.value, QUALITY[c.step]);
  });

  it('shows VALIDATE as its own stage in runProgress, before collecting each step', () => {
    expect(new Set(stages.map((x) => x.split('@')[0]))).toEqual(new Set(['VALIDATE', 'COLLECT', 'SCORE', 'TRAIN']));
    // The last checkpoint's validation, after the last step trained.
    expect(stages.at(-1)).toBe('VALIDATE@6');
    // Step 3's validation comes before step 3's rollouts, which come before its training.
    expect(stages.indexOf('VALIDATE@3')).toBeGreaterThanOrEqual(0);
    expect(stages.indexOf('VALIDATE@3')).toBeLessThan(stages.indexOf('COLLECT@3'));
    expect(stages.indexOf('COLLECT@3')).toBeLessThan(stages.indexOf('TRAIN@3'));
  });

  it('never trains on val scenarios', () => {
    const trains = worker.requests.filter((r) => r.path === '/v1/models/train');
    expect(trains.length).toBeGreaterThan(0);
    for (const r of trains) expect(JSON.stringify(r.body)).not.toContain('VAL-SCENARIO');
  });

  it('bestCheckpoint by val/reward is step 2, not the last', () => {
    expect(d.bestCheckpoint).toMatchObject({ step: 2, checkpoint: { step: 2 } });
    expectClose(d.bestCheckpoint!.value, QUALITY[2]);
  });

  it('retention deleted exactly what ART’s rule keeps out (the latest and the best stay), on the worker too', () => {
    const live = d.checkpoints.filter((c) => c.deletedAt === null).map((c) => c.step);
    const best = [...d.val].sort((a, b) => b.avgReward! - a.avgReward! || b.step - a.step)[0].step;
    expect(live).toEqual([...new Set([best, 6])].sort((a, b) => a - b));
    expect(worker.liveSteps('eval-val', d.trainedModelName)).toEqual(live);
  });

  it.skipIf(!polarsPython)(
    `ART's own polars code picks the same best step from the same history, and its delete_checkpoints keeps what retention kept${polarsPython ? '' : ' (' + pythonSkipReason('polars') + ')'}`,
    () => {
      // history.jsonl as ART's model.log writes it: one row per logged split.
      const rows = [
        ...d.train.map((p) => ({ step: p.step, 'train/reward': p.avgReward, 'loss/train': p.trainingLoss })),
        ...d.val.map((p) => ({ step: p.step, 'val/reward': p.avgReward })),
      ];
      const file = join(mkdtempSync(join(tmpdir(), 'art-history-')), 'history.jsonl');
      writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
      const out = execFileSync(polarsPython!, [join(__dirname, 'python', 'art_best_step.py'), file, 'val/reward'], {
        encoding: 'utf8',
      });
      const artBest = JSON.parse(out) as number;
      expect(artBest).toBe(d.bestCheckpoint!.step);
      // ART's Model.delete_checkpoints keeps the best step and the latest, deleting every other checkpoint.
      const deleted = d.checkpoints.filter((c) => c.deletedAt !== null).map((c) => c.step);
      expect(deleted).toEqual(d.checkpoints.map((c) => c.step).filter((st) => st !== artBest && st !== 6));
    },
  );

  it('evalEvery without held-out scenarios is refused, naming the field', async () => {
    const res = await s.request(
      `mutation { createTrainingRun(input: { modelName: "m", projectName: "p", taskDescription: "t", pipeline: { evalEvery: 2 } }) {
        __typename ... on ValidationError { issues { field rule } } } }`,
    );
    expect(res.data).toEqual({
      createTrainingRun: {
        __typename: 'ValidationError',
        issues: [{ field: 'input.pipeline.evalEvery', rule: 'needs_val_scenarios' }],
      },
    });
  });
});

describe('evaluateCheckpoint', () => {
  it('an evaluation of step 2 started while step 5 collects completes on name@2, and training goes on undisturbed', async () => {
    // The run's rollouts on checkpoint 5 wait until the evaluation is started; the evaluation's own wait until checked.
    const step5 = hold('eval-during-model@5');
    const evalHeld = hold('EVAL-DURING-5');
    try {
      const run = await createRun(s, 'eval-during', {
        numExamples: 14,
        rolloutsPerGroup: 3,
        trainedModelName: 'eval-during-model',
        pipeline: { groupsPerStep: 2, backend: 'gpu1' },
      });
      await step5.reachedP;
      const started = await evaluate(run.id, 2, [
        { inputText: 'EVAL-DURING-5 scenario A' },
        { inputText: 'Scenario B for the evaluation', context: { id: 7 } },
      ]);
      expect(started).toMatchObject({ __typename: 'EvaluateCheckpointPayload', evaluation: { step: 2 } });
      const follow = followEvaluation(started.evaluation!.id);
      // The evaluation's rollouts reach the model while the run is still in step 5.
      await evalHeld.reachedP;
      const { run: mid } = await s.gql<{ run: { status: string; currentStep: number } }, unknown>(
        `query($id: ID!) { run(id: $id) { status currentStep } }`,
        { id: run.id },
      );
      expect(mid).toEqual({ status: 'COLLECTING', currentStep: 5 });
      evalHeld.release();
      step5.release();
      const events = await follow;
      expect(events.at(-1)!.status).toBe('COMPLETED');
      expect(events.some((e) => e.status === 'RUNNING' && e.rolloutsDone > 0)).toBe(true);
      const done = await waitDone(s, run.id, 60_000);
      expect(done.status).toBe('COMPLETED');
      const e = await evaluationOf(run.id, started.evaluation!.id);
      expect(e).toMatchObject({ status: 'COMPLETED', step: 2, modelName: 'eval-during-model@2', error: null });
      expectClose(e.metrics.find((m) => m.name === 'eval/reward')?.value, QUALITY[2]);
      expect(e.metrics.find((m) => m.name === 'eval/trajectories')?.value).toBe(6);
      expect(e.trajectories).toHaveLength(6);
      for (const t of e.trajectories) {
        expect(t).toMatchObject({ split: 'eval', step: 2, metadata: { model: 'eval-during-model@2' } });
        expectClose(t.reward, QUALITY[2]);
      }
      expect(openai.callsOf('rollout').some((c) => (c.body as { model: string }).model === 'eval-during-model@2')).toBe(
        true,
      );
      const d = await details(run.id);
      // Training: every step trained once, in order, nothing missing or doubled.
      expect(d.train.map((p) => p.step)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(d.checkpoints.map((c) => c.step)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(worker.liveSteps('eval-during', 'eval-during-model')).toEqual([1, 2, 3, 4, 5, 6, 7]);
      // Its metrics are in the run's history at step 2, split eval.
      expect(d.eval.map((p) => p.step)).toEqual([2]);
      expectClose(d.eval[0].avgReward, QUALITY[2]);
      expect(d.evaluations).toHaveLength(1);
    } finally {
      step5.release();
      evalHeld.release();
      holds.delete('eval-during-model@5');
      holds.delete('EVAL-DURING-5');
    }
  });
});

describe('evaluations: faults, cancel, restart, retention, backends', () => {
  it('a failed evaluation does not fail the run, and the next one completes', async () => {
    const run = await createRun(s, 'eval-fail', { numExamples: 4, rolloutsPerGroup: 2, pipeline: { backend: 'gpu1' } });
    expect((await waitDone(s, run.id, 60_000)).status).toBe('COMPLETED');
    // Every judge call refused for good (a 400 is not retried): RULER cannot score the evaluation.
    openai.faults.failNext(50, 400, { kind: 'judge', message: 'judge says no' });
    try {
      const started = await evaluate(run.id, 1, [{ inputText: 'a failing evaluation' }]);
      const events = await followEvaluation(started.evaluation!.id);
      expect(events.at(-1)!.status).toBe('FAILED');
    } finally {
      openai.faults.reset();
    }
    const d = await details(run.id);
    expect(d).toMatchObject({ status: 'COMPLETED', error: null });
    expect(d.evaluations[0]).toMatchObject({ status: 'FAILED', error: expect.stringContaining('judge says no') });
    // No reward of it reached the history (its unscored trajectories stay, as the record of what it did).
    expect(d.eval.filter((p) => p.avgReward !== null)).toEqual([]);
    const again = await evaluate(run.id, 1, [{ inputText: 'a passing evaluation' }]);
    expect((await followEvaluation(again.evaluation!.id)).at(-1)!.status).toBe('COMPLETED');
    const e = await evaluationOf(run.id, again.evaluation!.id);
    expectClose(e.metrics.find((m) => m.name === 'eval/reward')?.value, QUALITY[1]);
  });

  it('refuses what cannot be evaluated, with typed errors, and stores nothing', async () => {
    const run = await createRun(s, 'eval-refuse', {
      numExamples: 4,
      rolloutsPerGroup: 2,
      pipeline: { backend: 'gpu1', retention: { keepLast: 1, keepBest: 0, metric: 'train/reward' } },
    });
    expect((await waitDone(s, run.id, 60_000)).status).toBe('COMPLETED');
    expect(await evaluate(run.id, 9, [{ inputText: 'x' }])).toMatchObject({
      __typename: 'NotFoundError',
      message: expect.stringContaining('step 9'),
    });
    expect(await evaluate(run.id, 1, [{ inputText: 'x' }])).toMatchObject({
      __typename: 'ConflictError',
      message: expect.stringContaining('was deleted'),
    });
    // Without scenarios, the run's own VAL inputs; this run has none.
    expect(await evaluate(run.id, 2)).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ field: 'scenarios', rule: 'required' }],
    });
    expect(await evaluate(run.id, 2, [{ inputText: '   ' }])).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ field: 'scenarios.0.inputText', rule: 'not_blank' }],
    });
    const tracked = await s.gql<{ createTrainingRun: { run: { id: string } } }, unknown>(
      `mutation { createTrainingRun(input: { mode: TRACKED, modelName: "m", projectName: "eval-refuse", taskDescription: "t" }) {
        ... on CreateTrainingRunPayload { run { id } } } }`,
    );
    expect(await evaluate(tracked.createTrainingRun.run.id, 0, [{ inputText: 'x' }])).toMatchObject({
      __typename: 'RunModeError',
    });
    expect((await details(run.id)).evaluations).toEqual([]);
  });

  it('on legacy art run only the latest checkpoint is served: an older step is a CheckpointNotServedError', async () => {
    const run = await createRun(s, 'eval-legacy', {
      numExamples: 4,
      rolloutsPerGroup: 2,
      pipeline: { backend: 'legacy' },
    });
    const done = await waitDone(s, run.id, 60_000);
    expect(done.status).toBe('COMPLETED');
    expect(await evaluate(run.id, 1, [{ inputText: 'x' }])).toMatchObject({
      __typename: 'CheckpointNotServedError',
      servedStep: 2,
      message: expect.stringContaining('serves only its latest checkpoint (step 2)'),
    });
    const latest = await evaluate(run.id, 2, [{ inputText: 'the latest, served under its bare name' }]);
    expect((await followEvaluation(latest.evaluation!.id)).at(-1)!.status).toBe('COMPLETED');
    const d = await details(run.id);
    expect(d.evaluations[0]).toMatchObject({ status: 'COMPLETED', modelName: d.trainedModelName });
  });

  it('on W&B serverless an older checkpoint is evaluated under its artifact step', async () => {
    const run = await createRun(s, 'eval-wb', { numExamples: 4, rolloutsPerGroup: 2, pipeline: { backend: 'wandb' } });
    expect((await waitDone(s, run.id, 60_000)).status).toBe('COMPLETED');
    const d0 = await details(run.id);
    const started = await evaluate(run.id, 1, [{ inputText: 'an older serverless checkpoint' }]);
    expect((await followEvaluation(started.evaluation!.id)).at(-1)!.status).toBe('COMPLETED');
    const e = await evaluationOf(run.id, started.evaluation!.id);
    expect(e.modelName).toBe(d0.checkpoints.find((c) => c.step === 1)!.name);
    expect(e.modelName).toMatch(/:step1$/);
  });

  it('cancelling the run cancels its evaluations before the cancel answers', async () => {
    const step = hold('cancel-eval-model@2');
    const evalHeld = hold('EVAL-CANCEL-HOLD');
    try {
      const run = await createRun(s, 'eval-cancel', {
        numExamples: 8,
        rolloutsPerGroup: 2,
        trainedModelName: 'cancel-eval-model',
        pipeline: { backend: 'gpu1' },
      });
      await step.reachedP;
      holds.delete('cancel-eval-model@2'); // the evaluation's own rollouts on @1 are not held by it
      const started = await evaluate(run.id, 1, [{ inputText: 'EVAL-CANCEL-HOLD scenario' }]);
      const follow = followEvaluation(started.evaluation!.id);
      await evalHeld.reachedP;
      const cancelled = await s.gql<{ cancelTrainingRun: { __typename: string } }, unknown>(
        `mutation($id: ID!) { cancelTrainingRun(id: $id) { __typename } }`,
        { id: run.id },
      );
      expect(cancelled.cancelTrainingRun.__typename).toBe('CancelTrainingRunPayload');
      expect((await details(run.id)).evaluations[0]).toMatchObject({
        status: 'CANCELLED',
        error: 'the run was cancelled',
      });
      expect((await follow).at(-1)!.status).toBe('CANCELLED');
      // A cancelled run takes no new evaluation.
      expect(await evaluate(run.id, 1, [{ inputText: 'x' }])).toMatchObject({ __typename: 'ConflictError' });
    } finally {
      step.release();
      evalHeld.release();
      holds.delete('EVAL-CANCEL-HOLD');
    }
  });

  it('retention never deletes a checkpoint while an evaluation uses it', async () => {
    const step = hold('keep-eval-model@2');
    const evalHeld = hold('EVAL-KEEP-HOLD');
    try {
      const run = await createRun(s, 'eval-keep', {
        numExamples: 10,
        rolloutsPerGroup: 2,
        trainedModelName: 'keep-eval-model',
        pipeline: { backend: 'gpu1', retention: { keepLast: 1, keepBest: 0, metric: 'train/reward' } },
      });
      await step.reachedP;
      holds.delete('keep-eval-model@2'); // only the run's own step-2 rollouts wait
      const started = await evaluate(run.id, 2, [{ inputText: 'EVAL-KEEP-HOLD scenario' }]);
      await evalHeld.reachedP;
      step.release();
      expect((await waitDone(s, run.id, 60_000)).status).toBe('COMPLETED');
      const d = await details(run.id);
      // Every step after trained and ran retention; step 2, in use, was kept; all others but the latest went.
      expect(d.checkpoints.filter((c) => c.deletedAt === null).map((c) => c.step)).toEqual([2, 5]);
      expect(worker.liveSteps('eval-keep', 'keep-eval-model')).toEqual([2, 5]);
      evalHeld.release();
      await waitFor(
        async () => (await evaluationOf(run.id, started.evaluation!.id)).status === 'COMPLETED',
        30_000,
        'the held evaluation to complete',
      );
    } finally {
      step.release();
      evalHeld.release();
      holds.delete('EVAL-KEEP-HOLD');
    }
  });
});

const sqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'atelier-eval-restart-')), 'atelier.sqlite')}`;

describe.each([
  { db: 'SQLite', skip: false },
  { db: 'PostgreSQL', skip: !postgresUrl },
])('evaluations across a restart ($db)', ({ db, skip }) => {
  it.skipIf(skip)(
    db === 'PostgreSQL'
      ? postgresSuiteTitle('an evaluation interrupted by a restart resumes on the next start, with nothing doubled')
      : 'an evaluation interrupted by a restart resumes on the next start, with nothing doubled',
    async () => {
      const fresh = db === 'PostgreSQL' ? await createPostgresDatabase() : null;
      const databaseUrl = fresh ? fresh.url : sqliteUrl();
      const pipeline = {
        ...bedConfig(openai.url, { name: 'gpu1', url: worker.url, kind: 'worker' as const }),
        workerToken: TOKEN,
      };
      const held = hold('EVAL-RESTART-HOLD');
      let first: TestServer | null = await startServer({ pipeline, databaseUrl });
      let second: TestServer | null = null;
      try {
        const run = await createRun(first, `eval-restart-${db.toLowerCase()}`, { numExamples: 4, rolloutsPerGroup: 3 });
        expect(await waitDone(first, run.id, 60_000)).toMatchObject({ status: 'COMPLETED', error: null });
        const started = (
          await first.gql<Evaluated, unknown>(EVALUATE, {
            r: run.id,
            step: 1,
            sc: [{ inputText: 'A scenario that finishes first' }, { inputText: 'EVAL-RESTART-HOLD scenario' }],
          })
        ).evaluateCheckpoint;
        const id = started.evaluation!.id;
        const count = async (server: TestServer) => {
          const { run: r } = await server.gql<{ run: { evaluations: EvaluationOut[] } }, unknown>(EVALUATION, {
            id: run.id,
          });
          return r.evaluations.find((e) => e.id === id)!;
        };
        await held.reachedP;
        // The first scenario's group is stored before the stop; the second is in flight.
        await waitFor(async () => (await count(first!)).trajectories.length === 3, 30_000, 'the first group');
        await first.stop();
        first = null;
        held.release();
        second = await startServer({ pipeline, databaseUrl });
        await waitFor(async () => (await count(second!)).status === 'COMPLETED', 30_000, 'the resumed evaluation');
        const e = await count(second);
        expect(e.trajectories).toHaveLength(6);
        expect(new Set(e.trajectories.map((t) => JSON.stringify(t.metadata.group))).size).toBe(2);
        expect(e.metrics.find((m) => m.name === 'eval/trajectories')?.value).toBe(6);
        const { run: r } = await second.gql<{ run: { evaluations: Array<{ id: string }> } }, unknown>(
          `query($id: ID!) { run(id: $id) { evaluations { id } } }`,
          { id: run.id },
        );
        expect(r.evaluations).toHaveLength(1);
      } finally {
        held.release();
        holds.delete('EVAL-RESTART-HOLD');
        await first?.stop();
        await second?.stop();
        await fresh?.drop();
      }
    },
  );
});

describe('evaluations wait out a training call of their model on a backend that cannot serve both', () => {
  it('on the worker, no evaluation rollout reaches the model while that model trains; all follow the training call', async () => {
    const training = worker.faults.holdTrain((c) => c.name === 'gate-model' && c.step === 1);
    // Observed, not changed: the moment the evaluation's model calls ask the gate whether the model trains.
    const gate = s.app.services.pipelineDeps.trainingGate;
    const idle = gate.idle.bind(gate);
    let asked!: (state: { settled: boolean }) => void;
    const gateAsked = new Promise<{ settled: boolean }>((r) => (asked = r));
    gate.idle = (backend, model, signal) => {
      const waiting = idle(backend, model, signal);
      if (model === 'gate-model') {
        const state = { settled: false };
        void waiting.then(() => (state.settled = true));
        asked(state);
      }
      return waiting;
    };
    try {
      const run = await createRun(s, 'eval-gate', {
        numExamples: 6,
        rolloutsPerGroup: 2,
        trainedModelName: 'gate-model',
        pipeline: { backend: 'gpu1' },
      });
      // Step 1 is training (checkpoint 1 exists): evaluate checkpoint 1 now.
      await training.reached;
      const started = await evaluate(run.id, 1, [{ inputText: 'EVAL-GATE scenario' }]);
      const follow = followEvaluation(started.evaluation!.id);
      const state = await gateAsked;
      // A turn of the event loop later (every microtask run), the model call is still waiting: the model trains.
      await new Promise((r) => setImmediate(r));
      expect(state.settled).toBe(false);
      expect(worker.trainCalls.filter((c) => c.name === 'gate-model').map((c) => c.outcome)).toContain('running');
      expect(openai.callsOf('rollout').filter((c) => JSON.stringify(c.body).includes('EVAL-GATE'))).toEqual([]);
      const releasedAt = Date.now();
      training.release();
      expect((await follow).at(-1)!.status).toBe('COMPLETED');
      const evalCalls = openai.callsOf('rollout').filter((c) => JSON.stringify(c.body).includes('EVAL-GATE'));
      expect(evalCalls).toHaveLength(2);
      // Every one of them after the training call was let go (and so after it ended: the gate waits for that).
      for (const c of evalCalls) expect(c.at).toBeGreaterThanOrEqual(releasedAt);
      expect((await waitDone(s, run.id, 60_000)).status).toBe('COMPLETED');
    } finally {
      gate.idle = idle;
      training.release();
    }
  });
});

describe('validation across a restart', () => {
  it('a validation interrupted by a restart is played again from scratch: no val step doubled, none missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-val-restart-'));
    const databaseUrl = `sqlite:${join(dir, 'atelier.sqlite')}`;
    const pipeline = {
      ...bedConfig(openai.url, { name: 'gpu1', url: worker.url, kind: 'worker' as const }),
      workerToken: TOKEN,
    };
    // Step 2's validation of the second scenario waits; the first scenario's group is stored meanwhile.
    const held = hold(['val-restart-model@2 ', 'VAL-RESTART-B']);
    let first: TestServer | null = await startServer({ pipeline, databaseUrl });
    let second: TestServer | null = null;
    try {
      const run = await createRun(first, 'val-restart', {
        numExamples: 8,
        rolloutsPerGroup: 2,
        trainedModelName: 'val-restart-model',
        pipeline: {
          groupsPerStep: 2,
          evalEvery: 1,
          evalScenarios: [{ inputText: 'VAL-RESTART-A scenario' }, { inputText: 'VAL-RESTART-B scenario' }],
        },
      });
      const valAt = async (server: TestServer, step: number) =>
        (
          await server.gql<{ run: { trajectories: { totalCount: number } } }, unknown>(
            `query($id: ID!, $step: Int!) { run(id: $id) { trajectories(filter: { split: "val", step: $step }, first: 1) { totalCount } } }`,
            { id: run.id, step },
          )
        ).run.trajectories.totalCount;
      await held.reachedP;
      await waitFor(async () => (await valAt(first!, 2)) === 2, 30_000, "the first scenario's val group");
      await first.stop();
      first = null;
      held.release();
      holds.delete(['val-restart-model@2 ', 'VAL-RESTART-B'].join('+'));
      second = await startServer({ pipeline, databaseUrl });
      const done = await waitDone(second, run.id, 60_000);
      expect(done.status).toBe('COMPLETED');
      // Validations at 0..4 (the last checkpoint too), each of 2 scenarios × 2 rollouts, exactly once.
      for (const step of [0, 1, 2, 3, 4]) expect(await valAt(second, step)).toBe(4);
      const { run: d } = await second.gql<{ run: { val: Array<{ step: number; avgReward: number | null }> } }, unknown>(
        `query($id: ID!) { run(id: $id) { val: metricHistory(split: "val") { step avgReward } } }`,
        { id: run.id },
      );
      expect(d.val.map((p) => p.step)).toEqual([0, 1, 2, 3, 4]);
      for (const p of d.val) expectClose(p.avgReward, QUALITY[p.step]);
    } finally {
      held.release();
      await first?.stop();
      await second?.stop();
    }
  });
});

describe('evaluations after SIGKILL', () => {
  it('an evaluation whose server was killed mid-way resumes on the next start (SQLite), with nothing doubled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-eval-kill-'));
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'atelier.sqlite')}`,
      ART_BACKENDS: `gpu1=worker+${worker.url}`,
      ATELIER_WORKER_TOKEN: TOKEN,
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: PROVIDER_KEY,
      GENERATOR_MODEL: 'sim-generator',
      JUDGE_MODEL: 'sim-judge',
      RETRY_BASE_MS: '20',
      REQUEST_TIMEOUT_SECONDS: '20',
    };
    const call = async <T>(url: string, query: string, variables: Record<string, unknown>): Promise<T> => {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: T; errors?: unknown[] };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data!;
    };
    const held = hold('EVAL-KILL-HOLD');
    let server: ServerProcess | null = await spawnServer(env);
    try {
      const created = await call<{ createTrainingRun: { run: { id: string } } }>(
        server.url,
        `mutation($i: CreateTrainingRunInput!) { createTrainingRun(input: $i) { ... on CreateTrainingRunPayload { run { id } } } }`,
        {
          i: {
            modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
            projectName: 'eval-kill',
            taskDescription: 'Answer customer questions about shipping',
            numExamples: 4,
            rolloutsPerGroup: 3,
            numEpochs: 1,
            pipeline: { groupsPerStep: 2 },
          },
        },
      );
      const runId = created.createTrainingRun.run.id;
      const status = async () =>
        (
          await call<{ run: { status: string } }>(server!.url, `query($id: ID!) { run(id: $id) { status } }`, {
            id: runId,
          })
        ).run.status;
      await waitFor(async () => (await status()) === 'COMPLETED', 60_000, 'the run to complete');
      const started = await call<Evaluated>(server.url, EVALUATE, {
        r: runId,
        step: 1,
        sc: [{ inputText: 'A scenario that finishes first' }, { inputText: 'EVAL-KILL-HOLD scenario' }],
      });
      const id = started.evaluateCheckpoint.evaluation!.id;
      const evaluation = async (url: string) =>
        (await call<{ run: { evaluations: EvaluationOut[] } }>(url, EVALUATION, { id: runId })).run.evaluations.find(
          (e) => e.id === id,
        )!;
      await held.reachedP;
      await waitFor(async () => (await evaluation(server!.url)).trajectories.length === 3, 30_000, 'the first group');
      await server.kill('SIGKILL');
      server = null;
      held.release();
      server = await spawnServer(env);
      await waitFor(
        async () => (await evaluation(server!.url)).status === 'COMPLETED',
        60_000,
        'the resumed evaluation',
      );
      const e = await evaluation(server.url);
      expect(e.trajectories).toHaveLength(6);
      expect(e.metrics.find((m) => m.name === 'eval/trajectories')?.value).toBe(6);
      expectClose(e.metrics.find((m) => m.name === 'eval/reward')?.value, QUALITY[1]);
    } finally {
      held.release();
      holds.delete('EVAL-KILL-HOLD');
      await server?.kill('SIGTERM');
    }
  }, 120_000);
});

describe('datasets and evaluation', () => {
  it("a run on a dataset validates on its VAL split; evaluateCheckpoint(datasetId) takes a dataset's VAL items", async () => {
    const made = await s.gql<
      { createDataset: { __typename: string; dataset?: { id: string; uuid: string } } },
      unknown
    >(
      `mutation($items: [ScenarioInput!]!) { createDataset(name: "eval-ds", items: $items) {
        __typename ... on CreateDatasetPayload { dataset { id uuid } } } }`,
      {
        items: [
          { inputText: 'DS train one' },
          { inputText: 'DS train two' },
          { inputText: 'DS train three' },
          { inputText: 'DS train four' },
          { inputText: 'DS-VAL held out one', split: 'VAL' },
          { inputText: 'DS-VAL held out two', split: 'VAL' },
        ],
      },
    );
    const dataset = made.createDataset.dataset!;
    const run = await createRun(s, 'eval-ds', {
      numExamples: undefined,
      rolloutsPerGroup: 2,
      datasetId: dataset.id,
      pipeline: { groupsPerStep: 2, backend: 'gpu1', evalEvery: 1 },
    });
    expect((await waitDone(s, run.id, 60_000)).status).toBe('COMPLETED');
    const d = await details(run.id);
    expect(d.val.map((p) => p.step)).toEqual([0, 1, 2]);
    expect(d.valTrajectories.totalCount).toBe(3 * 2 * 2);
    const started = await evaluate(run.id, 1, undefined, dataset.id);
    expect(started.__typename).toBe('EvaluateCheckpointPayload');
    expect((await followEvaluation(started.evaluation!.id)).at(-1)!.status).toBe('COMPLETED');
    const { run: r } = await s.gql<{ run: { evaluations: Array<{ source: string; scenarioCount: number }> } }, unknown>(
      `query($id: ID!) { run(id: $id) { evaluations { source scenarioCount } } }`,
      { id: run.id },
    );
    expect(r.evaluations).toEqual([{ source: `dataset:${dataset.uuid}`, scenarioCount: 2 }]);
    // A dataset without VAL items has nothing to evaluate on.
    const plain = await s.gql<{ createDataset: { dataset: { id: string } } }, unknown>(
      `mutation { createDataset(name: "no-val", items: [{ inputText: "only train" }]) { ... on CreateDatasetPayload { dataset { id } } } }`,
    );
    expect(await evaluate(run.id, 1, undefined, plain.createDataset.dataset.id)).toMatchObject({
      __typename: 'ValidationError',
      issues: [{ field: 'datasetId', rule: 'has_val' }],
    });
  });
});
