// The self-hosted GPU kind: pipeline runs through GraphQL against the simulated Atelier worker
// (test/fixtures/worker-sim.ts, protocol atelier-worker/1) with its bearer token: registration, rollouts
// on `name@step`, NDJSON training stored in ART's current metric names, and the retry rule — a call refused
// before the stream starts is sent again; a stream cut after it started is not retrained while the worker
// still trains (409 busy is waited out) and the saved step is taken as done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LegacyArtRunBackend } from '../src/backends/legacy-art-run';
import { WorkerBackend } from '../src/backends/worker';
import { startArtBackendSim, type ArtBackendSim } from './fixtures/art-backend-sim';
import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { bedConfig, createRun, PROVIDER_KEY, waitDone } from './fixtures/pipeline-bed';
import { startWorkerSim, type WorkerSim } from './fixtures/worker-sim';
import { startServer, type TestServer } from './helpers/server';

const TOKEN = 'worker-token-0123456789abcdef';
let openai: OpenAISim;
let worker: WorkerSim;
let s: TestServer;

beforeAll(async () => {
  openai = await startOpenAISim({ apiKey: PROVIDER_KEY });
  worker = await startWorkerSim({
    inferenceUrl: openai.url,
    inferenceApiKey: PROVIDER_KEY,
    token: TOKEN,
    gradientStepMs: 5,
  });
  s = await startServer({
    pipeline: { ...bedConfig(openai.url, { name: 'gpu1', url: worker.url, kind: 'worker' }), workerToken: TOKEN },
  });
});
afterAll(async () => {
  await s?.stop();
  await worker?.close();
  await openai?.close();
});

const rolloutModels = (name: string) =>
  new Set(
    openai
      .callsOf('rollout')
      .map((r) => (r.body as { model: string }).model)
      .filter((m) => m.startsWith(`${name}@`)),
  );

describe('a pipeline run on an Atelier worker', () => {
  it('completes: registered once, rollouts on name@step, each step trained once with ART current metric names', async () => {
    const done = await waitDone(s, (await createRun(s, 'wk')).id);
    expect(done).toMatchObject({ status: 'COMPLETED', error: null });
    const name = done.trainedModelName!;
    expect(worker.completedSteps('wk', name)).toEqual([0, 1]);
    expect(rolloutModels(name)).toEqual(new Set([`${name}@0`, `${name}@1`]));
    const train = worker.requests.find((r) => r.path === '/v1/models/train')!.body as Record<string, unknown>;
    // beta 0 is ART's no-op default and is left out; `log` lets the worker call model.log as ART's guide says.
    expect(train).toMatchObject({ name, project: 'wk', config: { learning_rate: 1e-5 }, log: true });
    expect(worker.requests.filter((r) => r.path !== '/v1/health').every((r) => r.status !== 401)).toBe(true);
    for (const g of done.gradientSteps) expect((g.values as Record<string, number>)['loss/train']).toBe(g.loss);
    expect(done.metricHistory.find((p) => p.trainingLoss !== null)!.values.map((v) => v.name)).toEqual(
      expect.arrayContaining(['loss/train', 'loss/grad_norm']),
    );
  }, 60_000);

  it('sends a training call refused before its stream started (503, 429) again, training each step once', async () => {
    worker.faults.failNext(1, 503, '/v1/models/train');
    worker.faults.failNext(1, 429, '/v1/models/train');
    const done = await waitDone(s, (await createRun(s, 'wk-retry', { numExamples: 2 })).id);
    expect(done).toMatchObject({ status: 'COMPLETED', error: null });
    expect(worker.trainCalls.filter((c) => c.project === 'wk-retry').map((c) => [c.step, c.outcome])).toEqual([
      [0, 'completed'],
    ]);
    expect(
      worker.requests.filter((r) => r.path === '/v1/models/train' && (r.status === 503 || r.status === 429)),
    ).toHaveLength(2);
  }, 60_000);

  it('does not retrain a step whose stream was cut after it started: waits while busy and takes the saved step', async () => {
    worker.faults.cutStreamNext(1, 0); // after the 200 and a heartbeat: training has started
    const done = await waitDone(s, (await createRun(s, 'wk-cut', { numExamples: 2, rolloutsPerGroup: 4 })).id);
    expect(done).toMatchObject({ status: 'COMPLETED', error: null });
    const calls = worker.trainCalls.filter((c) => c.project === 'wk-cut');
    expect(calls.map((c) => [c.step, c.outcome, c.cut])).toEqual([[0, 'completed', true]]);
    expect(worker.stepOf('wk-cut', done.trainedModelName!)).toBe(1);
  }, 60_000);

  it('fails the run with the error line ART raised, without retrying it', async () => {
    worker.faults.errorLineNext(1, 'CUDA out of memory');
    const failed = await waitDone(s, (await createRun(s, 'wk-err', { numExamples: 2 })).id);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(
      /^TRAINING: Atelier worker gpu1 \/v1\/models\/train: art_error: RuntimeError: CUDA out of memory/,
    );
    expect(worker.trainCalls.filter((c) => c.project === 'wk-err')).toHaveLength(1);
  }, 60_000);
});

describe('the worker client', () => {
  const opts = { timeoutMs: 2000, prepareTimeoutMs: 2000, streamIdleMs: 2000, retry: { attempts: 2, baseDelayMs: 5 } };
  const model = { name: 'unit', project: 'wk-unit', base_model: 'Qwen/Qwen2.5-1.5B-Instruct' };
  let art: ArtBackendSim;
  beforeAll(async () => {
    art = await startArtBackendSim({ version: '0.3.11' });
  });
  afterAll(() => art.close());

  it('registers again after a worker restart, and reaches vLLM through the worker host', async () => {
    const client = new WorkerBackend({ ...opts, name: 'gpu1', baseUrl: worker.url, token: TOKEN });
    expect(await client.health()).toEqual({ kind: 'worker', version: 'atelier-worker/1 (worker 0.1.0, ART 0.5.9)' });
    const target = await client.prepare(model);
    expect(target.baseUrl).toBe(openai.url);
    expect(target.modelName(3)).toBe('unit@3');
    worker.restart();
    expect(await client.currentStep(model)).toBe(0);
    expect(
      worker.requests.filter(
        (r) => r.path === '/v1/models/register' && (r.body as { project: string }).project === 'wk-unit',
      ),
    ).toHaveLength(2);
  });

  it('says which kind to configure when a URL is the other kind of server', async () => {
    await expect(new WorkerBackend({ ...opts, name: 'gpu1', baseUrl: art.url }).health()).rejects.toThrow(
      /not an Atelier worker \(an `art run` server is configured as gpu1=http/,
    );
    await expect(new LegacyArtRunBackend({ ...opts, name: 'old', baseUrl: worker.url }).health()).rejects.toThrow(
      /serves no \/openapi.json, so it is not ART's `art run` \(an Atelier worker is configured as old=worker\+http/,
    );
    await expect(new WorkerBackend({ ...opts, name: 'gpu1', baseUrl: worker.url }).prepare(model)).rejects.toThrow(
      /HTTP 401 unauthorized/,
    );
  });
});
