// Subscription clients as users run them: the graphql-ws client over a real WebSocket and the
// graphql-sse client over HTTP, plus a helper that reads a bounded number of events with a deadline.
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type ExecutionResult } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export function wsClient(httpUrl: string, connectionParams?: Record<string, unknown>): Client {
  return createWsClient({
    url: httpUrl.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    connectionParams,
  });
}

export function sseClient(httpUrl: string) {
  return createSseClient({ url: `${httpUrl}/graphql`, retryAttempts: 0 });
}

export type Iter<R> = AsyncIterableIterator<ExecutionResult<R>> & { return?: () => Promise<unknown> };

export function subscribe<R, V extends Record<string, unknown>>(
  client: Client,
  doc: TypedDocumentNode<R, V>,
  variables: V,
): Iter<R> {
  return readSink<ExecutionResult<R>>((sink) => client.subscribe<R>({ query: print(doc), variables }, sink)) as Iter<R>;
}

export function subscribeSse<R, V extends Record<string, unknown>>(
  client: ReturnType<typeof sseClient>,
  doc: TypedDocumentNode<R, V>,
  variables: V,
): Iter<R> {
  return readSink<ExecutionResult<R>>((sink) =>
    client.subscribe<R>({ query: print(doc), variables }, sink),
  ) as unknown as Iter<R>;
}

/**
 * `client.iterate(payload)` for either client, read through the same queueing sink as subscribe():
 * the clients' own iterate loses an error or completion that arrives before the first next().
 */
export function iterate<R = Record<string, unknown>>(
  client: Client | ReturnType<typeof sseClient>,
  payload: { query: string; variables?: Record<string, unknown> },
): Iter<R> {
  return readSink<ExecutionResult<R>>((sink) =>
    (client as Client).subscribe<R>(payload, sink as Sink<ExecutionResult<R>>),
  ) as unknown as Iter<R>;
}

interface Sink<T> {
  next(value: T): void;
  error(error: unknown): void;
  complete(): void;
}

/**
 * An iterator over a client's sink that keeps every frame until it is read. graphql-ws's and
 * graphql-sse's `client.iterate` lose an error or completion that arrives before the first next()
 * (their generator has not started yet, so that next() then waits forever): a test that read a
 * subscription's EVENTS_INTERRUPTED after reading another one timed out whenever the error came first.
 */
function readSink<T>(start: (sink: Sink<T>) => () => void): AsyncIterableIterator<T> {
  const queue: T[] = [];
  const waiters: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void }[] = [];
  let end: { error?: unknown; failed: boolean } | null = null;
  const done = (): IteratorResult<T> => ({ value: undefined, done: true });
  const settle = (w: (typeof waiters)[number]): void => {
    if (queue.length) return w.resolve({ value: queue.shift()!, done: false });
    if (end?.failed) {
      const { error } = end;
      end = { failed: false };
      return w.reject(error);
    }
    w.resolve(done());
  };
  const wake = (): void => {
    while (waiters.length && (queue.length || end)) settle(waiters.shift()!);
  };
  const dispose = start({
    next: (value) => {
      if (end) return;
      queue.push(value);
      wake();
    },
    error: (error) => {
      if (end) return;
      end = { failed: true, error };
      wake();
    },
    complete: () => {
      if (end) return;
      end = { failed: false };
      wake();
    },
  });
  const stop = (): Promise<IteratorResult<T>> => {
    dispose();
    queue.length = 0;
    end = { failed: false };
    wake();
    return Promise.resolve(done());
  };
  const iterator: AsyncIterableIterator<T> = {
    next: () =>
      new Promise<IteratorResult<T>>((resolve, reject) => {
        const w = { resolve, reject };
        if (waiters.length || !(queue.length || end)) waiters.push(w);
        else settle(w);
      }),
    return: stop,
    throw: stop,
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** Reads exactly n events (failing on GraphQL errors), or throws after timeoutMs. */
export async function take<R>(iter: Iter<R>, n: number, timeoutMs = 10_000): Promise<R[]> {
  const out: R[] = [];
  const deadline = Date.now() + timeoutMs;
  while (out.length < n) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`timed out after ${out.length} of ${n} events`);
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([
      iter.next(),
      new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`timed out after ${out.length} of ${n} events`)), left)),
      ),
    ]).finally(() => clearTimeout(timer));
    if (r.done) throw new Error(`subscription ended after ${out.length} of ${n} events`);
    if (r.value.errors?.length) throw new Error(`subscription error: ${JSON.stringify(r.value.errors)}`);
    out.push(r.value.data as R);
  }
  return out;
}

/** Resolves true if no event arrives within ms (the subscription stays quiet). */
export async function quiet<R>(iter: Iter<R>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const r = await Promise.race([
    iter.next().then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ms))),
  ]);
  clearTimeout(timer);
  return r;
}

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Reads every event until the subscription completes (failing on GraphQL errors), or throws after timeoutMs. */
export async function drain<R>(iter: Iter<R>, timeoutMs = 10_000): Promise<R[]> {
  const out: R[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([
      iter.next(),
      new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new Error(`the subscription did not complete within ${timeoutMs} ms (${out.length} events)`)),
            Math.max(0, left),
          )),
      ),
    ]).finally(() => clearTimeout(timer));
    if (r.done) return out;
    if (r.value.errors?.length) throw new Error(`subscription error: ${JSON.stringify(r.value.errors)}`);
    out.push(r.value.data as R);
  }
}
