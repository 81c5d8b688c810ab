// Settings every backend client gets from the pipeline configuration.
import type { RetryPolicy } from '../providers/http';

export interface BackendClientOptions {
  /** The name in ART_BACKENDS. */
  name: string;
  baseUrl: string;
  timeoutMs: number;
  /** Registering/preparing starts vLLM: ART's own client allows 600 s. */
  prepareTimeoutMs: number;
  /** How long a training stream (or a job's events) may stay silent before the call gives up. */
  streamIdleMs: number;
  retry: RetryPolicy;
  /** Overrides the inference base URL the backend reports (a proxy in front of vLLM; the tests). */
  inferenceUrl?: string;
}
