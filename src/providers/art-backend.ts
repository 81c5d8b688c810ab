// A client for ART's backend HTTP protocol (`art run`): register, prepare, step, train. Atelier
// plays the part of ART's Python client; JSON shapes follow ../shared/reference/art.md.
import { callJson, callWithRetry, AbortedError, ProviderError, type RetryPolicy } from './http';

export interface TrainableModel {
  name: string;
  project: string;
  base_model: string;
}

/** ART's Trajectory: plain messages are context; trained assistant turns are the choices verbatim. */
export interface ArtTrajectory {
  messages_and_choices: unknown[];
  tools: null;
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

export interface ArtBackendOptions {
  baseUrl: string;
  timeoutMs: number;
  prepareTimeoutMs: number;
  /** How long the training stream may stay silent before the call gives up (the run's stall watchdog normally fires first). */
  streamIdleMs: number;
  retry: RetryPolicy;
}

function modelJson(m: TrainableModel) {
  return {
    name: m.name,
    project: m.project,
    entity: null,
    id: null,
    config: null,
    trainable: true,
    base_model: m.base_model,
    inference_api_key: null,
    inference_base_url: null,
    inference_model_name: null,
  };
}

export class ArtBackend {
  constructor(private readonly opts: ArtBackendOptions) {}

  private url(path: string): string {
    return `${this.opts.baseUrl.replace(/\/$/, '')}${path}`;
  }

  private call<T>(path: string, body: unknown, signal?: AbortSignal, timeoutMs = this.opts.timeoutMs): Promise<T> {
    return callJson<T>(this.url(path), body, { timeoutMs, retry: this.opts.retry, signal, what: `ART backend ${path}` });
  }

  async register(model: TrainableModel, signal?: AbortSignal): Promise<void> {
    await this.call('/register', modelJson(model), signal);
  }

  async getStep(model: TrainableModel, signal?: AbortSignal): Promise<number> {
    const step = await this.call<unknown>('/_get_step', modelJson(model), signal);
    if (typeof step !== 'number' || !Number.isInteger(step) || step < 0) throw new ProviderError(`ART backend /_get_step: expected a step number, got ${JSON.stringify(step)}`, 200, false);
    return step;
  }

  /** Starts the model's inference server; answers its OpenAI-compatible base URL and key. */
  async prepare(model: TrainableModel, signal?: AbortSignal): Promise<{ baseUrl: string; apiKey: string }> {
    const answer = await this.call<unknown>('/_prepare_backend_for_training', { model: modelJson(model), config: null }, signal, this.opts.prepareTimeoutMs);
    if (!Array.isArray(answer) || typeof answer[0] !== 'string') {
      throw new ProviderError(`ART backend /_prepare_backend_for_training: expected [base_url, api_key], got ${JSON.stringify(answer).slice(0, 200)}`, 200, false);
    }
    // vLLM listens on 0.0.0.0 on the GPU machine: reach it through the backend's own host.
    const url = new URL(answer[0]);
    if (url.hostname === '0.0.0.0') url.hostname = new URL(this.opts.baseUrl).hostname;
    return { baseUrl: url.toString().replace(/\/$/, ''), apiKey: typeof answer[1] === 'string' ? answer[1] : '' };
  }

  /**
   * Trains one step on the groups, reading the NDJSON stream line by line: onLine gets each gradient
   * step's values as it arrives. Resolves when the stream ends (the backend has saved the checkpoint).
   * Not retried here: after a broken stream the caller asks /_get_step whether the step was trained.
   */
  async train(
    model: TrainableModel,
    groups: ArtTrajectoryGroup[],
    config: { learning_rate: number; beta: number },
    onLine: (values: Record<string, number>) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const res = await callWithRetry(
      this.url('/_train_model'),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: modelJson(model), trajectory_groups: groups, config, dev_config: {}, verbose: false }),
      },
      // The response starts once training starts; the idle timeout below covers the stream.
      { timeoutMs: this.opts.streamIdleMs, retry: { ...this.opts.retry, attempts: 1 }, signal, what: 'ART backend /_train_model' },
    );
    if (!res.body) throw new ProviderError('ART backend /_train_model: no response body', res.status, false);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    const handle = (line: string) => {
      if (!line.trim()) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new ProviderError(`ART backend /_train_model: a stream line is not JSON: ${line.slice(0, 200)}`, 200, false);
      }
      const values: Record<string, number> = {};
      for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) if (typeof v === 'number' && Number.isFinite(v)) values[k] = v;
      onLine(values);
    };
    try {
      for (;;) {
        const { done, value } = await readWithin(reader, this.opts.streamIdleMs, signal);
        if (done) break;
        buffered += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          handle(buffered.slice(0, nl));
          buffered = buffered.slice(nl + 1);
        }
      }
      handle(buffered + decoder.decode());
    } catch (err) {
      await reader.cancel().catch(() => undefined);
      if (err instanceof ProviderError || err instanceof AbortedError) throw err;
      throw new ProviderError(`ART backend /_train_model: the stream broke (${err instanceof Error ? err.message : err})`, null, true);
    }
  }
}

async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number, signal?: AbortSignal) {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ProviderError(`ART backend /_train_model: no training progress for ${Math.round(ms / 1000)} s`, null, true)), ms);
      }),
      new Promise<never>((_, reject) => {
        if (!signal) return;
        onAbort = () => reject(new AbortedError(signal.reason));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
