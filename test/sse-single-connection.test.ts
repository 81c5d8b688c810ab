// Issue #12 item 5: graphql-sse's single connection mode on /graphql (PUT reserves a stream, GET or
// POST with the token opens it, each operation is a POST carrying the token), with every guarantee
// of the other transports: each operation authenticated by its own Authorization header, scopes,
// subscription caps per key, revocation, the outbound bound on a stream nobody reads. Through the
// real graphql-sse client (singleConnection: true) and raw HTTP where the client cannot show it.
import { connect } from 'node:net';

import { print, type ExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-sse';
import { describe, expect, it } from 'vitest';

import { trajectory } from './helpers/builders';
import { expectResult } from './helpers/results';
import { bearer, useTestServer, type TestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { CreateApiKey, CreateRun, OnRunStatus, RecordTrajectories, RevokeApiKey, TransitionRun } from './operations';

const TOKEN_HEADER = 'x-graphql-event-stream-token';

function singleClient(s: TestServer, key: string): Client<true> {
  return createClient({ url: s.graphqlUrl, singleConnection: true, retryAttempts: 0, headers: bearer(key) });
}

/** One operation's results (and how it ended) through a graphql-sse client. */
function watch(client: Client<true>, query: string, variables: Record<string, unknown>) {
  const results: ExecutionResult[] = [];
  const errors: unknown[] = [];
  let ended = false;
  const stop = client.subscribe(
    { query, variables },
    {
      next: (r) => void results.push(r as ExecutionResult),
      error: (e) => {
        errors.push(e);
        ended = true;
      },
      complete: () => void (ended = true),
    },
  );
  return { results, errors, stop, ended: () => ended };
}

const firstCode = (w: ReturnType<typeof watch>) =>
  (w.results.find((r) => r.errors?.length)?.errors?.[0]?.extensions as { code?: string } | undefined)?.code;

async function newRun(s: TestServer): Promise<string> {
  const res = await s.gql(
    CreateRun,
    { input: { mode: 'TRACKED', modelName: 'm', projectName: 'sse-single', taskDescription: 't' } },
    bearer(s.keys.writer),
  );
  return expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run.id;
}

describe('graphql-sse single connection mode', () => {
  const s = useTestServer({
    keys: { reader: 'read', writer: 'write', admin: 'admin' },
    limits: { maxSubscriptionsPerKey: 2 },
  });

  it('runs subscriptions and queries over one stream with the graphql-sse client', async () => {
    const runId = await newRun(s);
    const client = singleClient(s, s.keys.reader);
    try {
      const w = watch(client, print(OnRunStatus), { runId });
      const q = watch(client, 'query($id: ID!) { run(id: $id) { id status } }', { id: runId });
      await waitFor(() => q.ended(), 5000, 'the query');
      expect(q.errors).toEqual([]);
      expect(q.results[0]?.data).toEqual({ run: { id: runId, status: 'PENDING' } });
      await waitFor(() => s.app.sessions.count() > 0 || w.ended(), 5000, 'the subscription to start');
      await s.gql(TransitionRun, { runId, to: 'GENERATING' }, bearer(s.keys.writer));
      await waitFor(() => w.results.length > 0 || w.ended(), 5000, 'the event');
      expect(w.errors).toEqual([]);
      expect(w.results[0]?.data).toMatchObject({
        runStatusChanged: { from: 'PENDING', to: 'GENERATING', run: { id: runId } },
      });
      w.stop();
      await waitFor(() => s.app.sessions.count() === 0, 5000, 'the subscription to end when the client completes it');
    } finally {
      client.dispose();
    }
  });

  it('refuses a reservation or an operation without a valid key (401 UNAUTHENTICATED), a read key a mutation (FORBIDDEN), and a stream reserved by another key', async () => {
    const runId = await newRun(s);
    const put = (headers: Record<string, string>) => fetch(s.graphqlUrl, { method: 'PUT', headers });
    const noKey = await put({});
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await noKey.json()) as ExecutionResult).errors?.[0]?.extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    expect((await put(bearer(`atl_0123456789abcdef_${'A'.repeat(43)}`))).status).toBe(401);

    const reserved = await put(bearer(s.keys.reader));
    expect(reserved.status).toBe(201);
    const token = await reserved.text();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits, not graphql-sse's Math.random UUID
    const controller = new AbortController();
    const stream = await fetch(s.graphqlUrl, {
      headers: { accept: 'text/event-stream', [TOKEN_HEADER]: token, ...bearer(s.keys.reader) },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    try {
      const post = (headers: Record<string, string>, query: string, operationId: string) =>
        fetch(s.graphqlUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token, ...headers },
          body: JSON.stringify({ query, variables: { runId }, extensions: { operationId } }),
        });
      const sub = print(OnRunStatus);
      const anonymous = await post({}, sub, 'a');
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as ExecutionResult).errors?.[0]?.extensions).toMatchObject({
        code: 'UNAUTHENTICATED',
      });
      const otherKey = await post(bearer(s.keys.writer), sub, 'b');
      expect(otherKey.status).toBe(404); // the token names no stream of this key's
      const accepted = await post(
        bearer(s.keys.reader),
        'mutation($runId: ID!) { transitionRun(runId: $runId, to: CANCELLED, reason: "x") { __typename } }',
        'c',
      );
      expect(accepted.status).toBe(202);
      const text = await readUntil(stream, /"id":"c"[\s\S]*event: complete/);
      expect(text).toMatch(/"code":"FORBIDDEN"/);
    } finally {
      controller.abort();
    }
  });

  it('counts its subscriptions against the key’s cap, and revoking the key ends them with the revocation error and closes the stream', async () => {
    const runId = await newRun(s);
    const made = expectResult(
      (await s.gql(CreateApiKey, { name: 'sse-single', scope: 'READ' }, bearer(s.keys.admin))).createApiKey,
      'CreateApiKeyPayload',
    );
    const client = singleClient(s, made.secret);
    try {
      const a = watch(client, print(OnRunStatus), { runId });
      const b = watch(client, print(OnRunStatus), { runId });
      await waitFor(() => s.app.sessions.count(made.apiKey.id) === 2, 5000, 'two live subscriptions');
      const c = watch(client, print(OnRunStatus), { runId });
      await waitFor(() => c.ended(), 5000, 'the third to be refused');
      expect(c.results[0]?.errors?.[0]?.extensions).toMatchObject({
        code: 'LIMIT_EXCEEDED',
        limit: 'maxSubscriptionsPerKey',
        max: 2,
      });

      await s.gql(RevokeApiKey, { id: made.apiKey.id }, bearer(s.keys.admin));
      await waitFor(() => a.ended() && b.ended(), 5000, 'the subscriptions to end');
      for (const w of [a, b])
        expect(w.results.at(-1)?.errors?.[0]?.extensions).toMatchObject({
          code: 'UNAUTHENTICATED',
          reason: 'API_KEY_REVOKED',
        });
      expect(s.app.sessions.count(made.apiKey.id)).toBe(0);
    } finally {
      client.dispose();
    }
  });

  it('answers operations the library would fail on (syntax, nesting, oversized bodies) with 4xx, and the stream goes on', async () => {
    const token = await (await fetch(s.graphqlUrl, { method: 'PUT', headers: bearer(s.keys.reader) })).text();
    const controller = new AbortController();
    const stream = await fetch(`${s.graphqlUrl}?token=${encodeURIComponent(token)}`, {
      headers: { accept: 'text/event-stream', ...bearer(s.keys.reader) },
      signal: controller.signal,
    });
    try {
      const post = async (body: string) => {
        const res = await fetch(s.graphqlUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token, ...bearer(s.keys.reader) },
          body,
        });
        const text = await res.text();
        return {
          status: res.status,
          code: text ? (JSON.parse(text) as ExecutionResult).errors?.[0]?.extensions?.code : undefined,
        };
      };
      const op = (query: string, operationId: string) => JSON.stringify({ query, extensions: { operationId } });
      expect(await post(op('{ nope(', 'a'))).toEqual({ status: 400, code: 'GRAPHQL_PARSE_FAILED' });
      expect(await post(op(`{ a${'{a'.repeat(150)}${'}'.repeat(151)}`, 'b'))).toEqual({
        status: 400,
        code: 'LIMIT_EXCEEDED',
      });
      expect(await post(op(`{ __typename }${' '.repeat(4 * 1024 * 1024)}`, 'c'))).toEqual({
        status: 413,
        code: 'LIMIT_EXCEEDED',
      });
      expect(await post(op('{ __typename }', 'd'))).toEqual({ status: 202, code: undefined });
      expect(await readUntil(stream, /"id":"d","payload":\{"data":\{"__typename":"Query"\}\}/)).toContain(
        'event: complete',
      );
    } finally {
      controller.abort();
    }
  });

  it('closes a stream reserved with a key when the key is revoked', async () => {
    const made = expectResult(
      (await s.gql(CreateApiKey, { name: 'sse-stream', scope: 'READ' }, bearer(s.keys.admin))).createApiKey,
      'CreateApiKeyPayload',
    );
    const token = await (await fetch(s.graphqlUrl, { method: 'PUT', headers: bearer(made.secret) })).text();
    const stream = await fetch(`${s.graphqlUrl}?token=${encodeURIComponent(token)}`, {
      headers: { accept: 'text/event-stream', ...bearer(made.secret) },
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read(); // the first comment: open
    await s.gql(RevokeApiKey, { id: made.apiKey.id }, bearer(s.keys.admin));
    let ended = false;
    const deadline = Date.now() + 5000;
    while (!ended && Date.now() < deadline) ended = (await reader.read()).done;
    expect(ended).toBe(true);
  });

  it('answers a mutation with the writer key and streams its result', async () => {
    const runId = await newRun(s);
    const client = singleClient(s, s.keys.writer);
    try {
      const m = watch(client, print(TransitionRun), { runId, to: 'GENERATING' });
      await waitFor(() => m.ended(), 5000, 'the mutation');
      expect(firstCode(m)).toBeUndefined();
      expect(m.results[0]?.data).toMatchObject({
        transitionRun: { __typename: 'TransitionRunPayload', run: { status: 'GENERATING' } },
      });
    } finally {
      client.dispose();
    }
  });
});

