// graphql-sse's "single connection mode" on /graphql, by @graphql-yoga/plugin-graphql-sse: PUT
// reserves an event stream and answers its token; GET or POST with the token (the
// x-graphql-event-stream-token header or ?token=) and `Accept: text/event-stream` opens it; each
// operation is a POST carrying the token, its results multiplexed on the stream; DELETE
// ?operationId= stops one. Requests without a token are left to yoga (its own SSE is the "distinct
// connections mode"). Around the library, so this mode keeps the other transports' guarantees:
// - every request is authenticated (authenticate.ts): a reservation needs a valid key when keys are
//   required, and each operation POST is authenticated by its own Authorization header again
//   inside yoga, where scopes, caps per key and live sessions apply as over HTTP;
// - a token is 256 random bits (the library's default is a Math.random UUID) and belongs to the
//   key (or, when open, the address) that reserved it: others get 404, as for an unknown token;
// - a reservation is bounded until it is opened (the library queues every result "to be flushed on
//   connect", outside every bound): at most MAX_SSE_RESERVATIONS_PER_KEY streams per key (per address
//   when open), MAX_SSE_RESERVATION_OPERATIONS operations before it is opened, MAX_SOCKET_BUFFER_BYTES
//   of results queued for it (past that it is dropped, as a socket that does not read is cut), and it
//   is dropped, with everything queued and every operation running for it, when it is not opened
//   within SSE_RESERVATION_TTL_SECONDS;
// - the stream is under the outbound bound (outbound-guard.ts), counting what the library has
//   already resolved and queued, and revoking the reserving key closes it;
// - operation bodies are bounded by MAX_BODY_BYTES, as yoga bounds its own.
import { randomBytes } from 'node:crypto';
import { ServerResponse } from 'node:http';

import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { GraphQLError, type ExecutionResult, type GraphQLFormattedError } from 'graphql';
import { TOKEN_HEADER_KEY, TOKEN_QUERY_KEY } from 'graphql-sse';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

import type { Authenticate } from '../auth/authenticate';
import type { LiveSessions } from '../auth/live-sessions';
import { unauthenticatedError } from '../auth/use-scopes';
import { rateLimitSubject, type Viewer } from '../auth/viewer';
import type { LimitsConfig } from '../config';
import type { Logger } from '../logger';
import { limitError, type LimitName } from '../security/limit-error';
import { publicError } from '../security/public-errors';
import type { Redactor } from '../security/redact';
import { onEnd } from '../security/subscription-quota';
import { guardOutbound, type OutboundGuard } from './outbound-guard';

export interface SingleConnectionDeps {
  endpoint: string;
  authenticate: Authenticate;
  sessions: LiveSessions;
  limits: Pick<
    LimitsConfig,
    | 'maxBodyBytes'
    | 'maxSocketBufferBytes'
    | 'socketDrainTimeoutMs'
    | 'maxSseReservationsPerKey'
    | 'maxSseReservationOperations'
    | 'sseReservationTtlMs'
  >;
  /** The reserved streams, shared with whoever reports on them (App.sseStreams). */
  streams?: SseStreams;
  redactor: Redactor;
  logger: Logger;
}

type RequestPayload = Parameters<NonNullable<Plugin['onRequest']>>[0];

interface Reservation {
  subject: string;
  timer: NodeJS.Timeout;
  /** The PUT's request, to hand the library the request that makes it forget the stream. */
  payload: RequestPayload;
  /** Ends the open stream (revocation, shutdown); null until opened. */
  close: (() => void) | null;
  /** Operations accepted before the stream was opened. */
  operations: number;
  /** Bytes of results the library queued for the stream before it was opened (afterwards the guard counts them). */
  queuedBytes: number;
  /** The subscriptions running for the stream: ended with it, whichever way it ends. */
  running: Set<AsyncIterator<unknown>>;
}

export interface SseStreamStats {
  /** Streams reserved and not yet opened. */
  reserved: number;
  /** Streams open. */
  open: number;
  /** Operations accepted by the reserved streams before they were opened. */
  operations: number;
  /** Bytes of results queued for the reserved streams. */
  queuedBytes: number;
  /** Subscriptions running for any stream of this mode. */
  subscriptions: number;
}

/** The streams of single connection mode, by token: the server's own accounting of what they hold. */
export class SseStreams {
  readonly byToken = new Map<string, Reservation>();

  stats(): SseStreamStats {
    const stats: SseStreamStats = { reserved: 0, open: 0, operations: 0, queuedBytes: 0, subscriptions: 0 };
    for (const r of this.byToken.values()) {
      if (r.close) stats.open++;
      else {
        stats.reserved++;
        stats.operations += r.operations;
        stats.queuedBytes += r.queuedBytes;
      }
      stats.subscriptions += r.running.size;
    }
    return stats;
  }

