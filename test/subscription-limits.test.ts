// Slow and greedy subscribers (issue #11): subscriptions are capped per connection and per key (per
// client address when open), across graphql-ws and SSE, each refusal naming its limit; a WebSocket
// or SSE connection that stops reading is cut off once its unsent output passes MAX_SOCKET_BUFFER_BYTES
// or stops draining, and everyone else keeps being served.
import { connect, type Socket } from 'node:net';

import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { guardOutbound } from '../src/server/outbound-guard';
import { gated, SendGate } from '../src/server/send-gate';
import type { TrajectoryInput } from './gql/graphql';
import { createRun, recordTrajectories, trajectory } from './helpers/builders';
import { useTestServer, type TestServer } from './helpers/server';
import { iterate, waitFor, wsClient } from './helpers/subscriptions';
import { viaSse } from './helpers/transports';

const SUBSCRIPTION =
  'subscription($runId: ID!) { trajectoriesRecorded(runId: $runId) { count trajectories { messages { content } } } }';

interface Message {
  id?: string;
  type: string;
  payload?: unknown;
}

/** A graphql-transport-ws client speaking the protocol by hand, so a test can pause its socket. */
async function rawWs(baseUrl: string) {
  const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
  const messages: Message[] = [];
  let closeCode: number | null = null;
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as Message));
  ws.on('close', (code) => (closeCode = code));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ type: 'connection_init' }));
  await waitFor(() => messages.some((m) => m.type === 'connection_ack'), 5000, 'connection_ack');
  return {
    ws,
    messages,
    closed: () => closeCode,
    subscribe: (id: string, runId: string) =>
      ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query: SUBSCRIPTION, variables: { runId } } })),
    complete: (id: string) => ws.send(JSON.stringify({ id, type: 'complete' })),
    /** The errors an operation ended with: an error message, or a result holding only errors. */
    errorOf: (id: string): { message: string; extensions: Record<string, unknown> }[] | undefined => {
      const m = messages.find((x) => x.id === id && (x.type === 'error' || x.type === 'next'));
      if (!m) return undefined;
      return (m.type === 'error' ? m.payload : (m.payload as { errors?: unknown }).errors) as
        { message: string; extensions: Record<string, unknown> }[] | undefined;
    },
    /** Stops reading: what the server sends piles up in the kernel, then in the server's buffers. */
    pause: () => (ws as unknown as { _socket: Socket })._socket.pause(),
  };
}

const listeners = (s: TestServer) => s.app.events.listenerCount('trajectoriesRecorded');

/** A batch of ten trajectories of about 50 KB each: each event a subscriber receives is about 500 KB. */
const bigBatch = (): TrajectoryInput[] =>
  Array.from({ length: 10 }, () => trajectory(0, 0.5, { messages: [{ role: 'user', content: 'x'.repeat(50_000) }] }));

describe('subscription caps', () => {
  const s = useTestServer({ limits: { maxSubscriptionsPerConnection: 3, maxSubscriptionsPerKey: 5 } });

  it('refuses subscriptions over the per-connection and per-key caps with named errors, and frees a slot when one ends', async () => {
    const run = await createRun(s);
    const a = await rawWs(s.url);
    for (const id of ['1', '2', '3']) a.subscribe(id, run.id);
    await waitFor(() => listeners(s) === 3, 5000, 'three subscriptions');
    a.subscribe('4', run.id);
    await waitFor(() => a.errorOf('4') !== undefined, 5000, 'the refusal of the fourth');
    expect(a.errorOf('4')![0].extensions).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      limit: 'maxSubscriptionsPerConnection',
      max: 3,
    });
    expect(a.errorOf('4')![0].message).toMatch(/MAX_SUBSCRIPTIONS_PER_CONNECTION/);
    expect(a.closed()).toBeNull();

    // Queries on a full connection still run: the cap is on subscriptions.
    a.ws.send(JSON.stringify({ id: 'q', type: 'subscribe', payload: { query: '{ runs(first: 1) { totalCount } }' } }));
    await waitFor(() => a.messages.some((m) => m.id === 'q' && m.type === 'next'), 5000, 'the query');

    const b = await rawWs(s.url);
    for (const id of ['1', '2']) b.subscribe(id, run.id);
    await waitFor(() => listeners(s) === 5, 5000, 'five subscriptions');
    b.subscribe('3', run.id);
    await waitFor(() => b.errorOf('3') !== undefined, 5000, 'the refusal over the key cap');
    expect(b.errorOf('3')![0].extensions).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      limit: 'maxSubscriptionsPerKey',
      max: 5,
    });
    expect(b.errorOf('3')![0].message).toMatch(/MAX_SUBSCRIPTIONS_PER_KEY/);

    // The per-key cap counts SSE too.
    const sse = await viaSse(s.url, SUBSCRIPTION, { runId: run.id });
    expect(sse.result?.errors?.[0]?.extensions).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      limit: 'maxSubscriptionsPerKey',
    });

    a.complete('1');
    await waitFor(() => listeners(s) === 4, 5000, 'the completed subscription to end');
    b.subscribe('4', run.id);
    await waitFor(() => listeners(s) === 5, 5000, 'a subscription in the freed slot');
    expect(b.errorOf('4')).toBeUndefined();

    a.ws.close();
    b.ws.close();
    await waitFor(() => listeners(s) === 0, 5000, 'every subscription to end with its socket');
  });
});

