// The hosted kind: W&B's serverless Training API, as ART's ServerlessBackend drives it — a model per
// project/name, one training job per step carrying the trajectory groups, the job's events read by
// cursor (training_started, gradient_step, training_ended, training_failed), checkpoints listed per model,
// and inference on the same base URL's OpenAI-compatible endpoint under
// `wandb-artifact:///<entity>/<project>/<name>:step<N>`. No GPU needed. The key comes from WANDB_API_KEY
// and is only ever sent as a bearer token.
// Read at: OpenPipe/ART 029b7a286be4a5446a0b7a7450f1b5bc3783c7f3 src/art/serverless/client.py (the
// preview job API, still present next to the newer native-run API), pmukeshreddy/ART
// a470ba4453f0ce43602ef7f3bd0a4e8a8fd73405 src/art/serverless/backend.py (0.5.9: _train_model,
// _get_step, _model_inference_name with :stepN) and JRMeyer/ART 8c905c8bd3fc67602dcaa4657873d5e22a038aa9.
import { currentMetricNames, GRADIENT_STEPS_KEY } from '../domain/train-metrics';
import { callJson, callWithRetry, getJson, pause, ProviderError } from '../providers/http';
import type { BackendClientOptions } from './options';
import {
  stepNumber,
  TrainingCallError,
  type ArtTrajectoryGroup,
  type BackendHealth,
  type InferenceTarget,
  type TrainableModel,
  type TrainConfig,
  type TrainingBackend,
} from './types';

export const WANDB_TRAINING_URL = 'https://api.training.wandb.ai/v1';

export interface ServerlessOptions extends BackendClientOptions {
  /** WANDB_API_KEY. */
  apiKey: string;
  /** WANDB_ENTITY; unset: the key's default entity, as W&B answers it. */
  entity?: string;
  /** Between polls of a job's events (ART polls every second). */
  pollMs?: number;
}

interface WandbModel {
  id: string;
  entity: string;
  project: string;
  name: string;
}
interface Page<T> {
  data: T[];
  has_more?: boolean;
}
interface JobEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export class ServerlessBackend implements TrainingBackend {
  readonly kind = 'serverless' as const;
  private readonly models = new Map<string, Promise<WandbModel>>();

  constructor(private readonly opts: ServerlessOptions) {}

  get name(): string {
    return this.opts.name;
  }

  private url(path: string): string {
    return `${this.opts.baseUrl.replace(/\/$/, '')}${path}`;
  }

  private get auth(): Record<string, string> {
    return { authorization: `Bearer ${this.opts.apiKey}` };
  }

  private what(path: string): string {
    return `W&B Training API (${this.name}) ${path.replace(/\?.*$/, '')}`;
  }

  private get<T>(path: string, signal?: AbortSignal): Promise<T> {
    return getJson<T>(this.url(path), {
      timeoutMs: this.opts.timeoutMs,
      retry: this.opts.retry,
      signal,
      headers: this.auth,
      what: this.what(path),
    });
  }

  async health(): Promise<BackendHealth> {
    if (!this.opts.apiKey)
      throw new ProviderError(`W&B Training API (${this.name}): WANDB_API_KEY is not set`, null, false);
    return { kind: this.kind, version: `W&B Training API at ${this.opts.baseUrl} (preview training jobs)` };
  }

  /** The W&B model for project/name, created on first use (return_existing makes it idempotent). */
  private model(model: TrainableModel, signal?: AbortSignal): Promise<WandbModel> {
    const key = `${model.project}\u0000${model.name}`;
    let found = this.models.get(key);
    if (!found) {
      found = callJson<WandbModel>(
        this.url('/preview/models'),
        {
          entity: this.opts.entity ?? null,
          project: model.project,
          name: model.name,
          base_model: model.base_model,
          return_existing: true,
        },
        {
          timeoutMs: this.opts.timeoutMs,
          retry: this.opts.retry,
          signal,
          headers: this.auth,
          what: this.what('/preview/models'),
        },
      ).then((m) => {
        if (typeof m?.id !== 'string' || typeof m.entity !== 'string')
          throw new ProviderError(
            `${this.what('/preview/models')}: unexpected answer ${JSON.stringify(m).slice(0, 200)}`,
            200,
            false,
          );
        return m;
      });
      this.models.set(key, found);
      found.catch(() => this.models.delete(key));
    }
    return found;
  }

  async prepare(model: TrainableModel, signal?: AbortSignal): Promise<InferenceTarget> {
    await this.health();
    const m = await this.model(model, signal);
    const base = `wandb-artifact:///${m.entity}/${m.project}/${m.name}`;
    return {
      baseUrl: this.opts.inferenceUrl ?? this.opts.baseUrl.replace(/\/$/, ''),
      apiKey: this.opts.apiKey,
      // Before any checkpoint ART names the model without a step (the base model); after, `:step<N>`.
      modelName: (step) => (step > 0 ? `${base}:step${step}` : base),
    };
  }

