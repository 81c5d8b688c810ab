// The self-hosted GPU kind: an Atelier worker (worker/, protocol `atelier-worker/1`, worker/PROTOCOL.md)
// running next to ART's LocalBackend. It uses ART's Python API on the box, so Atelier no longer depends on
// an HTTP surface ART does not keep: register, step, train (NDJSON: gradient_step / heartbeat / done /
// error), delete_checkpoints; errors are {error: {code, message}}; an optional bearer token.
import { currentMetricNames } from '../domain/train-metrics';
import { callJson, callWithRetry, getJson, ProviderError } from '../providers/http';
import { readNdjson } from './ndjson';
import type { BackendClientOptions } from './options';
import {
  reachableFrom,
  stepNumber,
  TrainingCallError,
  type ArtTrajectoryGroup,
  type BackendHealth,
  type InferenceTarget,
  type TrainableModel,
  type TrainConfig,
  type TrainingBackend,
} from './types';

export const WORKER_PROTOCOL = 'atelier-worker/1';

export interface WorkerOptions extends BackendClientOptions {
  /** ATELIER_WORKER_TOKEN: sent as a bearer token; never logged. */
  token?: string;
}

interface RegisterAnswer {
  step: number;
  inference: { base_url: string; api_key: string; model_name: string };
}

