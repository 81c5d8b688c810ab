// W&B serverless training end to end: a pipeline run through GraphQL against the simulated W&B Training
// API (test/fixtures/wandb-sim.ts), no GPU: a model, one training job per step with the scored groups,
// its events stored as gradient steps in ART's current names, checkpoints, and rollouts on
// `wandb-artifact:///…:step<N>`. The key is only ever a bearer token; job creation that fails before the
// job exists is retried, a job that exists is never created twice.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config';
import { createRedactor, secretsIn } from '../src/security/redact';
import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { bedConfig, createRun, PROVIDER_KEY, waitDone } from './fixtures/pipeline-bed';
import { startWandbSim, type WandbSim } from './fixtures/wandb-sim';
import { startServer, type TestServer } from './helpers/server';

const WANDB_KEY = 'wandb-test-key-0123456789abcdef-never-shown';
let openai: OpenAISim;
let wandb: WandbSim;
let s: TestServer;

beforeAll(async () => {
  openai = await startOpenAISim({ apiKey: PROVIDER_KEY });
  wandb = await startWandbSim({
    apiKey: WANDB_KEY,
    upstreamUrl: openai.url,
    upstreamKey: PROVIDER_KEY,
    gradientStepMs: 2,
  });
  s = await startServer({
    pipeline: {
      ...bedConfig(openai.url, { name: 'wandb', url: wandb.url, kind: 'serverless', pollMs: 10 }),
      wandbApiKey: WANDB_KEY,
    },
  });
});
afterAll(async () => {
  await s?.stop();
  await wandb?.close();
  await openai?.close();
});

describe('a pipeline run on W&B serverless training', () => {
  it('completes: one job per step, gradient steps under loss/train and loss/grad_norm, rollouts on each checkpoint', async () => {
    const run = await createRun(s, 'wb');
    const done = await waitDone(s, run.id);
    expect(done).toMatchObject({ status: 'COMPLETED', error: null });
    const name = done.trainedModelName!;
    expect(wandb.stepOf('wb', name)).toBe(2);

    // One model, created idempotently with ART's fields; one job per step, on the run's learning rate.
    const create = wandb.requests.find((r) => r.route === 'models')!;
    expect(create.body).toEqual({
      entity: null,
      project: 'wb',
      name,
      base_model: 'Qwen/Qwen2.5-1.5B-Instruct',
      return_existing: true,
    });
    const jobs = wandb.jobs.filter((j) => j.outcome === 'completed');
    expect(jobs.map((j) => j.step)).toEqual([0, 1]);
    expect(jobs.every((j) => j.experimentalConfig?.learning_rate === 1e-5)).toBe(true);
    const job = wandb.requests.find((r) => r.route === 'training-jobs')!.body as {
      trajectory_groups: { trajectories: { messages_and_choices: Record<string, unknown>[] }[] }[];
    };
    expect(job.trajectory_groups[0].trajectories[0].messages_and_choices.at(-1)).toMatchObject({
      finish_reason: 'stop',
      message: { role: 'assistant' },
    });

    // Rollouts of step 0 on the base (no checkpoint yet), of step 1 on checkpoint 1.
    const artifact = `wandb-artifact:///sim-entity/wb/${name}`;
    expect(new Set(wandb.servedModels)).toEqual(new Set([artifact, `${artifact}:step1`]));

    // The events' legacy keys are stored under ART's current names; the loss column reads loss/train.
    expect(done.gradientSteps.length).toBeGreaterThan(0);
    for (const g of done.gradientSteps) {
      const values = g.values as Record<string, number>;
      expect(values['loss/train']).toBe(g.loss);
      expect(typeof values['loss/grad_norm']).toBe('number');
      expect(values).not.toHaveProperty('loss');
      expect(values['data/step_num_gradient_steps']).toBeGreaterThan(0);
    }
    for (const p of done.metricHistory) {
      const names = p.values.map((v) => v.name);
      if (p.trainingLoss !== null) expect(names).toEqual(expect.arrayContaining(['loss/train', 'loss/grad_norm']));
    }

    // The key travels only as the bearer token: not in bodies, not in the database.
    expect(JSON.stringify(wandb.requests.map((r) => [r.path, r.body, r.headers]))).not.toContain(WANDB_KEY);
    expect(readFileSync(join(s.dir, 'atelier.sqlite')).includes(Buffer.from(WANDB_KEY))).toBe(false);
  }, 60_000);

  it('retries creating a job that failed before it existed (503, 429) and trains each step once', async () => {
    wandb.faults.failNext(2, 503, 'training-jobs');
    wandb.faults.failNext(1, 429, 'training-jobs');
    const run = await createRun(s, 'wb-retry', { numExamples: 2 });
    const done = await waitDone(s, run.id);
    expect(done).toMatchObject({ status: 'COMPLETED', error: null });
    const modelId = wandb.modelIdOf('wb-retry', done.trainedModelName!);
    const jobs = wandb.jobs.filter((j) => j.modelId === modelId);
    expect(jobs.map((j) => [j.step, j.outcome])).toEqual([[0, 'completed']]);
    expect(wandb.requests.filter((r) => r.route === 'training-jobs' && r.status === 503)).toHaveLength(2);
  }, 60_000);

  it("fails the run with W&B's message when the job fails, and never creates a second job once one exists", async () => {
    wandb.faults.failJobNext(1, 'CUDA out of memory on the trainer');
    const failed = await waitDone(s, (await createRun(s, 'wb-fail', { numExamples: 2 })).id);
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatch(/^TRAINING: .*training job job-\d+ failed: CUDA out of memory on the trainer/);

    // Events that cannot be read (after the retries) fail the step: the job may still run, so no second job.
    const before = wandb.jobs.length;
    wandb.faults.failNext(50, 500, 'events');
    const lost = await waitDone(s, (await createRun(s, 'wb-lost', { numExamples: 2 })).id);
    wandb.faults.reset();
    expect(lost.status).toBe('FAILED');
    expect(lost.error).toMatch(/may still be running/);
    expect(wandb.jobs.length - before).toBe(1);
    expect(lost.error).not.toContain(WANDB_KEY);
  }, 60_000);
});

