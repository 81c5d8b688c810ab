// WORKER: the user's own ART rollout function (`entrypoint: "pkg.module:rollout"`), run by an Atelier worker
// inside the user's Python environment (worker/PROTOCOL.md, "Rollouts"; src/backends/worker.ts is the client).
// The signatures are ART's PipelineTrainer's (src/art/pipeline_trainer/types.py, PeterWofford/ART 679b236e):
// SingleRolloutFn `(model, scenario, config) -> Trajectory` — also ART's examples' `(model, scenario)` — is
// called once per rollout of the group, RolloutFn `(model, scenario, config) -> TrajectoryGroup` once per
// group. The worker streams each finished trajectory (and each of ART's exceptions) back; the reward is the
// one the rollout set, as under ART's trainer. The entrypoint is checked on the worker before the first step,
// so one that cannot be imported fails the run before anything is trained, naming the module.
import type { TrainingBackend } from '../backends/types';
import { WorkerBackend, WorkerEntrypointError, type WorkerOptions, type WorkerRolloutLine } from '../backends/worker';
import { AbortedError, ProviderError } from '../providers/http';
import {
  emptyTrajectory,
  type ArtTrajectoryJson,
  type Episode,
  type EpisodeHooks,
  type EpisodeResult,
  type Rollout,
  type RolloutDeps,
} from './types';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The worker a WORKER rollout runs on: the Atelier worker at `url` when given (GPU-less, e.g. beside serverless
 * training), else the run's backend, which must then be a worker.
 */
export function rolloutWorker(
  url: string | null | undefined,
  backend: TrainingBackend,
  options: Omit<WorkerOptions, 'name' | 'baseUrl'>,
): WorkerBackend {
  if (url) return new WorkerBackend({ ...options, name: 'rollouts', baseUrl: url });
  if (backend instanceof WorkerBackend) return backend;
  throw new ProviderError(
    `a WORKER rollout runs on an Atelier worker: the run's backend ${backend.name} is ${backend.kind}; give the rollout the url of a worker (atelier-worker --rollouts-only)`,
    null,
    false,
  );
}

/** ART's exception type as `str(type(e))` gives it ("<class 'ValueError'>"), by its class name. */
function shortType(type: string): string {
  return /<class '(?:[\w.]*\.)?(\w+)'>/.exec(type)?.[1] ?? (type || 'Exception');
}

export class WorkerRollout implements Rollout {
  readonly kind = 'worker' as const;
  private readonly worker: WorkerBackend;

  constructor(
    private readonly deps: RolloutDeps,
    private readonly entrypoint: string,
  ) {
    if (!deps.worker || !deps.trainable || !deps.inference)
      throw new Error('a WORKER rollout needs its worker, the model in training and its inference server');
    this.worker = deps.worker;
  }

  /** The entrypoint imports on the worker (WorkerEntrypointError, naming the module, when it does not). */
  async prepare(signal: AbortSignal): Promise<void> {
    await this.worker.checkEntrypoint(this.entrypoint, signal);
  }

  async play(episode: Episode, hooks: EpisodeHooks): Promise<EpisodeResult> {
    return (await this.playGroup([episode], hooks))[0];
  }

  async playGroup(
    episodes: Episode[],
    hooks: EpisodeHooks,
    onResult?: (index: number, result: EpisodeResult) => void,
  ): Promise<EpisodeResult[]> {
    const first = episodes[0];
    const results: EpisodeResult[] = [];
    const add = (r: EpisodeResult) => {
      results.push(r);
      onResult?.(results.length - 1, r);
      hooks.onTurn();
    };
    let done = false;
    try {
      await this.worker.rollouts(
        {
          entrypoint: this.entrypoint,
          model: {
            ...this.deps.trainable!,
            inference: {
              base_url: this.deps.inference!.baseUrl,
              api_key: this.deps.inference!.apiKey,
              model_name: this.deps.model,
            },
          },
          // ART's scenarios are dicts: the task input's context, with its text as input_text.
          scenario: { ...(first.scenario.context ?? {}), input_text: first.scenario.input_text },
          count: episodes.length,
          timeout_seconds: Math.max(1, Math.round(this.deps.timeoutMs / 1000)),
        },
        (line) => {
          switch (line.type) {
            case 'turn':
              hooks.onTurn(); // a model call of the rollout finished: progress, and the watchdog stays quiet
              break;
            case 'trajectory':
              add(this.trajectoryOf(line));
              break;
            case 'exception':
              add(this.exceptionOf(line));
              break;
            case 'done':
              done = true;
              break;
            case 'error':
              throw new ProviderError(
                `Atelier worker ${this.worker.name} /v1/rollouts: ${String(line.code ?? 'error')}: ${String(line.message ?? '')}`,
                200,
                false,
              );
            default:
            // heartbeat (and line types added later): the stream is alive, but the rollout made no progress
          }
        },
        hooks.signal,
      );
      if (!done)
        throw new ProviderError(
          `Atelier worker ${this.worker.name} /v1/rollouts: the stream ended without a done line`,
          200,
          true,
        );
    } catch (err) {
      if (err instanceof AbortedError || hooks.signal.aborted) throw new AbortedError(hooks.signal.reason ?? err);
      if (err instanceof WorkerEntrypointError) throw err;
      if (!(err instanceof ProviderError)) throw err;
      // The worker failed mid-group: what finished is kept; the rest is stored failed with the cause.
      const cause = this.deps.redact(err.message);
      while (results.length < episodes.length)
        results.push({ trajectory: emptyTrajectory(), reward: null, turns: 0, error: `WorkerError: ${cause}` });
    }
    return results;
  }

  private trajectoryOf(line: WorkerRolloutLine): EpisodeResult {
    const raw = isObject(line.trajectory) ? line.trajectory : {};
    const trajectory = {
      ...emptyTrajectory(),
      ...raw,
      messages_and_choices: Array.isArray(raw.messages_and_choices) ? (raw.messages_and_choices as Json[]) : [],
    } as ArtTrajectoryJson;
    const reward = typeof raw.reward === 'number' && Number.isFinite(raw.reward) ? raw.reward : 0;
    const turns = trajectory.messages_and_choices.filter((m) => m.role === undefined && isObject(m.message)).length;
    return { trajectory, reward, turns };
  }

  private exceptionOf(line: WorkerRolloutLine): EpisodeResult {
    const e = isObject(line.exception) ? line.exception : {};
    const exception = {
      type: String(e.type ?? 'Exception'),
      message: this.deps.redact(String(e.message ?? '')),
      traceback: this.deps.redact(String(e.traceback ?? '')),
    };
    return {
      trajectory: emptyTrajectory(),
      reward: null,
      turns: 0,
      error: `${shortType(exception.type)}: ${exception.message}`,
      exception,
    };
  }
}
