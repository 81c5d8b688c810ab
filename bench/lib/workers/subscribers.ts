// Worker: a crowd of graphql-ws clients (the library's own client over `ws`), in a process apart
// from the server. It also sends the triggering request, so the reply and every event are timed
// on one clock: time from the reply's arrival to the last subscriber's event.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

import { now } from '../stats';
import { serveWorker } from '../worker';

interface Group {
  clients: Client[];
  /** Arrival times of events since the last trigger; errors seen. */
  arrivals: number[];
  errors: string[];
  sample: unknown;
  onArrival: (() => void) | null;
}

const groups = new Map<string, Group>();

function group(name: string): Group {
  let g = groups.get(name);
  if (!g) groups.set(name, (g = { clients: [], arrivals: [], errors: [], sample: null, onArrival: null }));
  return g;
}

async function openClient(g: Group, url: string, query: string, variables: Record<string, unknown>): Promise<void> {
  let client!: Client;
  await new Promise<void>((resolve, reject) => {
    client = createClient({
      url: url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      lazy: false,
      retryAttempts: 0,
      keepAlive: 0,
      on: {
        connected: () => resolve(),
        error: (e) =>
          reject(
            e instanceof Error
              ? e
              : new Error(`connection failed: ${String((e as { message?: string })?.message ?? e)}`),
          ),
      },
    });
  });
  g.clients.push(client);
  client.subscribe(
    { query, variables },
    {
      next: (value) => {
        if (value.errors?.length) g.errors.push(JSON.stringify(value.errors));
        g.sample ??= value.data;
        g.arrivals.push(now());
        g.onArrival?.();
      },
      error: (e) => g.errors.push(e instanceof Error ? e.message : JSON.stringify(e)),
      complete: () => {},
    },
  );
}

serveWorker({
  /** Opens `count` clients, `parallel` connection handshakes at a time, each with one subscription. */
  async connect(p: {
    group: string;
    url: string;
    count: number;
    query: string;
    variables?: Record<string, unknown>;
    parallel?: number;
  }) {
    const g = group(p.group);
    const started = now();
    const parallel = p.parallel ?? 100;
    for (let done = 0; done < p.count; done += parallel) {
      const n = Math.min(parallel, p.count - done);
      await Promise.all(Array.from({ length: n }, () => openClient(g, p.url, p.query, p.variables ?? {})));
    }
    return { clients: g.clients.length, ms: now() - started };
  },

  /**
   * Sends the trigger (an HTTP POST) and waits for one event on each client of the group. Times are
   * relative to the reply's arrival: negative when an event came before the reply.
   */
  async trigger(p: { group: string; url: string; body: string; timeoutMs?: number }) {
    const g = group(p.group);
    const expected = g.clients.length;
    g.arrivals = [];
    g.errors = [];
    g.sample = null;
    const allIn = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), p.timeoutMs ?? 30_000);
      g.onArrival = () => {
        if (g.arrivals.length >= expected) {
          clearTimeout(timer);
          resolve(true);
        }
      };
    });
    const sent = now();
    const res = await fetch(p.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: p.body });
    const reply = await res.text();
    const replied = now();
    const complete = await allIn;
    g.onArrival = null;
    if (!res.ok) throw new Error(`trigger answered ${res.status}: ${reply.slice(0, 300)}`);
    if (!complete)
      throw new Error(`only ${g.arrivals.length} of ${expected} subscribers got the event within the timeout`);
    if (g.errors.length) throw new Error(`${g.errors.length} subscribers got errors, e.g. ${g.errors[0]}`);
    const sorted = [...g.arrivals].sort((a, b) => a - b);
    return {
      reply: JSON.parse(reply),
      replyMs: replied - sent,
      firstAfterReplyMs: sorted[0] - replied,
      lastAfterReplyMs: sorted[sorted.length - 1] - replied,
      received: sorted.length,
      sample: g.sample,
    };
  },

  async disconnect(p: { group: string }) {
    const g = group(p.group);
    await Promise.all(g.clients.map((c) => c.dispose()));
    groups.delete(p.group);
  },

  async close() {
    for (const name of [...groups.keys()]) await Promise.all(group(name).clients.map((c) => c.dispose()));
  },
});
