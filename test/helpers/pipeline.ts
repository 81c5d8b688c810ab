// A pipeline test bed: the simulated OpenAI-compatible provider and ART backend on real ports, and
// an Atelier server (in this process, or as a separate process that can be killed) wired to them.
import { spawn, type ChildProcess } from 'node:child_process';

import type { PipelineConfig } from '../../src/config';
import { startArtBackendSim, type ArtBackendSim } from '../fixtures/art-backend-sim';
import { startOpenAISim, type OpenAISim } from '../fixtures/openai-sim';
import { bedConfig, PROVIDER_KEY } from '../fixtures/pipeline-bed';
import { startServer, type TestServer } from './server';

export { PROVIDER_KEY } from '../fixtures/pipeline-bed';

export interface Sims {
  openai: OpenAISim;
  art: ArtBackendSim;
  close(): Promise<void>;
}

export async function startSims(opts: { gradientStepMs?: number } = {}): Promise<Sims> {
  const openai = await startOpenAISim({ apiKey: PROVIDER_KEY });
  const art = await startArtBackendSim({
    inferenceUrl: openai.url,
    inferenceApiKey: PROVIDER_KEY,
    gradientStepMs: opts.gradientStepMs ?? 5,
  });
  return {
    openai,
    art,
    async close() {
      await art.close();
      await openai.close();
    },
  };
}

export function pipelineConfig(sims: Sims, overrides: Partial<PipelineConfig> = {}): PipelineConfig {
  return bedConfig(sims.openai.url, { name: 'default', url: sims.art.url }, overrides);
}

export function startPipelineServer(
  sims: Sims,
  overrides: Partial<PipelineConfig> = {},
  databaseUrl?: string,
): Promise<TestServer> {
  return startServer({ pipeline: pipelineConfig(sims, overrides), databaseUrl });
}

/** Atelier as its own process (`tsx src/main.ts`), so a test can SIGKILL it mid-run. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const check = () => {
      const m = /Atelier is up: GraphiQL at (http:\/\/[^\s]+)\/graphql/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  return {
    url,
    child,
    output: () => out,
    kill: (signal) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

export function pipelineEnv(
  sims: Sims,
  databaseUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    ART_BACKEND_URL: sims.art.url,
    OPENAI_BASE_URL: sims.openai.url,
    OPENAI_API_KEY: PROVIDER_KEY,
    GENERATOR_MODEL: 'sim-generator',
    JUDGE_MODEL: 'sim-judge',
    RETRY_BASE_MS: '20',
    REQUEST_TIMEOUT_SECONDS: '5',
    ...extra,
  };
}