  countOf(subject: string): number {
    let n = 0;
    for (const r of this.byToken.values()) if (r.subject === subject) n++;
    return n;
  }
}

function tokenOf(request: Request, url: URL): string | null {
  return request.headers.get(TOKEN_HEADER_KEY) ?? url.searchParams.get(TOKEN_QUERY_KEY);
}

/** Requests of this mode: the reservation, and whatever names a reserved stream. */
function isSingleConnection(request: Request, url: URL): boolean {
  return request.method === 'PUT' || request.method === 'DELETE' || tokenOf(request, url) !== null;
}

function json(status: number, error: GraphQLError, headers: Record<string, string> = {}): Response {
  return new Response(
    JSON.stringify({
      errors: [
        {
          message: error.message,
          extensions: {
            code: error.extensions.code,
            ...(error.extensions.limit ? { limit: error.extensions.limit, max: error.extensions.max } : {}),
          },
        },
      ],
    }),
    {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    },
  );
}

/** A refusal by a limit of this mode: 429, the limit's error as the body. */
function overLimit(limit: LimitName, message: string, max: number): Response {
  return json(429, limitError(limit, message, { max }));
}

function refusal(viewer: Extract<Viewer, { kind: 'anonymous' }>): Response {
  return json(401, unauthenticatedError(viewer.problem), { 'www-authenticate': 'Bearer realm="atelier"' });
}

const notFound = () => json(404, new GraphQLError('Stream not found', { extensions: { code: 'NOT_FOUND' } }));

function addressOf(serverContext: unknown): string | undefined {
  const req =
    typeof serverContext === 'object' && serverContext !== null && 'req' in serverContext ? serverContext.req : null;
  const socket = typeof req === 'object' && req !== null && 'socket' in req ? req.socket : null;
  return typeof socket === 'object' &&
    socket !== null &&
    'remoteAddress' in socket &&
    typeof socket.remoteAddress === 'string'
    ? socket.remoteAddress
    : undefined;
}

function responseOf(serverContext: unknown): ServerResponse | null {
  const res =
    typeof serverContext === 'object' && serverContext !== null && 'res' in serverContext ? serverContext.res : null;
  return res instanceof ServerResponse ? res : null;
}

/** The request with its body read under the limit (the library reads bodies itself, past yoga's limit). */
async function bounded(request: Request, maxBytes: number): Promise<Request | Response> {
  const tooLarge = () =>
    json(413, limitError('maxBodyBytes', `the request body exceeds the limit of ${maxBytes} bytes`, { max: maxBytes }));
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) return tooLarge();
  if (!request.body) return request;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel();
      return tooLarge();
    }
    chunks.push(value);
  }
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: Buffer.concat(chunks),
    signal: request.signal,
  });
}

/** JSON's size of a result, about what the library queues for it. */
function sizeOf(result: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(result) ?? '');
  } catch {
    return 0;
  }
}

