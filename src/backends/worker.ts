// The self-hosted GPU kind: an Atelier worker (worker/, protocol `atelier-worker/1`, worker/PROTOCOL.md)
// running next to ART's LocalBackend. It uses ART's Python API on the box, so Atelier no longer depends on
// an HTTP surface ART does not keep: register, step, train (NDJSON: gradient_step / heartbeat / done /
// error), delete_checkpoints; errors are {error: {code, message}}; an optional bearer token.
import { currentMetricNames } from '../domain/train-metrics';
import {
  AbortedError,
  callJson,
  callWithRetry,
  getJson,
  pause,
  ProviderError,
  retryAfterMs,
  retryDelayMs,
} from '../providers/http';
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

/** What `POST /v1/rollouts` is sent (worker/PROTOCOL.md, "Rollouts"). */
export interface WorkerRolloutRequest {
  entrypoint: string;
  model: TrainableModel & { inference: { base_url: string; api_key: string; model_name: string } };
  scenario: Record<string, unknown>;
  count: number;
  config?: unknown;
  timeout_seconds?: number;
}

/** One line of a rollout stream: trajectory / exception / turn / heartbeat / done / error. */
export type WorkerRolloutLine = Record<string, unknown> & { type?: unknown };

/**
 * The rollout entrypoint cannot be used on the worker: its module does not import (`entrypoint_not_importable`),
 * it names nothing there (`entrypoint_not_found`) or nothing callable (`entrypoint_not_callable`). Never retried.
 */
export class WorkerEntrypointError extends ProviderError {
  constructor(
    message: string,
    readonly code: string,
    /** The module the entrypoint names. */
    readonly module: string,
  ) {
    super(message, 422, false);
    this.name = 'WorkerEntrypointError';
  }
}

/** A worker's 422 about an entrypoint, as a typed error; anything else unchanged. */
function entrypointError(status: number, body: string, what: string): WorkerEntrypointError | null {
  if (status !== 422) return null;
  try {
    const parsed = JSON.parse(body) as { error?: { code?: string; message?: string; module?: string } };
    if (parsed.error?.code?.startsWith('entrypoint_'))
      return new WorkerEntrypointError(
        `${what}: ${parsed.error.code}: ${parsed.error.message ?? ''}`,
        parsed.error.code,
        parsed.error.module ?? '',
      );
  } catch {
    // not the worker's JSON
  }
  return null;
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

  /** `POST /v1/rollouts/check`: the entrypoint imports on the worker; WorkerEntrypointError naming the module if not. */
  async checkEntrypoint(entrypoint: string, signal: AbortSignal): Promise<{ mode: string; takes_config: boolean }> {
    await this.health(signal);
    const what = `Atelier worker ${this.name} /v1/rollouts/check`;
    const res = await this.open('/v1/rollouts/check', JSON.stringify({ entrypoint }), what, signal);
    try {
      return (await res.json()) as { mode: string; takes_config: boolean };
    } catch {
      throw new ProviderError(`${what}: the answer is not JSON`, 200, false);
    }
  }

  /**
   * `POST /v1/rollouts`: runs the user's rollout on the worker and hands each NDJSON line to onLine as it
   * arrives (any line is activity; heartbeats too). Refused or unreachable before the stream starts: sent
   * again with backoff (Retry-After honoured); a stream that breaks, or stays silent for streamIdleMs, fails
   * (a rollout is not resumable). The signal closes the stream, which cancels the rollout on the worker.
   */
  async rollouts(
    request: WorkerRolloutRequest,
    onLine: (line: WorkerRolloutLine) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const what = `Atelier worker ${this.name} /v1/rollouts`;
    const res = await this.open('/v1/rollouts', JSON.stringify(request), what, signal);
    await readNdjson(res, this.opts.streamIdleMs, what, onLine, signal);
  }

  /**
   * POSTs and resolves with a 2xx answer whose body is the caller's to read. The timeout covers the answer's
   * headers only (a stream is timed by its silence); 408, 429, 5xx and connection failures are sent again
   * with backoff (Retry-After honoured); a 422 about the entrypoint is a WorkerEntrypointError.
   */
  private async open(path: string, body: string, what: string, signal: AbortSignal): Promise<Response> {
    const { attempts } = this.opts.retry;
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw new AbortedError(signal.reason);
      const headers = new AbortController();
      const timer = setTimeout(() => headers.abort(), this.opts.timeoutMs);
      let failure: ProviderError;
      try {
        const answer = await fetch(this.url(path), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...this.headers() },
          body,
          signal: AbortSignal.any([signal, headers.signal]),
        });
        clearTimeout(timer);
        if (answer.ok) return answer;
        const text = (await answer.text().catch(() => '')).slice(0, 4000);
        const typed = entrypointError(answer.status, text, what);
        if (typed) throw typed;
        failure = new ProviderError(
          workerMessage(new ProviderError(`${what}: HTTP ${answer.status}: ${text}`, answer.status, false)),
          answer.status,
          answer.status === 429 || answer.status === 408 || answer.status >= 500,
          retryAfterMs(answer.headers.get('retry-after')),
        );
        if (!failure.transient) throw failure;
      } catch (err) {
        clearTimeout(timer);
        if (signal.aborted) throw new AbortedError(signal.reason);
        if (err instanceof ProviderError) throw err;
        failure = new ProviderError(
          headers.signal.aborted
            ? `${what}: no answer within ${Math.round(this.opts.timeoutMs / 1000)} s`
            : `${what}: ${err instanceof Error ? err.message : String(err)}`,
          null,
          true,
        );
      }
      if (attempt >= attempts)
        throw new ProviderError(`${failure.message} (gave up after ${attempts} attempts)`, failure.status, false);
      await pause(retryDelayMs(this.opts.retry, attempt - 1, failure.retryAfterMs), signal);
    }
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
