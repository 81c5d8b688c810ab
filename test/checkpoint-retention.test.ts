// Checkpoint retention through GraphQL against the simulated worker and W&B serverless: a pipeline run
// with `pipeline.retention` deletes, after each trained step, every checkpoint but the `keepLast` latest
// and the `keepBest` best by the metric (ART 0.5.17's Model.delete_checkpoints, generalized), on the
// backend and marked on the run's checkpoints; the simulators record what was deleted, and the best is
// never among it. Where a python3 with polars is available, ART's own best-step code computes the best
// step from the same history and must agree with run.bestCheckpoint.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startArtBackendSim, type ArtBackendSim } from './fixtures/art-backend-sim';
import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { bedConfig, createRun, PROVIDER_KEY, waitDone } from './fixtures/pipeline-bed';
import { startWandbSim, type WandbSim } from './fixtures/wandb-sim';
import { startWorkerSim, type WorkerSim } from './fixtures/worker-sim';
import { pythonSkipReason, pythonWith } from './helpers/python';
import { startServer, type TestServer } from './helpers/server';

const TOKEN = 'worker-token-0123456789abcdef';
const WANDB_KEY = 'wandb-test-key-0123456789abcdef-never-shown';
let openai: OpenAISim;
let worker: WorkerSim;
let wandb: WandbSim;
let legacy: ArtBackendSim;
let s: TestServer;

/** A Python with polars (test/helpers/python.ts); null when none has it. */
const polarsPython = pythonWith('polars');