export function useSseSingleConnection({
  endpoint,
  authenticate,
  sessions,
  limits,
  streams = new SseStreams(),
  redactor,
  logger,
}: SingleConnectionDeps): Plugin {
  const reservations = streams.byToken;
  const library = useGraphQLSSE({
    endpoint,
    // Called for every request of the mode: a reservation gets a fresh, unguessable token.
    authenticate: (req) =>
      req.method === 'PUT'
        ? randomBytes(32).toString('base64url')
        : (req.headers.get(TOKEN_HEADER_KEY) ?? new URL(req.url).searchParams.get(TOKEN_QUERY_KEY) ?? ''),
    // Each result, before the library queues it: until the stream is opened, counted against the bound.
    onNext: (_ctx, req, result) => {
      const token = req.headers.get(TOKEN_HEADER_KEY) ?? new URL(req.url).searchParams.get(TOKEN_QUERY_KEY);
      const reservation = token ? reservations.get(token) : undefined;
      if (!token || !reservation || reservation.close) return;
      reservation.queuedBytes += sizeOf(result);
      if (reservation.queuedBytes <= limits.maxSocketBufferBytes) return;
      const reason = `${reservation.queuedBytes} bytes queued for it before it was opened exceed MAX_SOCKET_BUFFER_BYTES (${limits.maxSocketBufferBytes})`;
      logger.warn(
        `dropped a reserved SSE stream (single connection mode) from ${addressOf(reservation.payload.serverContext) ?? 'an unknown address'}: ${reason}`,
      );
      void drop(token).catch(() => undefined);
      // Not queued: the stream is gone with everything it held.
      return {
        data: null,
        errors: [
          limitError(
            'maxSocketBufferBytes',
            `the reserved stream was dropped: ${reason}; open it before sending operations`,
            {
              max: limits.maxSocketBufferBytes,
            },
          ),
        ],
      };
    },
  });

  /** Hands a request to the library and returns its answer. */
  const forward = (payload: RequestPayload, request: Request): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      Promise.resolve(library.onRequest!({ ...payload, request, endResponse: resolve })).catch((err: unknown) => {
        // The library parses outside any try: a document refused while parsing (nesting, tokens, syntax) throws.
        if (err instanceof GraphQLError) resolve(json(400, err));
        else reject(err);
      });
    });

  /** Ends the subscriptions running for a stream, whatever the library still knows of them. */
  const stopRunning = (reservation: Reservation) => {
    for (const iterator of reservation.running) void iterator.return?.(undefined)?.catch(() => undefined);
    reservation.running.clear();
  };

  /**
   * Drops a reservation never opened, with everything it holds: opening it with an aborted request
   * makes the library end its operations and forget its queue.
   */
  const drop = async (token: string) => {
    const reservation = reservations.get(token);
    if (!reservation || reservation.close) return;
    reservations.delete(token);
    clearTimeout(reservation.timer);
    stopRunning(reservation);
    const { payload } = reservation;
    await forward(
      payload,
      new Request(payload.request.url, {
        headers: { accept: 'text/event-stream', [TOKEN_HEADER_KEY]: token },
        signal: AbortSignal.abort(),
      }),
    );
  };

  /** The stream's body, read as fast as the library produces it so its queue is counted by the outbound bound. */
  const guarded = (
    response: Response,
    ending: AbortController,
    res: ServerResponse | null,
    token: string,
    viewer: Viewer,
  ): Response => {
    const source = response.body!.getReader();
    // The library ends a stream (and every operation on it) when its request is aborted; cancelling
    // its body instead waits for the next message, which may never come.
    const end = () => ending.abort();
    const queue: Uint8Array[] = [];
    let queued = 0;
    let ended = false;
    let wake: (() => void) | null = null;
    const notify = () => {
      wake?.();
      wake = null;
    };
    let forget = () => {};
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      guard.stop();
      forget();
      const reservation = reservations.get(token);
      if (reservation) {
        clearTimeout(reservation.timer);
        stopRunning(reservation);
      }
      reservations.delete(token);
    };
    // Queued here, then in the socket: what this client has not taken yet.
    const guard: OutboundGuard = guardOutbound(
      {
        pending: () => queued + (res?.writableLength ?? 0),
        cut: (reason) => {
          logger.warn(
            `closed an SSE stream (single connection mode) from ${res?.req?.socket?.remoteAddress ?? 'an unknown address'}: ${reason}`,
          );
          finish();
          res?.destroy();
          end();
        },
      },
      limits,
    );
    // Ends the stream once what the library already produced (each revoked subscription's last error) is sent.
    const close = () => {
      finish();
      end();
    };
    const reservation = reservations.get(token);
    if (reservation) reservation.close = close;
    if (viewer.kind === 'key') forget = sessions.trackSocket(viewer.key.keyId, viewer.key.name, { close });
    void (async () => {
      for (;;) {
        const { value, done: over } = await source.read();
        if (over) break;
        queue.push(value);
        queued += value.byteLength;
        notify();
        guard.check();
      }
    })()
      .catch(() => undefined) // the library failed the stream, or it was cancelled: over either way
      .finally(() => {
        ended = true;
        finish();
        notify();
      });
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        while (queue.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
        const chunk = queue.shift();
        if (chunk) {
          queued -= chunk.byteLength;
          controller.enqueue(chunk);
        } else controller.close();
      },
      cancel() {
        finish();
        end();
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };

  return {
    onYogaInit({ yoga }) {
      // The library runs each operation through yoga.getEnveloped(); its results are adapted here (see asLibraryResult).
      const adapted = Object.assign(Object.create(yoga) as typeof yoga, {
        getEnveloped: (context: Parameters<typeof yoga.getEnveloped>[0]) => {
          const enveloped = yoga.getEnveloped(context);
          return {
            ...enveloped,
            execute: async (args: Parameters<typeof enveloped.execute>[0]) =>
              asLibraryResult(await enveloped.execute(args), redactor),
            subscribe: async (args: Parameters<typeof enveloped.subscribe>[0]) => {
              const result = asLibraryResult(await enveloped.subscribe(args), redactor);
              if (!isAsyncIterable(result)) return result;
              // Tracked under its stream, so it ends with it; a stream already gone gets it ended at once.
              const request = (context as { request?: Request }).request;
              const token = request ? tokenOf(request, new URL(request.url)) : null;
              if (!token) return result;
              const iterator = result as AsyncIterableIterator<unknown>;
              const reservation = reservations.get(token);
              if (!reservation) {
                await iterator.return?.(undefined);
                return iterator;
              }
              reservation.running.add(iterator);
              return onEnd(iterator, () => reservation.running.delete(iterator));
            },
          };
        },
      });
      library.onYogaInit?.({ yoga: adapted });
    },
    async onRequest(payload) {
      const { request, url, serverContext, endResponse } = payload;
      if (url.pathname !== endpoint || !isSingleConnection(request, url)) return;
      const viewer = await authenticate({
        authorization: request.headers.get('authorization'),
        address: addressOf(serverContext),
      });
      if (viewer.kind === 'anonymous') return endResponse(refusal(viewer));
      const subject = rateLimitSubject(viewer);

      if (request.method === 'PUT') {
        const max = limits.maxSseReservationsPerKey;
        if (streams.countOf(subject) >= max)
          return endResponse(
            overLimit(
              'maxSseReservationsPerKey',
              `this key already holds ${max} streams of single connection mode; use one, or close one`,
              max,
            ),
          );
        const response = await forward(payload, request);
        if (response.status !== 201) return endResponse(response);
        const token = await response.text();
        const timer = setTimeout(() => void drop(token).catch(() => undefined), limits.sseReservationTtlMs);
        timer.unref();
        reservations.set(token, {
          subject,
          timer,
          payload,
          close: null,
          operations: 0,
          queuedBytes: 0,
          running: new Set(),
        });
        return endResponse(new Response(token, { status: 201, headers: response.headers }));
      }

      const token = tokenOf(request, url) ?? '';
      const reservation = reservations.get(token);
      if (!reservation || reservation.subject !== subject) return endResponse(notFound());

      if ((request.headers.get('accept') ?? '') === 'text/event-stream') {
        const ending = new AbortController();
        // No body: for a reserved stream the library reads none.
        const opening = new Request(request.url, {
          method: request.method,
          headers: request.headers,
          signal: AbortSignal.any([request.signal, ending.signal]),
        });
        const response = await forward(payload, opening);
        if (response.status !== 200 || !response.body) return endResponse(response);
        clearTimeout(reservation.timer);
        // What was queued is now read by the guarded stream, and counted there.
        reservation.queuedBytes = 0;
        return endResponse(guarded(response, ending, responseOf(serverContext), token, viewer));
      }
      if (request.method === 'POST' && !reservation.close) {
        const max = limits.maxSseReservationOperations;
        if (reservation.operations >= max)
          return endResponse(
            overLimit(
              'maxSseReservationOperations',
              `the stream was sent ${max} operations before it was opened; open it first`,
              max,
            ),
          );
        reservation.operations++;
      }
      const input = await bounded(request, limits.maxBodyBytes);
      if (input instanceof Response) return endResponse(input);
      return endResponse(await forward(payload, input));
    },
  };
}