describe('connections that stop reading', () => {
  const s = useTestServer({ limits: { maxSocketBufferBytes: 256 * 1024, socketDrainTimeoutMs: 2000 } });

  it('cuts off a WebSocket that stops reading once its unsent output passes the bound, and keeps serving the others', async () => {
    const run = await createRun(s);
    const stalled = await rawWs(s.url);
    stalled.subscribe('s', run.id);
    const healthy = wsClient(s.url);
    const events = iterate<{ trajectoriesRecorded: { count: number } }>(healthy, {
      query: SUBSCRIPTION,
      variables: { runId: run.id },
    });
    await waitFor(() => listeners(s) === 2, 5000, 'both subscriptions');
    stalled.pause();
    const pausedAt = Date.now();

    // Publish until the stalled one is dropped (at most 40 × 500 KB); the healthy one reads every event.
    for (let i = 0; i < 40 && listeners(s) === 2; i++) {
      await recordTrajectories(s, run.id, bigBatch());
      const next = await events.next();
      expect(next.value?.data?.trajectoriesRecorded.count).toBe(10);
    }
    await waitFor(() => listeners(s) === 1, 10_000, 'the stalled WebSocket to be cut off');
    // graphql-ws's keepalive alone would drop it only after 24 s (a 12 s ping, then 12 s without pong).
    expect(Date.now() - pausedAt).toBeLessThan(12_000);

    await recordTrajectories(s, run.id, bigBatch());
    expect((await events.next()).value?.data?.trajectoriesRecorded.count).toBe(10);
    await events.return?.();
    await healthy.dispose();
    stalled.ws.terminate();
  });

  it('cuts off an SSE response that stops draining, and keeps serving the others', async () => {
    const run = await createRun(s);
    const { hostname, host, port } = new URL(s.url);
    const body = JSON.stringify({ query: SUBSCRIPTION, variables: { runId: run.id } });
    const stalled = connect(Number(port), hostname);
    await new Promise((resolve) => stalled.once('connect', resolve));
    stalled.write(
      `POST /graphql HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    stalled.pause();
    let stalledClosed = false;
    stalled.on('close', () => (stalledClosed = true));
    stalled.on('error', () => undefined);

    const healthy = wsClient(s.url);
    const events = iterate<{ trajectoriesRecorded: { count: number } }>(healthy, {
      query: SUBSCRIPTION,
      variables: { runId: run.id },
    });
    await waitFor(() => listeners(s) === 2, 5000, 'both subscriptions');

    for (let i = 0; i < 40 && listeners(s) === 2; i++) {
      await recordTrajectories(s, run.id, bigBatch());
      expect((await events.next()).value?.data?.trajectoriesRecorded.count).toBe(10);
    }
    // Without a bound the SSE response would wait for the socket to drain for ever.
    await waitFor(() => listeners(s) === 1, 10_000, 'the stalled SSE response to be cut off');
    await recordTrajectories(s, run.id, bigBatch());
    expect((await events.next()).value?.data?.trajectoriesRecorded.count).toBe(10);
    await events.return?.();
    await healthy.dispose();
    stalled.resume();
    await waitFor(() => stalledClosed, 5000, 'the stalled socket to close');
  });

  it('sends keepalive comments on an idle SSE response', async () => {
    const run = await createRun(s);
    const controller = new AbortController();
    const res = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: SUBSCRIPTION, variables: { runId: run.id } }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 15_000;
    // The first comment is sent at once; a second proves they repeat while nothing happens.
    while ((text.match(/^:/gm) ?? []).length < 2 && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
    expect((text.match(/^:/gm) ?? []).length).toBeGreaterThanOrEqual(2);
    expect(text).not.toMatch(/event: next/);
  });
});

// Issue #23 item 2: paused SSE subscribers. 1,000 of them on one run cost the writer 3.6–6.1 s a batch
// and +566 MB: yoga serialized the shared result once for each of them. Now a shared event is
// serialized once for every SSE subscriber (as for graphql-ws), and paused ones are cut off by the same
// bound as WebSockets, leaving nothing of theirs behind.
describe('many SSE subscribers', () => {
  const s = useTestServer({ limits: { maxSocketBufferBytes: 256 * 1024, socketDrainTimeoutMs: 2000 } });
  const SMALL =
    'subscription($runId: ID!) { trajectoriesRecorded(runId: $runId) { count trajectories { messages { content } } } }';
  /** An SSE subscriber on a raw socket: paused, it never reads what the server sends. */
  async function rawSse(runId: string) {
    const { hostname, host, port } = new URL(s.url);
    const body = JSON.stringify({ query: SMALL, variables: { runId } });
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    let text = '';
    let closed = false;
    socket.on('data', (d) => (text += d.toString()));
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    return { socket, text: () => text, closed: () => closed };
  }
  /** recordTrajectories with its body stringified before any counting starts. */
  const recordBody = (runId: string) =>
    JSON.stringify({
      query:
        'mutation($runId: ID!, $t: [TrajectoryInput!]!) { recordTrajectories(runId: $runId, trajectories: $t) { __typename } }',
      variables: { runId, t: bigBatch() },
    });
  const post = (body: string) =>
    fetch(s.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) =>
      r.json(),
    );

  it('serializes each shared event once for all its SSE subscribers, not once per subscriber', async () => {
    const run = await createRun(s);
    const subscribers = await Promise.all(Array.from({ length: 30 }, () => rawSse(run.id)));
    await waitFor(() => listeners(s) === 30, 10_000, '30 SSE subscriptions');
    const body = recordBody(run.id);
    // Every JSON.stringify in this process that makes an event-sized string (the event is about 500 KB).
    const stringify = JSON.stringify;
    let big = 0;
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      const out = stringify(...args);
      if (typeof out === 'string' && out.length > 400_000) big++;
      return out;
    }) as typeof JSON.stringify;
    try {
      expect(await post(body)).toEqual({ data: { recordTrajectories: { __typename: 'RecordTrajectoriesPayload' } } });
      await waitFor(
        () => subscribers.every((sub) => sub.text().includes('"count":10')),
        20_000,
        'the event on every subscriber',
      );
    } finally {
      JSON.stringify = stringify;
    }
    expect(big).toBe(1);
    for (const sub of subscribers) sub.socket.destroy();
    await waitFor(() => listeners(s) === 0, 10_000, 'the subscribers to leave');
  });

  it('cuts off paused SSE subscribers by the same bound as WebSockets, and keeps nothing of theirs', async () => {
    const run = await createRun(s);
    const paused = await Promise.all(Array.from({ length: 20 }, () => rawSse(run.id)));
    for (const sub of paused) sub.socket.pause();
    await waitFor(() => listeners(s) === 20, 10_000, '20 SSE subscriptions');
    // Publish until every one is cut (the kernel takes a few MB of each before the server holds any).
    for (let i = 0; i < 60 && listeners(s) > 0; i++) await post(recordBody(run.id));
    await waitFor(() => listeners(s) === 0, 20_000, 'every paused subscriber to be cut off');
    // Nothing of theirs is held: no member, no group, no subscription.
    expect(s.app.sharedSubscriptions.stats()).toMatchObject({ groups: 0, members: 0 });
    for (const sub of paused) sub.socket.resume();
    await waitFor(() => paused.every((sub) => sub.closed()), 20_000, 'their sockets to be closed');
  }, 120_000);
});

describe('guardOutbound', () => {
  const limits = { maxSocketBufferBytes: 1000, socketDrainTimeoutMs: 200 };

  it('cuts a connection whose pending output does not shrink for the drain timeout, once', async () => {
    const reasons: string[] = [];
    guardOutbound({ pending: () => 10, cut: (r) => reasons.push(r) }, limits);
    await waitFor(() => reasons.length > 0, 2000, 'the cut');
    await new Promise((r) => setTimeout(r, 150));
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/SOCKET_DRAIN_TIMEOUT_SECONDS/);
  });

  it('leaves alone a connection that drains, and cuts at once past the byte bound', async () => {
    let pending = 900;
    const reasons: string[] = [];
    const guard = guardOutbound(
      { pending: () => (pending = pending > 0 ? pending - 100 : 0), cut: (r) => reasons.push(r) },
      limits,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(reasons).toEqual([]);
    pending = 5000;
    guard.check();
    expect(reasons[0]).toMatch(/MAX_SOCKET_BUFFER_BYTES/);
    guard.stop();
  });
});

describe('SendGate', () => {
  async function* events(name: string) {
    for (let i = 0; ; i++) yield `${name}${i}`;
  }

  it('lets a connection hold at most its permits of unsent events, and hands them on as events are sent or subscriptions end', async () => {
    const gate = new SendGate(2);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gated(events(n), gate));
    expect((await a.next()).value).toBe('a0');
    expect((await b.next()).value).toBe('b0');
    let third: string | undefined;
    const pending = c.next().then((r) => (third = r.value));
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBeUndefined(); // a0 and b0 are not sent yet
    await b.return(undefined);
    await pending;
    expect(third).toBe('c0');
    // Pulling again means the previous event was sent: the permit passes on.
    expect((await a.next()).value).toBe('a1');
  });

  it('takes no permit for a subscription waiting for its next event', async () => {
    const gate = new SendGate(2);
    const silent = (): AsyncIterable<string> => ({
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<string>>(() => undefined) }),
    });
    const idle = [silent(), silent(), silent()].map((source) => gated(source, gate));
    for (const sub of idle) void sub.next();
    const busy = gated(events('e'), gate);
    for (let i = 0; i < 5; i++) expect((await busy.next()).value).toBe(`e${i}`);
  });
});
