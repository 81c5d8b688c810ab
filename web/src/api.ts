// How the dashboard talks to Atelier: queries and mutations as plain fetch POSTs to /graphql,
// subscriptions over graphql-ws. An API key, when one is needed, is entered once and kept in this
// browser tab's sessionStorage only (never localStorage, never a cookie): Authorization header over
// HTTP, connectionParams over the WebSocket.
import { createClient, type Client } from 'graphql-ws';

const KEY_STORAGE = 'atelier.apiKey';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Listener = () => void;
const authNeeded = new Set<(reason: string) => void>();
const keyChanged = new Set<Listener>();
const reconnected = new Set<Listener>();

export function apiKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

export function setApiKey(key: string | null): void {
  if (key) sessionStorage.setItem(KEY_STORAGE, key.trim());
  else sessionStorage.removeItem(KEY_STORAGE);
  // The socket authenticated with the old key: start over with the new one.
  void client?.dispose();
  client = null;
  for (const fn of keyChanged) fn();
}

/** Called with a reason when the server says a (better) key is needed. */
export function onAuthNeeded(fn: (reason: string) => void): () => void {
  authNeeded.add(fn);
  return () => authNeeded.delete(fn);
}

export function onKeyChanged(fn: Listener): () => void {
  keyChanged.add(fn);
  return () => keyChanged.delete(fn);
}

/** Called after the WebSocket comes back: pages reload what they may have missed. */
export function onReconnected(fn: Listener): () => void {
  reconnected.add(fn);
  return () => reconnected.delete(fn);
}

function raise(error: { message?: string; extensions?: { code?: string } }): never {
  const code = error.extensions?.code ?? null;
  const message = error.message ?? 'request failed';
  if (code === 'UNAUTHENTICATED' || code === 'FORBIDDEN') for (const fn of authNeeded) fn(message);
  throw new ApiError(message, code);
}

/** Runs a query or mutation; throws ApiError on any GraphQL error. */
export async function gql<T>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/graphql-response+json, application/json',
  };
  const key = apiKey();
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  let body: { data?: T; errors?: { message?: string; extensions?: { code?: string } }[] };
  try {
    body = await res.json();
  } catch {
    throw new ApiError(`Atelier answered HTTP ${res.status}`, null);
  }
  if (body.errors?.length) raise(body.errors[0]);
  return body.data as T;
}

let client: Client | null = null;
let connectedOnce = false;
let connected = false;
const connectedWaiters = new Set<Listener>();

function wsClient(): Client {
  if (client) return client;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  connectedOnce = false;
  connected = false;
  client = createClient({
    url,
    lazy: true,
    retryAttempts: 30,
    shouldRetry: () => true,
    connectionParams: () => {
      const key = apiKey();
      return key ? { authorization: `Bearer ${key}` } : {};
    },
    on: {
      connected: () => {
        if (connectedOnce) for (const fn of reconnected) fn();
        connectedOnce = true;
        connected = true;
        for (const fn of [...connectedWaiters]) fn();
        connectedWaiters.clear();
      },
      closed: () => {
        connected = false;
      },
    },
  });
  return client;
}

/** Subscribes; returns the function that unsubscribes. */
export function subscribe<T>(
  query: string,
  variables: Record<string, unknown>,
  onData: (data: T) => void,
  onError?: (error: ApiError) => void,
): () => void {
  let active = true;
  const dispose = wsClient().subscribe<T>(
    { query, variables },
    {
      next: (result) => {
        if (!active) return;
        if (result.errors?.length) {
          try {
            raise(result.errors[0] as { message?: string; extensions?: { code?: string } });
          } catch (err) {
            onError?.(err as ApiError);
          }
        } else if (result.data) onData(result.data as T);
      },
      error: (err) => {
        if (!active) return;
        const first = Array.isArray(err) ? err[0] : err;
        onError?.(new ApiError(first instanceof Error ? first.message : 'subscription failed'));
      },
      complete: () => {},
    },
  );
  return () => {
    active = false;
    dispose();
  };
}

/** How long after the socket is up a new subscription is surely registered on the server. */
const SETTLE_MS = 300;

/**
 * Calls fn once the subscriptions just opened are live on the server (the socket is up, plus a
 * moment for the server to register them). A page reloads then, so nothing that happened between
 * its first query and its subscriptions going live is missed. Returns a function that cancels it.
 */
export function whenLive(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => (timer = setTimeout(fn, SETTLE_MS));
  if (connected) arm();
  else connectedWaiters.add(arm);
  return () => {
    connectedWaiters.delete(arm);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** Calls fn at most once per `ms`, trailing: bursts of events become one refetch. */
export function debounce(fn: () => void, ms: number): (() => void) & { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      fn();
    }, ms);
  };
  call.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return call;
}