type Result = ExecutionResult | { data?: unknown; errors?: readonly (GraphQLError | GraphQLFormattedError)[] };

/**
 * What the library can send: errors made public as over graphql-ws (redacted, no internal
 * extensions); a result always with `data` (the library takes one without it for execution
 * arguments and answers 400, e.g. for a refusal by scope or cap); and for a stream, an error its
 * events throw (a revoked key, an overflow) as that operation's last result, where the library
 * would end the whole stream, every other operation's included.
 */
function asLibraryResult(result: unknown, redactor: Redactor): unknown {
  const visible = (r: Result): Result => ({
    ...r,
    data: r.data ?? null,
    ...(r.errors ? { errors: r.errors.map((e) => publicError(e, redactor)) } : {}),
  });
  if (!isAsyncIterable(result)) return visible(result as Result);
  const inner = (result as AsyncIterable<Result>)[Symbol.asyncIterator]();
  let failed = false;
  const iterator: AsyncIterableIterator<Result> = {
    async next() {
      if (failed) return { value: undefined, done: true };
      try {
        const r = await inner.next();
        return r.done ? r : { value: visible(r.value), done: false };
      } catch (err) {
        failed = true;
        const error = err instanceof GraphQLError ? err : new GraphQLError('Unexpected error.');
        return { value: visible({ errors: [error] }), done: false };
      }
    },
    async return(value?: unknown) {
      failed = true;
      await inner.return?.(value);
      return { value: undefined, done: true };
    },
    // The library stops only what looks like a generator (next, return and throw).
    async throw(err?: unknown) {
      failed = true;
      await inner.return?.(undefined);
      throw err;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