describe('configuration', () => {
  it('reads serverless backends from ART_BACKENDS with WANDB_API_KEY, and the redactor knows the key', () => {
    const config = loadConfig({
      ART_BACKENDS: 'gpu1=worker+http://gpu-box:7998,wandb=serverless,old=http://gpu2:7999',
      WANDB_API_KEY: WANDB_KEY,
      ATELIER_WORKER_TOKEN: 'worker-token-0123456789',
    });
    expect(config.pipeline.artBackends).toEqual([
      { name: 'gpu1', url: 'http://gpu-box:7998', kind: 'worker' },
      { name: 'wandb', url: 'https://api.training.wandb.ai/v1', kind: 'serverless' },
      { name: 'old', url: 'http://gpu2:7999', kind: 'art-run' },
    ]);
    const redactor = createRedactor(secretsIn(config));
    expect(redactor.text(`failed with ${WANDB_KEY} and worker-token-0123456789`)).not.toMatch(
      /wandb-test-key|worker-token/,
    );
    expect(
      loadConfig({ ART_BACKENDS: 'w=serverless', WANDB_API_KEY: WANDB_KEY, WANDB_BASE_URL: 'http://127.0.0.1:9/v1' })
        .pipeline.artBackends[0].url,
    ).toBe('http://127.0.0.1:9/v1');
    expect(() => loadConfig({ ART_BACKENDS: 'w=serverless' })).toThrow(
      /WANDB_API_KEY: the serverless backend w needs a W&B API key/,
    );
    expect(loadConfig({ ART_BACKEND_URL: 'http://gpu:7999' }).pipeline.artBackends).toEqual([
      { name: 'default', url: 'http://gpu:7999', kind: 'art-run' },
    ]);
    expect(() => loadConfig({ ART_BACKENDS: 'g=worker+nope' })).toThrow(/ART_BACKENDS: the URL of g is not a URL/);
  });
});