/** The worker's error body, in one line: "busy: the model is already training". */
function workerMessage(err: ProviderError): string {
  const m = /HTTP (\d+): (\{.*)$/s.exec(err.message);
  if (!m) return err.message;
  try {
    const body = JSON.parse(m[2]) as { error?: { code?: string; message?: string } };
    if (body.error?.code)
      return err.message.slice(0, m.index) + `HTTP ${m[1]} ${body.error.code}: ${body.error.message ?? ''}`;
  } catch {
    // not the worker's JSON: keep the text
  }
  return err.message;
}

function isBusy(err: ProviderError): boolean {
  return err.status === 409 && /"code"\s*:\s*"busy"/.test(err.message);
}

export class WorkerBackend implements TrainingBackend {
  readonly kind = 'worker' as const;
  private checked: Promise<BackendHealth> | null = null;
  /** Models registered with this worker process; a worker restart forgets them (404 model_not_registered). */
  private readonly registered = new Map<string, RegisterAnswer>();

  constructor(private readonly opts: WorkerOptions) {}

  get name(): string {
    return this.opts.name;
  }

  private url(path: string): string {
    return `${this.opts.baseUrl.replace(/\/$/, '')}${path}`;
  }

  private headers(): Record<string, string> {
    return this.opts.token ? { authorization: `Bearer ${this.opts.token}` } : {};
  }

  private async call<T>(
    path: string,
    body: unknown,
    signal?: AbortSignal,
    timeoutMs = this.opts.timeoutMs,
  ): Promise<T> {
    try {
      return await callJson<T>(this.url(path), body, {
        timeoutMs,
        retry: this.opts.retry,
        signal,
        headers: this.headers(),
        what: `Atelier worker ${this.name} ${path}`,
      });
    } catch (err) {
      if (err instanceof ProviderError) throw new ProviderError(workerMessage(err), err.status, err.transient);
      throw err;
    }
  }

  health(signal?: AbortSignal): Promise<BackendHealth> {
    this.checked ??= this.check(signal).catch((err) => {
      this.checked = null;
      throw err;
    });
    return this.checked;
  }

  private async check(signal?: AbortSignal): Promise<BackendHealth> {
    const what = `Atelier worker ${this.name} /v1/health`;
    let answer: { status?: string; protocol?: string; art_version?: string; worker_version?: string };
    try {
      answer = await getJson(this.url('/v1/health'), {
        timeoutMs: this.opts.timeoutMs,
        retry: this.opts.retry,
        signal,
        what,
      });
    } catch (err) {
      if (err instanceof ProviderError && err.status === 404) {
        throw new ProviderError(
          `${what}: not found — ${this.opts.baseUrl} is not an Atelier worker (an \`art run\` server is configured as ${this.name}=${this.opts.baseUrl})`,
          404,
          false,
        );
      }
      throw err;
    }
    if (answer.protocol !== WORKER_PROTOCOL) {
      throw new ProviderError(
        `${what}: speaks ${JSON.stringify(answer.protocol ?? null)}, Atelier speaks ${WORKER_PROTOCOL}; run a worker from this Atelier's worker/ folder`,
        200,
        false,
      );
    }
    return {
      kind: this.kind,
      version: `${WORKER_PROTOCOL} (worker ${answer.worker_version ?? '?'}, ART ${answer.art_version ?? '?'})`,
    };
  }

  private async register(model: TrainableModel, signal?: AbortSignal): Promise<RegisterAnswer> {
    const answer = await this.call<RegisterAnswer>(
      '/v1/models/register',
      { name: model.name, project: model.project, base_model: model.base_model },
      signal,
      this.opts.prepareTimeoutMs,
    );
    if (!answer?.inference || typeof answer.inference.base_url !== 'string' || typeof answer.step !== 'number') {
      throw new ProviderError(
        `Atelier worker ${this.name} /v1/models/register: unexpected answer ${JSON.stringify(answer).slice(0, 200)}`,
        200,
        false,
      );
    }
    this.registered.set(`${model.project}\u0000${model.name}`, answer);
    return answer;
  }

  /** A call that needs the model registered: after a worker restart (404 model_not_registered), registers again once. */
  private async withModel<T>(model: TrainableModel, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ProviderError) || err.status !== 404 || !/model_not_registered/.test(err.message)) throw err;
      await this.register(model, signal);
      return fn();
    }
  }

  async prepare(model: TrainableModel, signal?: AbortSignal): Promise<InferenceTarget> {
    await this.health(signal);
    const answer = await this.register(model, signal);
    const served = answer.inference.model_name;
    // ART names a checkpoint `name@step`; a worker on older ART serves the bare name it reports.
    const stepped = new RegExp(`@${answer.step}$`).test(served);
    return {
      baseUrl: this.opts.inferenceUrl ?? reachableFrom(this.opts.baseUrl, answer.inference.base_url),
      apiKey: answer.inference.api_key ?? '',
      modelName: (step) => (stepped ? `${served.slice(0, served.lastIndexOf('@'))}@${step}` : served),
    };
  }

  async currentStep(model: TrainableModel, signal?: AbortSignal): Promise<number> {
    const answer = await this.withModel(model, signal, () =>
      this.call<{ step?: unknown }>('/v1/models/step', { name: model.name, project: model.project }, signal),
    );
    return stepNumber(answer.step, `Atelier worker ${this.name} /v1/models/step`);
  }

  async train(
    model: TrainableModel,
    groups: ArtTrajectoryGroup[],
    config: TrainConfig,
    onGradientStep: (values: Record<string, number>) => void,
    signal?: AbortSignal,
  ): Promise<{ step: number | null }> {
    return this.withModel(model, signal, () => this.trainOnce(model, groups, config, onGradientStep, signal));
  }

  private async trainOnce(
    model: TrainableModel,
    groups: ArtTrajectoryGroup[],
    config: TrainConfig,
    onGradientStep: (values: Record<string, number>) => void,
    signal?: AbortSignal,
  ): Promise<{ step: number | null }> {
    const what = `Atelier worker ${this.name} /v1/models/train`;
    // beta 0 is ART's no-op default; the worker refuses options the installed ART's train does not take.
    const trainConfig: Record<string, number> = {
      learning_rate: config.learning_rate,
      ...(config.beta ? { beta: config.beta } : {}),
    };
    const body = JSON.stringify({
      name: model.name,
      project: model.project,
      trajectory_groups: groups,
      config: trainConfig,
      log: true,
    });
    let started = false;
    let done: { step: number } | undefined;
    try {
      const res = await callWithRetry(
        this.url('/v1/models/train'),
        { method: 'POST', headers: { 'content-type': 'application/json', ...this.headers() }, body },
        { timeoutMs: this.opts.streamIdleMs, retry: { ...this.opts.retry, attempts: 1 }, signal, what },
      );
      // The worker checks everything before it answers 200: from here on the step may be training.
      started = true;
      await readNdjson(
        res,
        this.opts.streamIdleMs,
        what,
        (line) => {
          if (line.type === 'gradient_step' && line.metrics && typeof line.metrics === 'object')
            onGradientStep(currentMetricNames(line.metrics as Record<string, unknown>));
          else if (line.type === 'done') {
            if (typeof line.step !== 'number')
              throw new ProviderError(`${what}: a done line without a step`, 200, false);
            done = { step: line.step };
          } else if (line.type === 'error') {
            throw new ProviderError(
              `${what}: ${String(line.code ?? 'error')}: ${String(line.message ?? '')}`,
              200,
              false,
            );
          }
          // heartbeat (and line types added later): activity only
        },
        signal,
      );
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      // 409 busy: an earlier call whose connection broke still trains this model; the caller waits and asks the step.
      throw new TrainingCallError(
        workerMessage(err),
        err.status,
        err.transient || isBusy(err),
        started,
        isBusy(err),
        err.retryAfterMs,
      );
    }
    if (!done) throw new TrainingCallError(`${what}: the stream ended without a done line`, null, true, true);
    return done;
  }

  async deleteCheckpoints(model: TrainableModel, stepsToKeep: number[], signal?: AbortSignal): Promise<void> {
    await this.withModel(model, signal, () =>
      this.call(
        '/v1/models/delete_checkpoints',
        { name: model.name, project: model.project, steps_to_keep: stepsToKeep },
        signal,
      ),
    );
  }
}
