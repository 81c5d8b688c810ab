// The legacy kind against `art run` of several ART versions (test/fixtures/art-backend-sim.ts, `version`):
// 0.3.11 and 0.4.12 train a whole run with the bare inference name those versions serve; 0.5.3, 0.5.9 and
// the newest are refused before anything is trained, naming the Atelier worker. Plus the retry rule on
// /_train_model, and the metric-name mapping and version detection as units.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { detectArtRunVersion } from '../src/backends/legacy-art-run';
import { currentMetricNames } from '../src/domain/train-metrics';
import { openApiOf, startArtBackendSim, type ArtBackendSim, type ArtVersion } from './fixtures/art-backend-sim';
import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { bedConfig, createRun, PROVIDER_KEY, waitDone } from './fixtures/pipeline-bed';
import { startServer, type TestServer } from './helpers/server';

let openai: OpenAISim;
beforeAll(async () => {
  openai = await startOpenAISim({ apiKey: PROVIDER_KEY });
});
afterAll(() => openai?.close());

async function bed(version: ArtVersion): Promise<{ art: ArtBackendSim; s: TestServer; close(): Promise<void> }> {
  const art = await startArtBackendSim({
    version,
    inferenceUrl: openai.url,
    inferenceApiKey: PROVIDER_KEY,
    gradientStepMs: 2,
  });
  const s = await startServer({ pipeline: bedConfig(openai.url, { name: 'old', url: art.url }) });
  return { art, s, close: async () => (await s.stop(), await art.close()) };
}

describe('art run versions Atelier drives', () => {
  for (const version of ['0.3.11', '0.4.12'] as const) {
    it(`trains a whole run on ART ${version}, rollouts on the bare name it serves, loss/train charted`, async () => {
      const b = await bed(version);
      try {
        const done = await waitDone(b.s, (await createRun(b.s, `v${version}`)).id);
        expect(done).toMatchObject({ status: 'COMPLETED', error: null });
        const name = done.trainedModelName!;
        expect(b.art.completedSteps(`v${version}`, name)).toEqual([0, 1]);
        const served = b.art.servedName(`v${version}`, name);
        expect(served).toBe(name);
        const models = new Set(
          openai
            .callsOf('rollout')
            .map((r) => (r.body as { model: string }).model)
            .filter((m) => m.startsWith(name)),
        );
        expect(models).toEqual(new Set([name]));
        // The stream's legacy keys, stored under ART's current names.
        for (const g of done.gradientSteps) {
          const values = g.values as Record<string, number>;
          expect(Object.keys(values).sort()).toEqual([
            'data/step_num_gradient_steps',
            'loss/entropy',
            'loss/grad_norm',
            'loss/train',
            'policy_loss',
          ]);
          expect(values['loss/train']).toBe(g.loss);
        }
        const charted = done.metricHistory.find((p) => p.trainingLoss !== null)!;
        expect(charted.values.find((v) => v.name === 'loss/train')?.value).toBe(charted.trainingLoss);
      } finally {
        await b.close();
      }
    }, 60_000);
  }

  it('retries /_train_model refused before its stream (503, 429) and retrains a broken stream only when the step was not saved', async () => {
    const b = await bed('0.3.11');
    try {
      b.art.faults.failNext(1, 503, { endpoint: '/_train_model' });
      b.art.faults.failNext(1, 429, { endpoint: '/_train_model', retryAfter: 0 });
      b.art.faults.breakStreamNext(1, 1);
      const done = await waitDone(b.s, (await createRun(b.s, 'retry', { numExamples: 2, rolloutsPerGroup: 4 })).id);
      expect(done).toMatchObject({ status: 'COMPLETED', error: null });
      const calls = b.art.trainCalls.filter((c) => c.project === 'retry');
      // The refused calls never reached the trainer; the broken one did not save step 0, so it was sent again.
      expect(calls.map((c) => [c.step, c.outcome])).toEqual([
        [0, 'broken'],
        [0, 'completed'],
      ]);
      // (the broken one records no status: its connection was destroyed mid-answer)
      expect(b.art.callsTo('/_train_model').map((r) => r.status)).toEqual([503, 429, undefined, 200]);
      // The broken attempt's gradient steps were forgotten: one series, numbered from 0.
      expect(done.gradientSteps.map((g) => g.gradientStep)).toEqual(done.gradientSteps.map((_, i) => i));
    } finally {
      await b.close();
    }
  }, 60_000);
});

describe('art run versions Atelier refuses, naming the worker', () => {
  for (const [version, says] of [
    ['0.5.3', /version 0.5.1 or later.*a choice sent as JSON stays a dict/],
    ['0.5.9', /version 0.5.9 or close.*name@step/],
    ['main', /version newer than 0.5.9: its `art run` serves no \/_train_model/],
  ] as const) {
    it(`fails a run on ART ${version} before training, saying what to run instead`, async () => {
      const b = await bed(version);
      try {
        const failed = await waitDone(b.s, (await createRun(b.s, `v${version}`, { numExamples: 2 })).id);
        expect(failed.status).toBe('FAILED');
        expect(failed.error).toMatch(says);
        expect(failed.error).toMatch(
          /run the Atelier worker \(worker\/README.md\) next to ART's LocalBackend .* ART_BACKENDS=old=worker\+http:\/\/<gpu-box>:7998/,
        );
        expect(b.art.callsTo('/_train_model')).toHaveLength(0);
        expect(b.art.callsTo('/register')).toHaveLength(0);
      } finally {
        await b.close();
      }
    }, 60_000);
  }
});

describe('units', () => {
  it('maps the legacy stream keys to ART current names and keeps current ones', () => {
    expect(
      currentMetricNames({
        loss: 0.4,
        grad_norm: 1.2,
        policy_loss: 0.3,
        entropy: 0.8,
        kl_div: 0.01,
        num_gradient_steps: 2,
      }),
    ).toEqual({
      'loss/train': 0.4,
      'loss/grad_norm': 1.2,
      policy_loss: 0.3,
      'loss/entropy': 0.8,
      'loss/kl_div': 0.01,
      'data/step_num_gradient_steps': 2,
    });
    expect(currentMetricNames({ policy_loss: 0.3, num_groups_trainable: 1 })).toEqual({
      'loss/train': 0.3,
      'data/step_num_groups_trainable': 1,
    });
    expect(
      currentMetricNames({
        'loss/train': 0.5,
        loss: 9,
        'loss/grad_norm': 1,
        'data/step_num_gradient_steps': 0,
        bad: Number.NaN,
        text: 'x',
      }),
    ).toEqual({ 'loss/train': 0.5, 'loss/grad_norm': 1, 'data/step_num_gradient_steps': 0 });
  });

  it('tells art run versions apart from their /openapi.json', () => {
    expect(detectArtRunVersion(openApiOf('0.3.11') as never, 'x')).toEqual({ version: '0.3.x–0.4.11', refusal: null });
    expect(detectArtRunVersion(openApiOf('0.4.12') as never, 'x')).toEqual({ version: '0.4.12–0.5.0', refusal: null });
    for (const v of ['0.5.3', '0.5.9', 'main'] as const)
      expect(detectArtRunVersion(openApiOf(v) as never, 'x').refusal).toMatch(/Atelier worker/);
  });
});
