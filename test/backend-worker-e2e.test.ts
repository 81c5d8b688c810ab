// Atelier against the real Python worker (`python -m atelier_worker`, from the venv scripts/python-env.sh
// builds, with the real openai and pydantic) and the worker's stand-in `art` on PYTHONPATH
// (worker/tests/stand_in), so no GPU is needed: a whole pipeline run over atelier-worker/1, with a bearer token. The stand-in reports vLLM at
// 127.0.0.1:8000, so the backend's inference URL is pointed at the OpenAI simulator (`inferenceUrl`).
// Skips, saying why, when no Python has openai and pydantic, or the worker is missing. ATELIER_WORKER_DIR overrides where the worker
// is (default: worker/ at the repository root).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { bedConfig, createRun, waitDone } from './fixtures/pipeline-bed';
import { pythonSkipReason, pythonWith } from './helpers/python';
import { startPythonWorker, type PythonWorker } from './helpers/python-worker';
import { startServer, type TestServer } from './helpers/server';

const WORKER_DIR = resolve(process.env.ATELIER_WORKER_DIR ?? join(__dirname, '..', 'worker'));
const STAND_IN = join(WORKER_DIR, 'tests', 'stand_in');
const PYTHON = process.env.PYTHON ?? pythonWith('openai', 'pydantic');
const TOKEN = 'e2e-worker-token-0123456789';

function skipReason(): string | null {
  if (!PYTHON) return pythonSkipReason('openai', 'pydantic');
  const probe = spawnSync(PYTHON, ['-c', 'import sys; assert sys.version_info >= (3, 10)'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return `${PYTHON} (3.10+) is not available`;
  if (!existsSync(join(WORKER_DIR, 'atelier_worker')) || !existsSync(STAND_IN))
    return `no Atelier worker with its stand-in ART at ${WORKER_DIR} (set ATELIER_WORKER_DIR)`;
  return null;
}
const reason = skipReason();
if (reason) console.warn(`backend-worker-e2e skipped: ${reason}`);

describe.skipIf(reason !== null)(
  reason ? `Atelier against the real worker (${reason})` : 'Atelier against the real worker (stand-in ART)',
  () => {
    let openai: OpenAISim;
    let worker: PythonWorker;
    let artPath: string;
    let workerUrl: string;
    let s: TestServer;

    beforeAll(async () => {
      // No key check: rollouts carry the key the stand-in's "vLLM" reports ('default').
      openai = await startOpenAISim();
      artPath = mkdtempSync(join(tmpdir(), 'atelier-worker-e2e-'));
      worker = await startPythonWorker(PYTHON!, {
        args: ['--art-path', join(artPath, '.art')],
        pythonPath: [STAND_IN, WORKER_DIR],
        env: { ATELIER_WORKER_TOKEN: TOKEN },
      });
      workerUrl = worker.url;
      s = await startServer({
        pipeline: {
          ...bedConfig(openai.url, { name: 'gpu1', url: workerUrl, kind: 'worker', inferenceUrl: openai.url }),
          workerToken: TOKEN,
        },
      });
    }, 30_000);

    afterAll(async () => {
      await s?.stop();
      await worker?.stop();
      await openai?.close();
      if (artPath) rmSync(artPath, { recursive: true, force: true });
    });

    it('completes a pipeline run: each step trained once by ART, rollouts on name@step, gradient steps in ART names', async () => {
      const done = await waitDone(s, (await createRun(s, 'e2e')).id, 60_000);
      expect(done.error, worker.stderr()).toBeNull();
      expect(done.status).toBe('COMPLETED');
      const name = done.trainedModelName!;
      // The stand-in ART keeps checkpoints as ART does: {art_path}/{project}/models/{name}/checkpoints/NNNN.
      expect(existsSync(join(artPath, '.art', 'e2e', 'models', name, 'checkpoints', '0002'))).toBe(true);
      const models = new Set(openai.callsOf('rollout').map((r) => (r.body as { model: string }).model));
      expect(models).toEqual(new Set([`${name}@0`, `${name}@1`]));
      for (const g of done.gradientSteps) expect((g.values as Record<string, number>)['loss/train']).toBe(g.loss);
      expect(done.metricHistory).toHaveLength(2);
    }, 90_000);
  },
);
