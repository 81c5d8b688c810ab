// Calls to the outside world: every request has a timeout, honours cancellation, and is retried
// with exponential backoff (and full jitter) when the failure is transient — a connection error,
// a timeout, a 5xx, or a 429, whose Retry-After is honoured.

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  /** A Retry-After or backoff longer than this is capped. */
  maxDelayMs?: number;
}

export interface CallOptions {
  timeoutMs: number;
  retry: RetryPolicy;
  signal?: AbortSignal;
  /** Names the call in errors, e.g. "ART backend /_train_model". */
  what: string;
  /** Called before each retry: the reason and the delay. */
  onRetry?: (reason: string, delayMs: number) => void;
}

/** A failure that retrying will not fix (4xx, a malformed answer), or retries that ran out. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly transient: boolean,
    /** The answer's Retry-After, in milliseconds: whoever retries the call waits this long (#23). */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The caller's signal fired (a cancel, or the stall watchdog). */
export class AbortedError extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : 'aborted');
    this.name = 'AbortedError';
  }
}

/** Sleeps `ms`, or throws AbortedError when the signal fires first. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError(signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError(signal!.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After in seconds or as an HTTP date, in milliseconds. */
export function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/**
 * The one backoff rule of every outside call, the HTTP retries here and the training retries of the
 * train stage alike: the server's Retry-After when it sent one (capped at maxDelayMs), otherwise
 * exponential backoff with full jitter, `random() * base * 2^failures` (`failures` counts from 0).
 */
export function retryDelayMs(
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  failures: number,
  retryAfter: number | null,
  random: () => number = Math.random,
): number {
  const max = policy.maxDelayMs ?? 60_000;
  if (retryAfter !== null) return Math.min(max, retryAfter);
  return Math.min(max, random() * policy.baseDelayMs * 2 ** Math.min(failures, 16));
}

function isTransientStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/**
 * fetch with a per-attempt timeout and retries. Resolves with a response whose status is 2xx;
 * the response body is the caller's to read (and to time out: see readWithin).
 */
export async function callWithRetry(url: string, init: RequestInit, opts: CallOptions): Promise<Response> {
  const { attempts, baseDelayMs, maxDelayMs = 60_000 } = opts.retry;
  let lastError: ProviderError | null = null;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (opts.signal?.aborted) throw new AbortedError(opts.signal.reason);
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    try {
      const res = await fetch(url, { ...init, signal });
      if (res.ok) return res;
      const body = (await res.text().catch(() => '')).slice(0, 300);
      const error = new ProviderError(
        `${opts.what}: HTTP ${res.status}${body ? `: ${body}` : ''}`,
        res.status,
        isTransientStatus(res.status),
        retryAfterMs(res.headers.get('retry-after')),
      );
      if (!error.transient) throw error;
      lastError = error;
    } catch (err) {
      if (opts.signal?.aborted) throw new AbortedError(opts.signal.reason);
      if (err instanceof ProviderError) throw err;
      const timedOut = timeout.aborted;
      lastError = new ProviderError(
        timedOut
          ? `${opts.what}: no answer within ${Math.round(opts.timeoutMs / 1000)} s`
          : `${opts.what}: ${describeNetworkError(err)}`,
        null,
        true,
      );
    }
    if (attempt < attempts) {
      const delay = retryDelayMs({ baseDelayMs, maxDelayMs }, attempt - 1, lastError.retryAfterMs);
      opts.onRetry?.(lastError.message, delay);
      await pause(delay, opts.signal);
    }
  }
  // A single attempt (the caller retries itself, e.g. training) keeps the failure's own transience and Retry-After.
  if (attempts === 1) throw lastError!;
  throw new ProviderError(`${lastError!.message} (gave up after ${attempts} attempts)`, lastError!.status, false);
}

function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `connection failed (${cause.code})`;
  return err instanceof Error ? err.message : String(err);
}

/** Calls and parses a JSON answer; a malformed answer is a permanent failure of that call. */
export async function callJson<T>(
  url: string,
  body: unknown,
  opts: CallOptions & { headers?: Record<string, string> },
): Promise<T> {
  const res = await callWithRetry(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json', ...opts.headers }, body: JSON.stringify(body) },
    opts,
  );
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProviderError(`${opts.what}: the answer is not JSON: ${text.slice(0, 200)}`, res.status, false);
  }
}

/** GETs and parses a JSON answer (retried like callJson). */
export async function getJson<T>(url: string, opts: CallOptions & { headers?: Record<string, string> }): Promise<T> {
  const res = await callWithRetry(
    url,
    { method: 'GET', headers: { accept: 'application/json', ...opts.headers } },
    opts,
  );
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProviderError(`${opts.what}: the answer is not JSON: ${text.slice(0, 200)}`, res.status, false);
  }
}
