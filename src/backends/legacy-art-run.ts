// The legacy kind: ART's own HTTP server (`art run`) of ART 0.3.x–0.4.x (and 0.5.0, the same
// surface), which Atelier drives as ART's Python client did. The version is detected from the
// server's /openapi.json (FastAPI's; `art run` has no version endpoint) and only versions that can
// train what Atelier sends over HTTP are driven; newer ones get an error naming the Atelier worker.
// Read at: OpenPipe/ART 779559fd0c68ce073cbd041447f88aacf1d9f585 (0.3.11 era) and JRMeyer/ART history
// (0.3.11 126fa27, 0.4.12 e3f7968, 0.5.0 fe5bd7d, 0.5.3 08c4c29: src/art/cli.py, model.py, types.py,
// trajectories.py), pmukeshreddy/ART a470ba4453f0ce43602ef7f3bd0a4e8a8fd73405 (0.5.9).
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

function modelJson(m: TrainableModel) {
  // Fields of ART's TrainableModel; pydantic ignores the ones an older version lacks.
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

interface OpenApiSchema {
  properties?: Record<string, unknown>;
}
interface OpenApiDoc {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

/** What the server's routes and body schemas say about its ART version. */
export function detectArtRunVersion(doc: OpenApiDoc, backendName: string): { version: string; refusal: string | null } {
  const paths = Object.keys(doc.paths ?? {});
  const schemas = Object.values(doc.components?.schemas ?? {});
  const trajectory = schemas.find((s) => s.properties && 'messages_and_choices' in s.properties);
  const model = schemas.find((s) => s.properties && 'base_model' in s.properties && 'name' in s.properties);
  const worker = `run the Atelier worker (worker/README.md) next to ART's LocalBackend on that machine and set ART_BACKENDS=${backendName}=worker+http://<gpu-box>:7998`;
  if (!paths.includes('/_train_model')) {
    return {
      version: 'newer than 0.5.9 (no /_train_model)',
      refusal: `this ART server (version newer than 0.5.9: its \`art run\` serves no /_train_model) cannot train over HTTP; ${worker}`,
    };
  }
  if (paths.includes('/_delete_checkpoint_files') || !paths.includes('/_log')) {
    return {
      version: '0.5.9-style (/_delete_checkpoint_files, no /_log)',
      refusal: `this ART server (version 0.5.9 or close: /_delete_checkpoint_files, no /_log) cannot train what Atelier sends over HTTP (a choice sent as JSON stays a dict and breaks tokenization; checkpoints are served as name@step); ${worker}`,
    };
  }
  if (trajectory?.properties && 'auto_metrics' in trajectory.properties) {
    return {
      version: '0.5.1 or later',
      refusal: `this ART server (version 0.5.1 or later: Trajectory has auto_metrics) cannot be trusted to train over HTTP (from 0.5.3 a choice sent as JSON stays a dict and breaks tokenization, and 0.5.1–0.5.2 cannot be told apart from it); ${worker}`,
    };
  }
  const version = model?.properties && 'entity' in model.properties ? '0.4.12–0.5.0' : '0.3.x–0.4.11';
  return { version, refusal: null };
}

export class LegacyArtRunBackend implements TrainingBackend {
  readonly kind = 'art-run' as const;
  private detected: Promise<BackendHealth> | null = null;

  constructor(private readonly opts: BackendClientOptions) {}

  get name(): string {
    return this.opts.name;
  }

  private url(path: string): string {
    return `${this.opts.baseUrl.replace(/\/$/, '')}${path}`;
  }

  private call<T>(path: string, body: unknown, signal?: AbortSignal, timeoutMs = this.opts.timeoutMs): Promise<T> {
    return callJson<T>(this.url(path), body, {
      timeoutMs,
      retry: this.opts.retry,
      signal,
      what: `ART backend ${path}`,
    });
  }

  /** Detected once per process (again after a failure): a server does not change version under a running Atelier without restarting. */
  health(signal?: AbortSignal): Promise<BackendHealth> {
    this.detected ??= this.detect(signal).catch((err) => {
      this.detected = null;
      throw err;
    });
    return this.detected;
  }

  private async detect(signal?: AbortSignal): Promise<BackendHealth> {
    let doc: OpenApiDoc;
    try {
      doc = await getJson<OpenApiDoc>(this.url('/openapi.json'), {
        timeoutMs: this.opts.timeoutMs,
        retry: this.opts.retry,
        signal,
        what: `ART backend ${this.name} /openapi.json`,
      });
    } catch (err) {
      if (err instanceof ProviderError && err.status === 404) {
        throw new ProviderError(
          `ART backend ${this.name}: ${this.opts.baseUrl} serves no /openapi.json, so it is not ART's \`art run\` (an Atelier worker is configured as ${this.name}=worker+${this.opts.baseUrl})`,
          404,
          false,
        );
      }
      throw err;
    }
    const { version, refusal } = detectArtRunVersion(doc, this.name);
    if (refusal) throw new ProviderError(`ART backend ${this.name}: ${refusal}`, null, false);
    return { kind: this.kind, version: `art run ${version}` };
  }

  async prepare(model: TrainableModel, signal?: AbortSignal): Promise<InferenceTarget> {
    await this.health(signal);
    await this.call('/register', modelJson(model), signal);
    const answer = await this.call<unknown>(
      '/_prepare_backend_for_training',
      { model: modelJson(model), config: null },
      signal,
      this.opts.prepareTimeoutMs,
    );
    if (!Array.isArray(answer) || typeof answer[0] !== 'string') {
      throw new ProviderError(
        `ART backend /_prepare_backend_for_training: expected [base_url, api_key], got ${JSON.stringify(answer).slice(0, 200)}`,
        200,
        false,
      );
    }
    return {
      // vLLM listens on 0.0.0.0 on the GPU machine: reach it through the backend's own host.
      baseUrl: this.opts.inferenceUrl ?? reachableFrom(this.opts.baseUrl, answer[0]),
      apiKey: typeof answer[1] === 'string' ? answer[1] : '',
      // Up to 0.5.2 vLLM serves the LoRA under the model's bare name and swaps in each new checkpoint.
      modelName: () => model.name,
    };
  }

  async currentStep(model: TrainableModel, signal?: AbortSignal): Promise<number> {
    return stepNumber(await this.call<unknown>('/_get_step', modelJson(model), signal), 'ART backend /_get_step');
  }

  /** One attempt: the pipeline's train stage decides about retries (it knows whether the stream had started). */
  async train(
    model: TrainableModel,
    groups: ArtTrajectoryGroup[],
    config: TrainConfig,
    onGradientStep: (values: Record<string, number>) => void,
    signal?: AbortSignal,
  ): Promise<{ step: number | null }> {
    const what = `ART backend /_train_model`;
    let lines = 0;
    try {
      const res = await callWithRetry(
        this.url('/_train_model'),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            model: modelJson(model),
            trajectory_groups: groups,
            config,
            dev_config: {},
            verbose: false,
          }),
        },
        // The answer starts once training starts; the idle timeout covers the stream.
        { timeoutMs: this.opts.streamIdleMs, retry: { ...this.opts.retry, attempts: 1 }, signal, what },
      );
      await readNdjson(
        res,
        this.opts.streamIdleMs,
        what,
        (line) => {
          lines++;
          onGradientStep(currentMetricNames(line));
        },
        signal,
      );
    } catch (err) {
      if (err instanceof ProviderError)
        throw new TrainingCallError(err.message, err.status, err.transient, lines > 0, false, err.retryAfterMs);
      throw err;
    }
    return { step: null };
  }
}
