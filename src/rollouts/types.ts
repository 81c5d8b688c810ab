// One small interface between the collect stage and whatever plays an episode: the stage hands over
// episodes and gets ART trajectories back, never knowing which kind answered (as the train stage
// does not know which backend trains). One file per kind: builtin, http, mcp, worker.
import type { InferenceTarget, TrainableModel } from '../backends/types';
import type { WorkerBackend } from '../backends/worker';
import type { ChatClient } from '../providers/chat';
import type { RetryPolicy } from '../providers/http';

/** ART's Trajectory as JSON (pydantic's model_dump(mode="json")): assistant turns are Choice objects, logprobs included. */
export interface ArtTrajectoryJson {
  messages_and_choices: Array<Record<string, unknown>>;
  tools: unknown[] | null;
  reward: number;
  metrics: Record<string, number | boolean>;
  metadata: Record<string, string | number | boolean | null>;
  logs: string[];
}

/** One rollout of one scenario. */
export interface Episode {
  /** Stable across a resume (derived from the run, step, group and rollout): an environment may key on it. */
  id: string;
  /** The seed's TaskInput as environments get it. */
  scenario: { input_text: string; context: Record<string, unknown> | null };
  systemPrompt: string | null;
}

export interface EpisodeHooks {
  /** Aborted on cancel, shutdown, a lost lease or a stall: the episode stops and is closed. */
  signal: AbortSignal;
  /** Called after each turn (a model call or an environment step): live progress, and the watchdog stays quiet. */
  onTurn(): void;
}

export interface EpisodeResult {
  /** What happened, as ART keeps it; on a failure, the turns played before it. */
  trajectory: ArtTrajectoryJson;
  /** The environment's reward; null: RULER scores the group. */
  reward: number | null;
  /** Why the episode failed; a failed episode is stored with it and never trained on. */
  error?: string;
  /** Assistant turns played. */
  turns: number;
  /** The failure as ART keeps it in a group's exceptions (WORKER: the user's rollout raised); else built from `error`. */
  exception?: { type: string; message: string; traceback: string };
}

export interface Rollout {
  readonly kind: 'builtin' | 'http' | 'mcp' | 'worker';
  play(episode: Episode, hooks: EpisodeHooks): Promise<EpisodeResult>;
  /**
   * A kind that plays a whole group in one go (WORKER: the user's function may be ART's group RolloutFn)
   * plays the group's episodes here; `onResult` is called as each one finishes. Without it, play() per episode.
   */
  playGroup?(
    episodes: Episode[],
    hooks: EpisodeHooks,
    onResult?: (index: number, result: EpisodeResult) => void,
  ): Promise<EpisodeResult[]>;
  /** Checks, before anything is played or trained, that the rollout can run (WORKER: the entrypoint imports). */
  prepare?(signal: AbortSignal): Promise<void>;
}

/** What every kind may use: the model in training, and the limits of outside calls. */
export interface RolloutDeps {
  /** The inference server of the model being trained. */
  chat: ChatClient;
  /** The checkpoint name to roll out on. */
  model: string;
  temperature: number;
  timeoutMs: number;
  retry: RetryPolicy;
  /** Removes secrets from text that is stored. */
  redact(text: string): string;
  /** WORKER: the worker that runs the user's rollouts (the run's backend, or the one at rollout.url). */
  worker?: WorkerBackend;
  /** WORKER: the model in training, as the user's rollout gets it (art.TrainableModel). */
  trainable?: TrainableModel;
  /** WORKER: the inference server the model answers on, as the backend reported it. */
  inference?: Pick<InferenceTarget, 'baseUrl' | 'apiKey'>;
}

export function emptyTrajectory(): ArtTrajectoryJson {
  return { messages_and_choices: [], tools: null, reward: 0, metrics: {}, metadata: {}, logs: [] };
}