async function readUntil(res: Response, pattern: RegExp, timeoutMs = 5000): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(text)) {
    let timer: NodeJS.Timeout | undefined;
    const chunk = await Promise.race([
      reader.read(),
      new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`stream so far: ${text}`)), Math.max(1, deadline - Date.now()))),
      ),
    ]).finally(() => clearTimeout(timer));
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

describe('a single connection stream that stops reading', () => {
  const s = useTestServer({
    keys: { writer: 'write' },
    limits: { maxSocketBufferBytes: 256 * 1024, socketDrainTimeoutMs: 2000 },
  });
  const SUBSCRIPTION =
    'subscription($runId: ID!) { trajectoriesRecorded(runId: $runId) { count trajectories { messages { content } } } }';
  const listeners = () => s.app.events.listenerCount('trajectoriesRecorded');

  it('is cut off once its unsent output passes MAX_SOCKET_BUFFER_BYTES, ending its subscriptions', async () => {
    const runId = await newRun(s);
    const reserved = await fetch(s.graphqlUrl, { method: 'PUT', headers: bearer(s.keys.writer) });
    const token = await reserved.text();
    // The stream over a raw socket that is never read.
    const { hostname, host, port } = new URL(s.url);
    const stalled = connect(Number(port), hostname);
    await new Promise((resolve) => stalled.once('connect', resolve));
    stalled.write(
      `GET /graphql HTTP/1.1\r\nHost: ${host}\r\nAccept: text/event-stream\r\n${TOKEN_HEADER}: ${token}\r\nAuthorization: Bearer ${s.keys.writer}\r\n\r\n`,
    );
    stalled.pause();
    let closed = false;
    stalled.on('close', () => (closed = true));
    stalled.on('error', () => undefined);

    const posted = await fetch(s.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token, ...bearer(s.keys.writer) },
      body: JSON.stringify({ query: SUBSCRIPTION, variables: { runId }, extensions: { operationId: 'big' } }),
    });
    expect(posted.status).toBe(202);
    await waitFor(() => listeners() === 1, 5000, 'the subscription');
    const big = Array.from({ length: 10 }, () =>
      trajectory(0, 0.5, { messages: [{ role: 'user', content: 'x'.repeat(50_000) }] }),
    );
    for (let i = 0; i < 40 && listeners() === 1; i++) {
      expectResult(
        (
          await s.gql(
            RecordTrajectories,
            { runId, trajectories: big.map((t) => ({ ...t, uuid: crypto.randomUUID() })) },
            bearer(s.keys.writer),
          )
        ).recordTrajectories,
        'RecordTrajectoriesPayload',
      );
    }
    await waitFor(() => listeners() === 0, 10_000, 'the stalled stream to be cut off');
    stalled.resume();
    await waitFor(() => closed, 5000, 'the stalled socket to close');
  });
});

