// What the pipeline needs from the rest of Atelier and the outside world, passed in once.
import type { TrainingBackend } from '../backends';
import type { CheckpointsService } from '../checkpoints/checkpoints.service';
import type { PipelineConfig } from '../config';
import type { EvaluationsService } from '../evaluations/evaluations.service';
import type { EventBus } from '../events/event-bus';
import type { Logger } from '../logger';
import type { MetricsService } from '../metrics/metrics.service';
import type { ChatClient } from '../providers/chat';
import type { RunsService } from '../runs/runs.service';
import type { TrajectoriesService } from '../trajectories/trajectories.service';
import type { TrainingGate } from './training-gate';

export interface PipelineDeps {
  config: PipelineConfig;
  runs: RunsService;
  trajectories: TrajectoriesService;
  metrics: MetricsService;
  checkpoints: CheckpointsService;
  evaluations: EvaluationsService;
  events: EventBus;
  /** Training calls in flight on this instance, which evaluations on a backend that cannot serve both wait out. */
  trainingGate: TrainingGate;
  logger: Logger;
  /** The client of a configured training backend (legacy art run, worker or serverless), by name (default: the first). */
  backend(name?: string | null): TrainingBackend;
  /** A client of an OpenAI-compatible server; `what` names it in errors. */
  chat(baseUrl: string, apiKey: string | undefined, what: string): ChatClient;
  /** Removes secrets (provider keys) from text that may be stored or shown. */
  redact(text: string): string;
  /** Adds a secret learned at run time (the inference key a backend hands out) to what is redacted. */
  rememberSecret(secret: string): void;
}
