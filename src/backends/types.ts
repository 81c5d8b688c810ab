// What the pipeline needs from a training backend, whatever answers: a legacy `art run` server,
// an Atelier worker next to ART's LocalBackend, or W&B's serverless Training API. The stages use
// only this interface; each kind lives in its own file and is chosen once from ART_BACKENDS.
import { ProviderError } from '../providers/http';

export type BackendKind = 'art-run' | 'worker' | 'serverless';

export interface TrainableModel {
  name: string;
  project: string;
  base_model: string;
}

/** ART's Trajectory: plain messages are context; trained assistant turns are the choices verbatim. */
export interface ArtTrajectory {
  messages_and_choices: unknown[];
  tools: unknown[] | null;
  reward: number;
  metrics: Record<string, number>;
  metadata: Record<string, string | number | boolean | null>;
  logs: string[];
}

export interface ArtTrajectoryGroup {
  trajectories: ArtTrajectory[];
  metadata: Record<string, unknown>;
  exceptions: unknown[];
}

export interface TrainConfig {
  learning_rate: number;
  beta: number;
}

/** Where the model being trained answers: an OpenAI-compatible server and the name of each checkpoint. */
export interface InferenceTarget {
  baseUrl: string;
  apiKey: string;
  /** The model name that serves checkpoint `step` (bare on old ART, `name@step` on the worker, an artifact URI on W&B). */
  modelName(step: number): string;
}

export interface BackendHealth {
  kind: BackendKind;
  /** What the server says it runs, e.g. "0.3.11-style art run", "atelier-worker/1 (ART 0.5.9)", "W&B Training API". */
  version: string;
}

export interface TrainingBackend {
  readonly kind: BackendKind;
  /** The name in ART_BACKENDS. */
  readonly name: string;
  /** Checks the server and that this client can drive it; a server it cannot drive is a permanent error saying what to run instead. */
  health(signal?: AbortSignal): Promise<BackendHealth>;
  /** Registers the model and readies inference for it (slow: may start vLLM). Idempotent. */
  prepare(model: TrainableModel, signal?: AbortSignal): Promise<InferenceTarget>;
  /** The model's latest checkpoint step (0 before any training). */
  currentStep(model: TrainableModel, signal?: AbortSignal): Promise<number>;
  /**
   * Trains one step on the groups; `onGradientStep` gets each gradient step's metrics in ART's current
   * names (src/domain/train-metrics.ts) as it arrives. Resolves with the new checkpoint step when the
   * backend says which (null: ask currentStep). Throws TrainingCallError when the call fails.
   */
  train(
    model: TrainableModel,
    groups: ArtTrajectoryGroup[],
    config: TrainConfig,
    onGradientStep: (values: Record<string, number>) => void,
    signal?: AbortSignal,
  ): Promise<{ step: number | null }>;
  /** Deletes every checkpoint except these steps (and the latest). */
  deleteCheckpoints?(model: TrainableModel, stepsToKeep: number[], signal?: AbortSignal): Promise<void>;
}

/**
 * A training call that failed. `started` says whether the backend had begun training (a streamed line
 * or an accepted job): before that a transient failure is safe to retry; after it, retrying could
 * train the step twice, so the caller first asks the backend whether the step was saved.
 */
export class TrainingCallError extends ProviderError {
  constructor(
    message: string,
    status: number | null,
    transient: boolean,
    readonly started: boolean,
    /** The backend is still training this model (an earlier call's step): wait, then ask the step. */
    readonly busy = false,
    /** The answer's Retry-After in milliseconds: the train stage waits this long before it tries again. */
    retryAfterMs: number | null = null,
  ) {
    super(message, status, transient, retryAfterMs);
    this.name = 'TrainingCallError';
  }
}

/** Replaces a 0.0.0.0 / localhost host (as the GPU box sees itself) with the host Atelier reached it at. */
export function reachableFrom(backendUrl: string, url: string): string {
  const u = new URL(url);
  if (['0.0.0.0', 'localhost', '[::]'].includes(u.hostname)) u.hostname = new URL(backendUrl).hostname;
  return u.toString().replace(/\/$/, '');
}

/** A checkpoint step as a backend reports it: a whole number, never negative; anything else is a malformed answer. */
export function stepNumber(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw new ProviderError(`${what}: expected a step number, got ${JSON.stringify(value)}`, 200, false);
}