// Issue #23 item 1: a reserved stream never opened. The library queues every result for it "to be
// flushed on connect", outside every bound: 60 queued answers of 15 MB took a server from 205 MB to
// 1.7 GB, and one key reserved 5,000 streams in 10 s. Now a key holds at most
// MAX_SSE_RESERVATIONS_PER_KEY streams, a stream takes MAX_SSE_RESERVATION_OPERATIONS operations
// before it is opened, what is queued for it passes MAX_SOCKET_BUFFER_BYTES only by dropping it, and
// a drop (or the reservation's expiry) frees everything: the server's own accounting says so.
describe('a reserved stream that is never opened', () => {
  const s = useTestServer({
    keys: { reader: 'read', other: 'read', writer: 'write' },
    limits: { maxSseReservationsPerKey: 2, maxSseReservationOperations: 3, maxSocketBufferBytes: 256 * 1024 },
  });
  const SUBSCRIPTION = 'subscription($runId: ID!) { trajectoriesRecorded(runId: $runId) { count } }';
  const listeners = () => s.app.events.listenerCount('trajectoriesRecorded');
  const reserve = (key: string) => fetch(s.graphqlUrl, { method: 'PUT', headers: bearer(key) });
  const post = (key: string, token: string, query: string, operationId: string, variables = {}) =>
    fetch(s.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token, ...bearer(key) },
      body: JSON.stringify({ query, variables, extensions: { operationId } }),
    });
  const open = (key: string, token: string, signal?: AbortSignal) =>
    fetch(s.graphqlUrl, { headers: { accept: 'text/event-stream', [TOKEN_HEADER]: token, ...bearer(key) }, signal });

  it('gives a key at most MAX_SSE_RESERVATIONS_PER_KEY streams (429, maxSseReservationsPerKey), and a closed one frees its slot', async () => {
    const first = await (await reserve(s.keys.reader)).text();
    expect((await reserve(s.keys.reader)).status).toBe(201);
    const third = await reserve(s.keys.reader);
    expect(third.status).toBe(429);
    const refusal = ((await third.json()) as ExecutionResult).errors?.[0];
    expect(refusal?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxSseReservationsPerKey', max: 2 });
    expect(refusal?.message).toMatch(/MAX_SSE_RESERVATIONS_PER_KEY/);
    // Another key has its own.
    expect((await reserve(s.keys.other)).status).toBe(201);
    expect(s.app.sseStreams.stats()).toMatchObject({ reserved: 3, open: 0 });

    // Opened, then closed by the client: the slot is free again.
    const controller = new AbortController();
    const stream = await open(s.keys.reader, first, controller.signal);
    expect(stream.status).toBe(200);
    await stream.body!.getReader().read();
    expect(s.app.sseStreams.stats()).toMatchObject({ reserved: 2, open: 1 });
    controller.abort();
    await waitFor(() => s.app.sseStreams.stats().open === 0, 10_000, 'the closed stream to be forgotten');
    expect((await reserve(s.keys.reader)).status).toBe(201);
  });

  it('takes at most MAX_SSE_RESERVATION_OPERATIONS operations before it is opened (429, maxSseReservationOperations); opened, it delivers them and takes more', async () => {
    const token = await (await reserve(s.keys.writer)).text();
    for (const id of ['a', 'b', 'c']) expect((await post(s.keys.writer, token, '{ __typename }', id)).status).toBe(202);
    const fourth = await post(s.keys.writer, token, '{ __typename }', 'd');
    expect(fourth.status).toBe(429);
    expect(((await fourth.json()) as ExecutionResult).errors?.[0]?.extensions).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      limit: 'maxSseReservationOperations',
      max: 3,
    });
    // (The streams reserved by the test above hold none.)
    expect(s.app.sseStreams.stats().operations).toBe(3);

    const controller = new AbortController();
    const stream = await open(s.keys.writer, token, controller.signal);
    try {
      expect(stream.status).toBe(200);
      expect((await post(s.keys.writer, token, '{ __typename }', 'e')).status).toBe(202);
      const text = await readUntil(stream, /"id":"e"[\s\S]*"id":"e"/);
      for (const id of ['a', 'b', 'c', 'e'])
        expect(text).toContain(`{"id":"${id}","payload":{"data":{"__typename":"Query"}}}`);
      expect(text).not.toContain('"id":"d"');
    } finally {
      controller.abort();
    }
    await waitFor(() => s.app.sseStreams.stats().open === 0, 10_000, 'the stream to be forgotten');
  });
});

