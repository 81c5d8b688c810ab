// Assembles what the pipeline needs from Atelier's services and the configured providers.
import { backendRegistry } from '../backends';
import type { CheckpointsService } from '../checkpoints/checkpoints.service';
import type { Config } from '../config';
import type { EvaluationsService } from '../evaluations/evaluations.service';
import type { EventBus } from '../events/event-bus';
import type { Logger } from '../logger';
import type { MetricsService } from '../metrics/metrics.service';
import { ChatClient } from '../providers/chat';
import type { RunsService } from '../runs/runs.service';
import type { Redactor } from '../security/redact';
import type { TrajectoriesService } from '../trajectories/trajectories.service';
import type { PipelineDeps } from './deps';
import { TrainingGate } from './training-gate';

export function createPipelineDeps(
  config: Config,
  services: {
    runs: RunsService;
    trajectories: TrajectoriesService;
    metrics: MetricsService;
    checkpoints: CheckpointsService;
    evaluations: EvaluationsService;
    events: EventBus;
  },
  logger: Logger,
  /** The app's redactor: provider keys and anything shaped like a credential. */
  redactor: Redactor,
): PipelineDeps {
  const p = config.pipeline;
  const retry = { attempts: p.retryAttempts, baseDelayMs: p.retryBaseMs };
  return {
    ...services,
    config: p,
    logger,
    trainingGate: new TrainingGate(),
    backend: backendRegistry(p),
    chat: (baseUrl, apiKey, what) => new ChatClient({ baseUrl, apiKey, timeoutMs: p.requestTimeoutMs, retry, what }),
    redact: (text) => redactor.text(text),
    rememberSecret: (secret) => redactor.remember(secret),
  };
}
