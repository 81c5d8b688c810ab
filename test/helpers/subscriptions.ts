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
  return client.iterate({ query: print(doc), variables }) as Iter<R>;
}

export function subscribeSse<R, V extends Record<string, unknown>>(
  client: ReturnType<typeof sseClient>,
  doc: TypedDocumentNode<R, V>,
  variables: V,
): Iter<R> {
  return client.iterate({ query: print(doc), variables }) as unknown as Iter<R>;
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
