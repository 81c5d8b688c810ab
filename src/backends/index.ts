// Builds the client of each configured backend, by its kind in ART_BACKENDS; chosen once per name.
import type { ArtBackendConfig, PipelineConfig } from '../config';
import { LegacyArtRunBackend } from './legacy-art-run';
import { ServerlessBackend } from './serverless';
import type { TrainingBackend } from './types';
import { WorkerBackend } from './worker';

export * from './types';

export function createBackend(b: ArtBackendConfig, p: PipelineConfig): TrainingBackend {
  const common = {
    name: b.name,
    baseUrl: b.url,
    timeoutMs: p.requestTimeoutMs,
    prepareTimeoutMs: p.prepareTimeoutMs,
    streamIdleMs: 2 * p.stallTimeoutMs,
    retry: { attempts: p.retryAttempts, baseDelayMs: p.retryBaseMs },
    inferenceUrl: b.inferenceUrl,
  };
  switch (b.kind ?? 'art-run') {
    case 'worker':
      return new WorkerBackend({ ...common, token: p.workerToken });
    case 'serverless':
      return new ServerlessBackend({ ...common, apiKey: p.wandbApiKey ?? '', entity: p.wandbEntity, pollMs: b.pollMs });
    case 'art-run':
      return new LegacyArtRunBackend(common);
  }
}

/** One client per backend name for the life of the process (each caches what it detected and registered). */
export function backendRegistry(p: PipelineConfig): (name?: string | null) => TrainingBackend {
  const clients = new Map<string, TrainingBackend>();
  return (name) => {
    const config = p.artBackends.find((b) => b.name === name) ?? p.artBackends[0];
    if (!config) throw new Error('no ART backend is configured (ART_BACKENDS or ART_BACKEND_URL)');
    let client = clients.get(config.name);
    if (!client) clients.set(config.name, (client = createBackend(config, p)));
    return client;
  };
}