describe('a reserved stream whose queue passes MAX_SOCKET_BUFFER_BYTES', () => {
  const s = useTestServer({ keys: { writer: 'write' }, limits: { maxSocketBufferBytes: 256 * 1024 } });
  const SUBSCRIPTION = 'subscription($runId: ID!) { trajectoriesRecorded(runId: $runId) { count } }';
  const listeners = () => s.app.events.listenerCount('trajectoriesRecorded');
  const reserve = (key: string) => fetch(s.graphqlUrl, { method: 'PUT', headers: bearer(key) });
  const post = (key: string, token: string, query: string, operationId: string, variables = {}) =>
    fetch(s.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token, ...bearer(key) },
      body: JSON.stringify({ query, variables, extensions: { operationId } }),
    });
  const open = (key: string, token: string) =>
    fetch(s.graphqlUrl, { headers: { accept: 'text/event-stream', [TOKEN_HEADER]: token, ...bearer(key) } });

  it('is dropped, with its queue and its subscriptions, once what is queued for it passes the bound', async () => {
    const runId = await newRun(s);
    // Two trajectories of 60 KB: each query below answers about 120 KB.
    const big = Array.from({ length: 2 }, () =>
      trajectory(0, 0.5, { messages: [{ role: 'user', content: 'x'.repeat(60_000) }] }),
    );
    expectResult(
      (await s.gql(RecordTrajectories, { runId, trajectories: big }, bearer(s.keys.writer))).recordTrajectories,
      'RecordTrajectoriesPayload',
    );
    const page = `query($runId: ID!) { trajectories(runId: $runId, first: 10) { edges { node { messages { content } } } } }`;
    const before = listeners();
    const token = await (await reserve(s.keys.writer)).text();
    expect((await post(s.keys.writer, token, SUBSCRIPTION, 'live', { runId })).status).toBe(202);
    await waitFor(() => listeners() === before + 1, 5000, 'the subscription on the reserved stream');
    expect((await post(s.keys.writer, token, page, 'p1', { runId })).status).toBe(202);
    await waitFor(() => s.app.sseStreams.stats().queuedBytes > 100_000, 5000, 'the first answer to be queued');
    expect(s.app.sseStreams.stats()).toMatchObject({ reserved: 1, subscriptions: 1 });
    expect((await post(s.keys.writer, token, page, 'p2', { runId })).status).toBe(202);
    const third = await post(s.keys.writer, token, page, 'p3', { runId });
    // The third answer passes 256 KiB (the stream may already be gone when it is posted: 404).
    expect([202, 404]).toContain(third.status);

    await waitFor(() => s.app.sseStreams.stats().reserved === 0, 10_000, 'the overfull reservation to be dropped');
    expect(s.app.sseStreams.stats()).toEqual({ reserved: 0, open: 0, operations: 0, queuedBytes: 0, subscriptions: 0 });
    await waitFor(() => listeners() === before, 5000, 'its subscription to end');
    // Gone: neither opened nor fed any more.
    expect((await open(s.keys.writer, token)).status).toBe(404);
    expect((await post(s.keys.writer, token, '{ __typename }', 'late')).status).toBe(404);
  });
});