  async currentStep(model: TrainableModel, signal?: AbortSignal): Promise<number> {
    const m = await this.model(model, signal);
    const page = await this.get<Page<{ step: number }>>(
      `/preview/models/${encodeURIComponent(m.id)}/checkpoints?limit=1&order=desc`,
      signal,
    );
    return stepNumber(page?.data?.[0]?.step ?? 0, this.what('/preview/models/checkpoints'));
  }

  /**
   * Creates the step's training job (one attempt: job creation has no idempotency key, so the caller
   * retries only after checking that no checkpoint appeared), then follows its events until it ends.
   * Once the job exists, a failure to read its events is not retried by creating another job.
   */
  async train(
    model: TrainableModel,
    groups: ArtTrajectoryGroup[],
    config: TrainConfig,
    onGradientStep: (values: Record<string, number>) => void,
    signal?: AbortSignal,
  ): Promise<{ step: number | null }> {
    const m = await this.model(model, signal);
    const createWhat = this.what('/preview/training-jobs');
    let job: { id?: unknown };
    try {
      const res = await callWithRetry(
        this.url('/preview/training-jobs'),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...this.auth },
          body: JSON.stringify({
            model_id: m.id,
            trajectory_groups: groups,
            experimental_config: { learning_rate: config.learning_rate },
          }),
        },
        { timeoutMs: this.opts.timeoutMs, retry: { ...this.opts.retry, attempts: 1 }, signal, what: createWhat },
      );
      job = (await res.json()) as { id?: unknown };
    } catch (err) {
      if (err instanceof ProviderError)
        throw new TrainingCallError(err.message, err.status, err.transient, false, false, err.retryAfterMs);
      if (err instanceof SyntaxError)
        throw new TrainingCallError(`${createWhat}: the answer is not JSON`, 200, false, true);
      throw err;
    }
    if (typeof job?.id !== 'string')
      throw new TrainingCallError(
        `${createWhat}: unexpected answer ${JSON.stringify(job).slice(0, 200)}`,
        200,
        false,
        true,
      );
    await this.follow(job.id, onGradientStep, signal);
    return { step: await this.currentStep(model, signal) };
  }

  private async follow(
    jobId: string,
    onGradientStep: (values: Record<string, number>) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    let after: string | null = null;
    let total: number | null = null;
    let lastEventAt = Date.now();
    const path = `/preview/training-jobs/${encodeURIComponent(jobId)}/events`;
    for (;;) {
      let page: Page<JobEvent>;
      try {
        page = await this.get<Page<JobEvent>>(
          `${path}?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`,
          signal,
        );
      } catch (err) {
        // Reading was already retried; the job may still run on W&B: never start a second one for this step.
        if (err instanceof ProviderError)
          throw new TrainingCallError(
            `${err.message} (training job ${jobId} may still be running)`,
            err.status,
            false,
            true,
          );
        throw err;
      }
      for (const event of page?.data ?? []) {
        after = event.id;
        lastEventAt = Date.now();
        if (event.type === 'training_started') {
          if (typeof event.data?.num_sequences === 'number') total = event.data.num_sequences;
        } else if (event.type === 'gradient_step') {
          onGradientStep(
            currentMetricNames({ ...event.data, ...(total !== null ? { [GRADIENT_STEPS_KEY]: total } : {}) }),
          );
        } else if (event.type === 'training_ended') {
          return;
        } else if (event.type === 'training_failed') {
          const message =
            typeof event.data?.error_message === 'string'
              ? event.data.error_message
              : 'Training failed with an unknown error';
          throw new TrainingCallError(`${this.what(path)}: training job ${jobId} failed: ${message}`, 200, false, true);
        }
      }
      if (page?.has_more) continue;
      if (Date.now() - lastEventAt > this.opts.streamIdleMs) {
        throw new TrainingCallError(
          `${this.what(path)}: training job ${jobId} sent no event for ${Math.round(this.opts.streamIdleMs / 1000)} s (it may still be running)`,
          null,
          false,
          true,
        );
      }
      await pause(this.opts.pollMs ?? 1000, signal);
    }
  }

  async deleteCheckpoints(model: TrainableModel, stepsToKeep: number[], signal?: AbortSignal): Promise<void> {
    const m = await this.model(model, signal);
    const steps: number[] = [];
    let after: string | null = null;
    for (;;) {
      const page: Page<{ id: string; step: number }> = await this.get(
        `/preview/models/${encodeURIComponent(m.id)}/checkpoints?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        signal,
      );
      for (const c of page.data ?? []) steps.push(c.step);
      if (!page.has_more || !page.data?.length) break;
      after = page.data[page.data.length - 1].id;
    }
    const latest = Math.max(0, ...steps);
    const doomed = steps.filter((s) => s !== latest && !stepsToKeep.includes(s));
    if (!doomed.length) return;
    await callWithRetry(
      this.url(`/preview/models/${encodeURIComponent(m.id)}/checkpoints`),
      {
        method: 'DELETE',
        headers: { 'content-type': 'application/json', ...this.auth },
        body: JSON.stringify({ steps: doomed }),
      },
      {
        timeoutMs: this.opts.timeoutMs,
        retry: this.opts.retry,
        signal,
        what: this.what('/preview/models/checkpoints'),
      },
    );
  }
}
