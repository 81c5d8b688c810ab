// How the agentic kinds (http.ts, mcp.ts) map an environment's faults, in one place: a 5xx, a timeout,
// an unreachable server, an answer that is not the protocol's JSON, or an episode that never says done
// becomes a typed EnvironmentError with its `fault`; the transient ones are asked again with the one
// backoff rule of every outside call (retryDelayMs: full jitter, Retry-After honoured); an episode whose
// environment still fails is played once more from the start, then stored failed with its cause.
import { AbortedError, pause, ProviderError, retryDelayMs, type RetryPolicy } from '../providers/http';
import type { ArtTrajectoryJson, EpisodeResult } from './types';

/** What went wrong with an environment. */
export type EnvironmentFault =
  | 'server_error' // it answered 5xx (or 408 / 429)
  | 'timeout' // it did not answer within the request timeout
  | 'unreachable' // the connection failed
  | 'malformed' // the answer is not the protocol's JSON
  | 'never_done' // the episode did not end within maxTurns
  | 'protocol'; // the answer is JSON but breaks the protocol (a field missing or wrong)

/** Faults worth asking again: the same request may well succeed. */
const TRANSIENT: ReadonlySet<EnvironmentFault> = new Set(['server_error', 'timeout', 'unreachable', 'malformed']);

/** Plays of one episode before it is stored failed. */
export const EPISODE_ATTEMPTS = 2;

/** The environment answered wrongly, not at all, or never said done: the episode's typed cause. */
export class EnvironmentError extends Error {
  constructor(
    message: string,
    readonly fault: EnvironmentFault = 'protocol',
    /** The environment's Retry-After, in milliseconds, when it sent one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'EnvironmentError';
  }

  get transient(): boolean {
    return TRANSIENT.has(this.fault);
  }
}

/** A failed call to an environment as a typed fault (a ProviderError from callWithRetry, the MCP SDK's errors, a JSON parse). */
export function environmentFault(err: unknown, what: string): EnvironmentError {
  if (err instanceof EnvironmentError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const text = message.startsWith(what) ? message : `${what}: ${message}`;
  if (err instanceof ProviderError) {
    if (err.status !== null && (err.status >= 500 || err.status === 408 || err.status === 429))
      return new EnvironmentError(text, 'server_error', err.retryAfterMs);
    if (err.status !== null) return new EnvironmentError(text, 'protocol');
    return new EnvironmentError(text, /no answer within/.test(message) ? 'timeout' : 'unreachable');
  }
  if (err instanceof SyntaxError) return new EnvironmentError(text, 'malformed');
  // The MCP SDK: StreamableHTTPError ("Error POSTing to endpoint (HTTP 503)", code = status), McpError
  // RequestTimeout (-32001), fetch failures, and answers that do not parse as JSON-RPC.
  const code = (err as { code?: unknown })?.code;
  const status =
    typeof code === 'number' && code >= 100 && code < 600 ? code : Number(/HTTP (\d{3})/.exec(message)?.[1]);
  if (status >= 500 || status === 408 || status === 429) return new EnvironmentError(text, 'server_error');
  if (code === -32001 || /timed? ?out/i.test(message)) return new EnvironmentError(text, 'timeout');
  if (/JSON|Unexpected token|parse/i.test(message)) return new EnvironmentError(text, 'malformed');
  if (/fetch failed|ECONNREFUSED|ECONNRESET|socket|connect/i.test(message))
    return new EnvironmentError(text, 'unreachable');
  return new EnvironmentError(text, 'protocol');
}

/**
 * One request to an environment with the shared retry rule: a transient fault is asked again with backoff
 * (retry.attempts in all), a permanent one thrown at once; either way an EnvironmentError. The signal ends it.
 */
export async function withRetries<T>(
  what: string,
  call: () => Promise<T>,
  opts: { retry: RetryPolicy; signal: AbortSignal },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (err instanceof AbortedError || opts.signal.aborted) throw new AbortedError(opts.signal.reason ?? err);
      const fault = environmentFault(err, what);
      if (!fault.transient) throw fault;
      if (attempt >= opts.retry.attempts)
        throw new EnvironmentError(`${fault.message} (${attempt} attempts)`, fault.fault, fault.retryAfterMs);
      await pause(retryDelayMs(opts.retry, attempt - 1, fault.retryAfterMs), opts.signal);
    }
  }
}

/** One play of an episode, as the kinds report it: `retryable` failures are played again from the start. */
export type Attempt = EpisodeResult & { retryable?: boolean };

/**
 * Plays an episode up to EPISODE_ATTEMPTS times while it fails with a retryable cause (an environment
 * fault), with backoff between plays; the last failure is returned with how often it was played.
 */
export async function playWithRetries(
  playOnce: () => Promise<Attempt>,
  opts: { retry: RetryPolicy; signal: AbortSignal },
): Promise<EpisodeResult> {
  let last: Attempt | undefined;
  for (let attempt = 1; attempt <= EPISODE_ATTEMPTS; attempt++) {
    last = await playOnce();
    if (!last.error || !last.retryable) break;
    if (attempt < EPISODE_ATTEMPTS) await pause(retryDelayMs(opts.retry, attempt, null), opts.signal);
    else last = { ...last, error: `${last.error} (the episode was played ${EPISODE_ATTEMPTS} times)` };
  }
  const { retryable: _retryable, ...result } = last!;
  return result;
}

/**
 * What an episode that threw comes to: a cancel (or a lost lease, a stall) is thrown on; an environment
 * fault is a retryable failure with its cause; the model's inference server failing (its own retries
 * spent) is a failure as a builtin rollout has; anything else is a bug and is thrown.
 */
export function episodeFailure(
  err: unknown,
  trajectory: ArtTrajectoryJson,
  turns: number,
  signal: AbortSignal,
  redact: (text: string) => string,
): Attempt {
  if (err instanceof AbortedError || signal.aborted) throw new AbortedError(signal.reason ?? err);
  if (err instanceof EnvironmentError)
    return { trajectory, reward: null, turns, error: `EnvironmentError: ${redact(err.message)}`, retryable: true };
  if (err instanceof ProviderError) return { trajectory, reward: null, turns, error: redact(err.message) };
  throw err;
}

/** An episode that did not end within maxTurns: a fault of its own, played again once. */
export function neverDone(trajectory: ArtTrajectoryJson, turns: number, why: string): Attempt {
  return { trajectory, reward: null, turns, error: `EnvironmentError: ${why}`, retryable: true };
}