describe('a reserved stream past SSE_RESERVATION_TTL_SECONDS', () => {
  const s = useTestServer({ keys: { writer: 'write' }, limits: { sseReservationTtlMs: 1000 } });

  it('is dropped with everything it held: its queued results and its running subscriptions', async () => {
    const runId = await newRun(s);
    const before = s.app.events.listenerCount('runStatus');
    const token = await (await fetch(s.graphqlUrl, { method: 'PUT', headers: bearer(s.keys.writer) })).text();
    const post = (query: string, operationId: string) =>
      fetch(s.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token, ...bearer(s.keys.writer) },
        body: JSON.stringify({ query, variables: { runId }, extensions: { operationId } }),
      });
    expect((await post(print(OnRunStatus), 'live')).status).toBe(202);
    expect((await post('query($runId: ID!) { run(id: $runId) { id } }', 'q')).status).toBe(202);
    await waitFor(() => s.app.sseStreams.stats().queuedBytes > 0, 5000, 'the query’s answer to be queued');
    expect(s.app.sseStreams.stats()).toMatchObject({ reserved: 1, operations: 2, subscriptions: 1 });

    await waitFor(() => s.app.sseStreams.stats().reserved === 0, 30_000, 'the reservation to expire');
    expect(s.app.sseStreams.stats()).toEqual({ reserved: 0, open: 0, operations: 0, queuedBytes: 0, subscriptions: 0 });
    await waitFor(() => s.app.events.listenerCount('runStatus') === before, 5000, 'its subscription to end');
    const late = await fetch(s.graphqlUrl, {
      headers: { accept: 'text/event-stream', [TOKEN_HEADER]: token, ...bearer(s.keys.writer) },
    });
    expect(late.status).toBe(404);
  });
});
