// One operation through each transport a client can use, reporting what came back: over HTTP
// (fetch), over SSE (a raw text/event-stream request, so the status and the error body are both
// visible), and over graphql-ws (the real graphql-ws client). Each returns the first result.
import type { ExecutionResult } from 'graphql';

import { sseClient, wsClient } from './subscriptions';

export interface Outcome {
  status?: number;
  headers?: Headers;
  result?: ExecutionResult;
  /** graphql-ws: the socket closed instead of answering. */
  closeCode?: number;
  closeReason?: string;
}

export type Transport = 'http' | 'sse' | 'ws';
export const TRANSPORTS: Transport[] = ['http', 'sse', 'ws'];

export async function viaHttp(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Outcome> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, result: text ? JSON.parse(text) : undefined };
}

export async function viaSse(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  timeoutMs = 5000,
): Promise<Outcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ query, variables }),
      signal: controller.signal,
    });
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      const text = await res.text();
      return { status: res.status, headers: res.headers, result: text ? JSON.parse(text) : undefined };
    }
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { status: res.status, headers: res.headers };
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === 'next' && data) {
          controller.abort();
          return { status: res.status, headers: res.headers, result: JSON.parse(data) };
        }
        if (event === 'complete') return { status: res.status, headers: res.headers };
      }
    }
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw new Error(`SSE: no event within ${timeoutMs} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

export function viaWs(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  connectionParams?: Record<string, unknown>,
  timeoutMs = 5000,
): Promise<Outcome> {
  const client = wsClient(baseUrl, connectionParams);
  return new Promise<Outcome>((resolve, reject) => {
    let unsubscribe = () => {};
    let settled = false;
    const done = (outcome: Outcome | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unsubscribe();
      void client.dispose();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => done(new Error(`graphql-ws: no answer within ${timeoutMs} ms`)), timeoutMs);
    unsubscribe = client.subscribe(
      { query, variables },
      {
        next: (result) => done({ result: result as ExecutionResult }),
        error: (err) => {
          if (Array.isArray(err)) done({ result: { errors: err } });
          else if (err && typeof err === 'object' && 'code' in err)
            done({ closeCode: (err as CloseEvent).code, closeReason: (err as CloseEvent).reason });
          else done(err instanceof Error ? err : new Error(String(err)));
        },
        complete: () => done({}),
      },
    );
  });
}

/** The same operation through the given transport; credentials as an API key (or none). */
export function via(
  transport: Transport,
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  key?: string,
): Promise<Outcome> {
  const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
  if (transport === 'http') return viaHttp(baseUrl, query, variables, headers);
  if (transport === 'sse') return viaSse(baseUrl, query, variables, headers);
  return viaWs(baseUrl, query, variables, key === undefined ? undefined : { Authorization: `Bearer ${key}` });
}

/** The first error's extensions.code, or null when the operation succeeded. */
export function errorCode(outcome: Outcome): string | null {
  const errors = outcome.result?.errors;
  if (!errors?.length) return null;
  return String((errors[0].extensions as { code?: unknown } | undefined)?.code ?? 'NO_CODE');
}

export { sseClient };