beforeAll(async () => {
  openai = await startOpenAISim({ apiKey: PROVIDER_KEY });
  worker = await startWorkerSim({ inferenceUrl: openai.url, inferenceApiKey: PROVIDER_KEY, token: TOKEN });
  legacy = await startArtBackendSim({ inferenceUrl: openai.url, inferenceApiKey: PROVIDER_KEY });
  wandb = await startWandbSim({ apiKey: WANDB_KEY, upstreamUrl: openai.url, upstreamKey: PROVIDER_KEY });
  const base = bedConfig(openai.url, { name: 'gpu1', url: worker.url, kind: 'worker' });
  s = await startServer({
    pipeline: {
      ...base,
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
  await s?.stop();
  await worker?.close();
  await wandb?.close();
  await legacy?.close();
  await openai?.close();
});

const DETAILS = `query($id: ID!, $metric: String!) { run(id: $id) {
  status error trainedModelName
  checkpoints(first: 100) { step name deletedAt deletionReason }
  bestCheckpoint(metric: $metric) { step value checkpoint { step } }
  metricHistory(split: "train") { step avgReward trainingLoss }
} }`;
interface Details {
  status: string;
  error: string | null;
  trainedModelName: string;
  checkpoints: Array<{ step: number; name: string; deletedAt: string | null; deletionReason: string | null }>;
  bestCheckpoint: { step: number; value: number; checkpoint: { step: number } | null } | null;
  metricHistory: Array<{ step: number; avgReward: number | null; trainingLoss: number | null }>;
}

async function retainedRun(project: string, backend: string, retention: Record<string, unknown>) {
  const run = await createRun(s, project, {
    numExamples: 10,
    pipeline: { groupsPerStep: 2, backend, retention },
  });
  await waitDone(s, run.id, 60_000);
  const { run: d } = await s.gql<{ run: Details }, unknown>(DETAILS, { id: run.id, metric: 'train/reward' });
  return { ...d, id: run.id as string };
}

/** What the rule keeps at the end, computed here from the history: the latest checkpoints and the best steps. */
function expectedLive(d: Details, keepLast: number, keepBest: number): number[] {
  const steps = d.checkpoints.map((c) => c.step).sort((a, b) => b - a);
  const ranked = d.metricHistory
    .filter((p) => p.avgReward !== null)
    .sort((a, b) => b.avgReward! - a.avgReward! || b.step - a.step)
    .map((p) => p.step);
  const keep = new Set([...steps.slice(0, keepLast), ...ranked.slice(0, keepBest)]);
  return steps.filter((s) => keep.has(s)).sort((a, b) => a - b);
}

describe('checkpoint retention', () => {
  it('on the worker: keeps the latest and the best by train/reward, deletes the rest there and marks them', async () => {
    const d = await retainedRun('keep-wk', 'gpu1', { keepLast: 1, keepBest: 1, metric: 'train/reward' });
    expect(d).toMatchObject({ status: 'COMPLETED', error: null });
    expect(d.checkpoints.map((c) => c.step)).toEqual([1, 2, 3, 4, 5]);
    const deleted = d.checkpoints.filter((c) => c.deletedAt !== null).map((c) => c.step);
    const live = d.checkpoints.filter((c) => c.deletedAt === null).map((c) => c.step);
    // Exactly what the worker deleted is what the run marks deleted, and nothing on the worker is left that the run shows deleted.
    expect([...worker.deletedSteps('keep-wk', d.trainedModelName)].sort((a, b) => a - b)).toEqual(deleted);
    expect(worker.liveSteps('keep-wk', d.trainedModelName)).toEqual(live);
    expect(live).toEqual(expectedLive(d, 1, 1));
    expect(deleted.length).toBeGreaterThanOrEqual(3);
    for (const c of d.checkpoints.filter((c) => c.deletedAt))
      expect(c.deletionReason).toMatch(/^retention: not among the 1 latest or the 1 best by train\/reward/);
    // The best checkpoint (when the best step has one) is never deleted.
    expect(d.bestCheckpoint).not.toBeNull();
    if (d.bestCheckpoint!.checkpoint) expect(live).toContain(d.bestCheckpoint!.step);
  });

  it('testTrainedModel(step:) answers on that checkpoint; a deleted or unknown step is a typed error', async () => {
    const d = await retainedRun('keep-test', 'gpu1', { keepLast: 2, keepBest: 0, metric: 'train/reward' });
    expect(d.status).toBe('COMPLETED');
    const deleted = d.checkpoints.find((c) => c.deletedAt !== null)!;
    // The one before the latest: live, and not what testTrainedModel answers on by default.
    const latest = d.checkpoints.at(-2)!;
    expect(latest.deletedAt).toBeNull();
    const TEST = `mutation($r: ID!, $step: Int) { testTrainedModel(runId: $r, inputText: "Where is it?", step: $step) {
      __typename ... on Error { message } ... on TestTrainedModelPayload { reply trajectory { metadata } } } }`;
    type Out = {
      testTrainedModel: { __typename: string; message?: string; trajectory?: { metadata: Record<string, unknown> } };
    };
    const runId = d.id;
    const onLatest = (await s.gql<Out, unknown>(TEST, { r: runId, step: latest.step })).testTrainedModel;
    expect(onLatest.__typename).toBe('TestTrainedModelPayload');
    expect(onLatest.trajectory!.metadata).toMatchObject({ model: latest.name, checkpoint_step: latest.step });
    // The inference server was asked for that checkpoint's served name (name@step on the worker).
    expect(latest.name).toBe(`${d.trainedModelName}@${latest.step}`);
    expect((openai.callsOf('rollout').at(-1)!.body as { model: string }).model).toBe(latest.name);
    const gone = (await s.gql<Out, unknown>(TEST, { r: runId, step: deleted.step })).testTrainedModel;
    expect(gone).toMatchObject({ __typename: 'ConflictError', message: expect.stringContaining('was deleted') });
    const unknown = (await s.gql<Out, unknown>(TEST, { r: runId, step: 99 })).testTrainedModel;
    expect(unknown).toMatchObject({ __typename: 'NotFoundError', message: expect.stringContaining('step 99') });
  });

  it('on the worker: keepLast 2 and keepBest 2 keep the two latest and the two best', async () => {
    const d = await retainedRun('keep-wk2', 'gpu1', { keepLast: 2, keepBest: 2, metric: 'train/reward' });
    expect(d.status).toBe('COMPLETED');
    const live = d.checkpoints.filter((c) => c.deletedAt === null).map((c) => c.step);
    expect(live).toEqual(expectedLive(d, 2, 2));
    expect(worker.liveSteps('keep-wk2', d.trainedModelName)).toEqual(live);
  });

  it('on W&B serverless: deletes the same way through its checkpoints API, and the simulator saw exactly those', async () => {
    const d = await retainedRun('keep-wb', 'wandb', { keepLast: 1, keepBest: 1, metric: 'train/reward' });
    expect(d).toMatchObject({ status: 'COMPLETED', error: null });
    const deleted = d.checkpoints.filter((c) => c.deletedAt !== null).map((c) => c.step);
    expect([...wandb.deletedSteps('keep-wb', d.trainedModelName)].sort((a, b) => a - b)).toEqual(deleted);
    expect(d.checkpoints.filter((c) => c.deletedAt === null).map((c) => c.step)).toEqual(expectedLive(d, 1, 1));
  });

  it('a failed delete call does not fail the run: the next trained step deletes what is due', async () => {
    // The first delete call fails (permanently, so it is not retried); later ones succeed.
    worker.faults.failNext(1, 400, '/v1/models/delete_checkpoints');
    try {
      const d = await retainedRun('keep-fault', 'gpu1', { keepLast: 1, keepBest: 0, metric: 'train/reward' });
      expect(d).toMatchObject({ status: 'COMPLETED', error: null });
      const live = d.checkpoints.filter((c) => c.deletedAt === null).map((c) => c.step);
      expect(live).toEqual([5]);
      const deletes = worker.requests.filter(
        (r) => r.path === '/v1/models/delete_checkpoints' && (r.body as { name: string }).name === d.trainedModelName,
      );
      expect(deletes[0].status).toBe(400);
      expect(deletes.length).toBeGreaterThan(1);
      expect(worker.liveSteps('keep-fault', d.trainedModelName)).toEqual([5]);
    } finally {
      worker.faults.reset();
    }
  });

  it('on legacy art run (no steps-to-keep delete) nothing is deleted or marked', async () => {
    const d = await retainedRun('keep-legacy', 'legacy', { keepLast: 1, keepBest: 0, metric: 'train/reward' });
    expect(d).toMatchObject({ status: 'COMPLETED', error: null });
    expect(d.checkpoints.length).toBe(5);
    expect(d.checkpoints.every((c) => c.deletedAt === null)).toBe(true);
    expect(legacy.requests.some((r) => r.path.includes('delete'))).toBe(false);
  });

  it('without retention nothing is deleted', async () => {
    const run = await createRun(s, 'keep-none', { numExamples: 6, pipeline: { groupsPerStep: 2, backend: 'gpu1' } });
    await waitDone(s, run.id, 60_000);
    const { run: d } = await s.gql<{ run: Details }, unknown>(DETAILS, { id: run.id, metric: 'train/reward' });
    expect(d.checkpoints.length).toBe(3);
    expect(d.checkpoints.every((c) => c.deletedAt === null)).toBe(true);
    expect(worker.deletedSteps('keep-none', d.trainedModelName)).toEqual([]);
  });

  it('refuses a retention that keeps no latest checkpoint, naming the field', async () => {
    const res = await s.request(
      `mutation { createTrainingRun(input: { modelName: "m", projectName: "p", taskDescription: "t", pipeline: { retention: { keepLast: 0 } } }) { __typename ... on Error { message } } }`,
    );
    expect(JSON.stringify(res)).toMatch(/keepLast/);
  });

  it.skipIf(!polarsPython)(
    `ART's own polars code picks the same best step from the same history${polarsPython ? '' : ' (' + pythonSkipReason('polars') + ')'}`,
    async () => {
      const d = await retainedRun('keep-py', 'gpu1', { keepLast: 1, keepBest: 1, metric: 'train/reward' });
      // history.jsonl as ART's model.log writes it: a row per logged split with `train/reward`, and training rows without it.
      const rows = d.metricHistory.flatMap((p) => [
        ...(p.avgReward !== null ? [{ step: p.step, 'train/reward': p.avgReward }] : []),
        ...(p.trainingLoss !== null ? [{ step: p.step, 'loss/train': p.trainingLoss }] : []),
      ]);
      const file = join(mkdtempSync(join(tmpdir(), 'art-history-')), 'history.jsonl');
      writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
      const out = execFileSync(polarsPython!, [join(__dirname, 'python', 'art_best_step.py'), file, 'train/reward'], {
        encoding: 'utf8',
      });
      expect(JSON.parse(out)).toBe(d.bestCheckpoint!.step);
    },
  );
});
