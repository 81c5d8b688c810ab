// Retry-After on training calls (#23 item 8): a 429 with Retry-After on a training call was retried
// after ~100 ms, because the train stage computed its own delay and the backends' single-attempt
// training calls dropped the header. Now one rule (retryDelayMs) serves every retry. What is
// asserted is the delay Atelier CHOSE, never a measured time: the rule itself with a fixed random
// source; that a single-attempt call keeps the header's value on its error; and, end to end for each
// backend kind against its simulator, the delay the train stage scheduled, read from the log line
// an operator sees ("trying again in 1000 ms (its Retry-After)").
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import type { ArtBackendConfig, PipelineConfig } from '../src/config';
import { callWithRetry, ProviderError, retryDelayMs } from '../src/providers/http';
import { startArtBackendSim, type ArtBackendSim } from './fixtures/art-backend-sim';
import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { bedConfig, createRun, PROVIDER_KEY, waitDone } from './fixtures/pipeline-bed';
import { startWandbSim, type WandbSim } from './fixtures/wandb-sim';
import { startWorkerSim, type WorkerSim } from './fixtures/worker-sim';
import { startServer, type TestServer } from './helpers/server';

describe('the retry rule', () => {
  const policy = { baseDelayMs: 500, maxDelayMs: 60_000 };

  it("waits the server's Retry-After whatever the jitter, capped at maxDelayMs", () => {
    for (const random of [() => 0, () => 0.5, () => 0.999])
      for (const failures of [0, 3, 10]) expect(retryDelayMs(policy, failures, 3000, random)).toBe(3000);
    expect(retryDelayMs(policy, 0, 0, () => 0.7)).toBe(0);
    expect(retryDelayMs(policy, 0, 3_600_000, () => 0.7)).toBe(60_000);
  });

  it('without Retry-After: full jitter over base × 2^failures, capped', () => {
    expect(retryDelayMs(policy, 0, null, () => 0.5)).toBe(250);
    expect(retryDelayMs(policy, 3, null, () => 0.5)).toBe(2000);
    expect(retryDelayMs(policy, 3, null, () => 0)).toBe(0);
    expect(retryDelayMs(policy, 30, null, () => 0.999)).toBe(60_000);
  });
});

describe('a single-attempt call (how every backend sends a training call)', () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.writeHead(429, { 'retry-after': '3' }).end('slow down'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/train`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("keeps the 429's Retry-After on the error it throws, for the caller's retry", async () => {
    const error = await callWithRetry(
      url,
      { method: 'POST' },
      { timeoutMs: 5000, retry: { attempts: 1, baseDelayMs: 20 }, what: 'train' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 429, transient: true, retryAfterMs: 3000 });
  });
});

describe('the train stage honours Retry-After on every backend kind', () => {
  let openai: OpenAISim;
  const logged: string[] = [];
  beforeAll(async () => {
    openai = await startOpenAISim({ apiKey: PROVIDER_KEY });
  });
  afterAll(() => openai?.close());
  afterEach(() => {
    vi.restoreAllMocks();
    logged.length = 0;
  });

  async function server(backend: ArtBackendConfig, extra: Partial<PipelineConfig> = {}): Promise<TestServer> {
    // retryBaseMs 20: without Retry-After the chosen delay would be under 20 ms.
    return startServer({ logLevel: 'warn', pipeline: { ...bedConfig(openai.url, backend), ...extra } });
  }
  function captureLog() {
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
  }
  const scheduled = () =>
    logged
      .map((l) => /training step 0 could not start \((.*)\); trying again in (\d+) ms(.*)$/.exec(l))
      .filter((m) => m !== null)
      .map((m) => ({ cause: m[1], ms: Number(m[2]), why: m[3] }));

  it('legacy art run: a 429 on /_train_model with Retry-After: 1 is sent again after 1000 ms', async () => {
    const art: ArtBackendSim = await startArtBackendSim({
      version: '0.3.11',
      inferenceUrl: openai.url,
      inferenceApiKey: PROVIDER_KEY,
      gradientStepMs: 2,
    });
    const s = await server({ name: 'old', url: art.url });
    try {
      art.faults.failNext(1, 429, { endpoint: '/_train_model', retryAfter: 1 });
      captureLog();
      const done = await waitDone(s, (await createRun(s, 'ra-legacy', { numExamples: 2 })).id);
      expect(done).toMatchObject({ status: 'COMPLETED', error: null });
      expect(scheduled()).toEqual([{ cause: expect.stringMatching(/HTTP 429/), ms: 1000, why: ' (its Retry-After)' }]);
      expect(art.callsTo('/_train_model').map((r) => r.status)).toEqual([429, 200]);
    } finally {
      await s.stop();
      await art.close();
    }
  }, 60_000);

  it('worker: a 503 on /v1/models/train with Retry-After: 1 is sent again after 1000 ms', async () => {
    const token = 'worker-token-0123456789abcdef';
    const worker: WorkerSim = await startWorkerSim({
      inferenceUrl: openai.url,
      inferenceApiKey: PROVIDER_KEY,
      token,
      gradientStepMs: 2,
    });
    const s = await server({ name: 'gpu1', url: worker.url, kind: 'worker' }, { workerToken: token });
    try {
      worker.faults.failNext(1, 503, '/v1/models/train', 'art_error', 1);
      captureLog();
      const done = await waitDone(s, (await createRun(s, 'ra-worker', { numExamples: 2 })).id);
      expect(done).toMatchObject({ status: 'COMPLETED', error: null });
      expect(scheduled()).toEqual([{ cause: expect.stringMatching(/503/), ms: 1000, why: ' (its Retry-After)' }]);
    } finally {
      await s.stop();
      await worker.close();
    }
  }, 60_000);

  it('W&B serverless: a 429 creating the training job with Retry-After: 1 is sent again after 1000 ms', async () => {
    const key = 'wandb-test-key-0123456789abcdef-never-shown';
    const wandb: WandbSim = await startWandbSim({
      apiKey: key,
      upstreamUrl: openai.url,
      upstreamKey: PROVIDER_KEY,
      gradientStepMs: 2,
    });
    const s = await server({ name: 'wandb', url: wandb.url, kind: 'serverless', pollMs: 10 }, { wandbApiKey: key });
    try {
      wandb.faults.failNext(1, 429, 'training-jobs', 1);
      captureLog();
      const done = await waitDone(s, (await createRun(s, 'ra-wandb', { numExamples: 2 })).id);
      expect(done).toMatchObject({ status: 'COMPLETED', error: null });
      expect(scheduled()).toEqual([{ cause: expect.stringMatching(/HTTP 429/), ms: 1000, why: ' (its Retry-After)' }]);
    } finally {
      await s.stop();
      await wandb.close();
    }
  }, 60_000);
});
