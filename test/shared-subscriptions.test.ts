// Shared execution for subscribers (issue #14): subscribers with the same operation, variables and
// key share one execution and one serialized payload per event, over graphql-ws and SSE, while
// everything per subscriber stays its own: its id, its end (complete, close, overflow, revocation),
// its key. Counted through app.sharedSubscriptions.stats() (groups, members, executions).
import type { Socket } from 'node:net';

import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { createRun, recordTrajectories, trajectory, transition } from './helpers/builders';
import { expectResult } from './helpers/results';
import { bearer, useTestServer, type TestServer } from './helpers/server';
import { quiet, sseClient, subscribe, subscribeSse, take, waitFor, wsClient } from './helpers/subscriptions';
import { CreateRun, OnRunStatus, OnTrajectories, OnTrajectoryCounts, RevokeApiKey, TransitionRun } from './operations';

interface Frame {
  id?: string;
  type: string;
  payload?: unknown;
}

/** A graphql-transport-ws client by hand: it sees every frame as sent, ids included, and can pause. */
async function rawWs(baseUrl: string, connectionParams?: Record<string, unknown>) {
  const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
  const frames: { text: string; frame: Frame }[] = [];
  ws.on('message', (data) => frames.push({ text: String(data), frame: JSON.parse(String(data)) as Frame }));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ type: 'connection_init', payload: connectionParams }));
  await waitFor(() => frames.some((f) => f.frame.type === 'connection_ack'), 5000, 'connection_ack');
  return {
    ws,
    frames,
    subscribe: (id: string, query: string, variables: Record<string, unknown>) =>
      ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } })),
    of: (id: string, type = 'next') => frames.filter((f) => f.frame.id === id && f.frame.type === type),
    socket: () => (ws as unknown as { _socket: Socket })._socket,
  };
}

const stats = (s: TestServer) => s.app.sharedSubscriptions.stats();

describe('shared subscriptions', () => {
  // The stalled member below must be ended by its overflow, however long a loaded machine takes to
  // publish the batches: the drain timeout (which would close its socket first) is out of the way.
  const s = useTestServer({ subscriptionBuffer: 8, limits: { socketDrainTimeoutMs: 600_000 } });

  it('one execution and one payload per event for subscribers with the same operation and variables, each frame with its own id', async () => {
    const run = await createRun(s);
    await waitFor(() => stats(s).groups === 0, 5000, 'no group left from earlier tests');
    const baseline = s.app.events.listenerCount('runStatus');
    const query = print(OnRunStatus);
    const sockets = await Promise.all([0, 1, 2].map(() => rawWs(s.url)));
    sockets.forEach((raw, n) =>
      Array.from({ length: 10 }, (_, i) => raw.subscribe(`sub-${n}-${i}`, query, { runId: run.id })),
    );
    const client = wsClient(s.url);
    const viaClient = Array.from({ length: 5 }, () => subscribe(client, OnRunStatus, { runId: run.id }));
    const sse = sseClient(s.url);
    const viaSse = Array.from({ length: 3 }, () => subscribeSse(sse, OnRunStatus, { runId: run.id }));
    const clientEvents = [...viaClient, ...viaSse].map((it) => take(it, 3));
    await waitFor(() => s.app.events.listenerCount('runStatus') === baseline + 38, 5000, '38 subscribers');
    expect(stats(s)).toMatchObject({ groups: 1, members: 38 });

    const before = stats(s).executions;
    for (const to of ['GENERATING', 'COLLECTING', 'SCORING'] as const) await transition(s, run.id, to);

    for (const got of await Promise.all(clientEvents))
      expect(got.map((e) => e.runStatusChanged.to)).toEqual(['GENERATING', 'COLLECTING', 'SCORING']);
    await waitFor(
      () => sockets.every((raw) => raw.frames.filter((f) => f.frame.type === 'next').length === 30),
      5000,
      'every raw subscriber',
    );
    // Each subscriber, by its own id, got each event exactly once and in order...
    const payloads: string[][] = [[], [], []];
    sockets.forEach((raw, n) => {
      for (let i = 0; i < 10; i++) {
        const mine = raw.of(`sub-${n}-${i}`);
        expect(
          mine.map((f) => (f.frame.payload as { data: { runStatusChanged: { to: string } } }).data.runStatusChanged.to),
        ).toEqual(['GENERATING', 'COLLECTING', 'SCORING']);
        mine.forEach((f, e) => payloads[e].push(JSON.stringify(f.frame.payload)));
      }
    });
    // ...the same bytes for all of them, and one execution per event for the whole group.
    for (const event of payloads) expect(new Set(event).size).toBe(1);
    expect(stats(s).executions - before).toBe(3);

    // The group ends with its last member, and its listener with it.
    for (const it of viaClient) await it.return?.();
    for (const it of viaSse) await it.return?.();
    await client.dispose();
    sse.dispose();
    for (const raw of sockets) raw.ws.close();
    await waitFor(() => s.app.events.listenerCount('runStatus') === baseline, 5000, 'the listener released');
    expect(stats(s)).toMatchObject({ groups: 0, members: 0 });
  });

  it('never mixes different variables or operations, and runs replays (afterEventId) on their own', async () => {
    const [a, b] = [await createRun(s), await createRun(s)];
    await waitFor(() => stats(s).groups === 0, 5000, 'no group left from earlier tests');
    const client = wsClient(s.url);
    const onA = [subscribe(client, OnRunStatus, { runId: a.id }), subscribe(client, OnRunStatus, { runId: a.id })];
    const onB = [subscribe(client, OnRunStatus, { runId: b.id }), subscribe(client, OnRunStatus, { runId: b.id })];
    const fromStart = subscribe(client, OnRunStatus, { runId: a.id, afterEventId: '0' });
    const firstA = onA.map((it) => take(it, 1));
    const firstB = onB.map((it) => take(it, 1));
    const replayed = take(fromStart, 2);
    await waitFor(() => s.app.events.listenerCount('runStatus') >= 5, 5000, 'five subscriptions');
    expect(stats(s)).toMatchObject({ groups: 2, members: 4 });

    const before = stats(s).executions;
    await transition(s, a.id, 'GENERATING');
    for (const [got] of await Promise.all(firstA))
      expect(got.runStatusChanged).toMatchObject({ to: 'GENERATING', run: { id: a.id } });
    expect((await replayed).map((e) => e.runStatusChanged.to)).toEqual(['PENDING', 'GENERATING']);
    for (const it of onB) expect(await quiet(it, 200)).toBe(true);
    expect(stats(s).executions - before).toBe(1);
    await transition(s, b.id, 'CANCELLED', 'b only');
    for (const [got] of await Promise.all(firstB))
      expect(got.runStatusChanged).toMatchObject({ to: 'CANCELLED', run: { id: b.id } });
    for (const it of onA) expect(await quiet(it, 200)).toBe(true);

    await client.dispose();
    await waitFor(
      () => stats(s).groups === 0 && s.app.events.listenerCount('runStatus') === 0,
      5000,
      'every group released',
    );
  });

  it('one member leaving, closing or falling behind leaves the others of its group untouched', async () => {
    const run = await createRun(s);
    await waitFor(() => stats(s).groups === 0, 5000, 'no group left from earlier tests');
    const query = print(OnTrajectories);
    // A connection of its own each: five 1 MB frames per event on one socket would lag behind by design.
    const clients = Array.from({ length: 6 }, () => wsClient(s.url));
    const healthy = clients.slice(0, 5).map((client) => subscribe(client, OnTrajectories, { runId: run.id }));
    const leaving = subscribe(clients[5], OnTrajectories, { runId: run.id });
    const closing = await rawWs(s.url);
    closing.subscribe('closing', query, { runId: run.id });
    const stalled = await rawWs(s.url);
    stalled.subscribe('stalled', query, { runId: run.id });
    const batches = 30;
    const received = healthy.map((it) => take(it, batches + 1, 60_000));
    const leavingFirst = take(leaving, 1);
    await waitFor(() => s.app.events.listenerCount('trajectoriesRecorded') === 8, 5000, 'eight subscribers');
    expect(stats(s)).toMatchObject({ groups: 1, members: 8 });

    await recordTrajectories(s, run.id, [trajectory(0, 0.5)]);
    await leavingFirst;
    await waitFor(
      () => closing.of('closing').length === 1 && stalled.of('stalled').length === 1,
      5000,
      'the first event everywhere',
    );
    await leaving.return?.();
    closing.socket().destroy();
    await waitFor(() => stats(s).members === 6, 5000, 'two members gone');

    // The stalled one stops reading while about 1 MB events keep coming: it falls 8 behind and is cut off.
    stalled.socket().pause();
    const before = stats(s).executions;
    const big = 'x'.repeat(100_000);
    for (let b = 1; b <= batches; b++) {
      await recordTrajectories(
        s,
        run.id,
        Array.from({ length: 10 }, () => trajectory(b, 0.5, { messages: [{ role: 'assistant', content: big }] })),
      );
    }
    for (const events of await Promise.all(received))
      expect(events.map((e) => e.trajectoriesRecorded.step)).toEqual(Array.from({ length: batches + 1 }, (_, i) => i));
    // One execution per event: the member that fell behind held its (shared) payloads, it did not execute its own.
    expect(stats(s).executions - before).toBe(batches);
    expect(stats(s)).toMatchObject({ groups: 1, members: 5 });
    stalled.socket().resume();
    await waitFor(() => stalled.of('stalled', 'error').length === 1, 30_000, 'the overflow error');
    expect(
      (stalled.of('stalled', 'error')[0].frame.payload as { extensions: { code: string } }[])[0].extensions.code,
    ).toBe('SUBSCRIPTION_OVERFLOW');

    await Promise.all(clients.map((c) => c.dispose()));
    stalled.ws.terminate();
    await waitFor(
      () => stats(s).groups === 0 && s.app.events.listenerCount('trajectoriesRecorded') === 0,
      5000,
      'the group released',
    );
  }, 120_000);

  it('shares among subscribers with different selections only what is the same: one group per document', async () => {
    const run = await createRun(s);
    await waitFor(() => stats(s).groups === 0, 5000, 'no group left from earlier tests');
    const client = wsClient(s.url);
    const full = [
      subscribe(client, OnTrajectories, { runId: run.id }),
      subscribe(client, OnTrajectories, { runId: run.id }),
    ];
    const counts = [
      subscribe(client, OnTrajectoryCounts, { runId: run.id }),
      subscribe(client, OnTrajectoryCounts, { runId: run.id }),
    ];
    const got = [...full, ...counts].map((it) => take(it, 1));
    await waitFor(() => stats(s).members === 4, 5000, 'four members');
    expect(stats(s).groups).toBe(2);
    const before = stats(s).executions;
    await recordTrajectories(s, run.id, [trajectory(0, 0.5)]);
    const [f1, f2, c1, c2] = (await Promise.all(got)).map(([e]) => e.trajectoriesRecorded as Record<string, unknown>);
    expect(f1).toEqual(f2);
    expect(c1).toEqual(c2);
    expect(f1.trajectories).toHaveLength(1);
    expect(c1).toEqual({ count: 1, step: 0 });
    expect(stats(s).executions - before).toBe(2);
    await client.dispose();
    await waitFor(() => stats(s).groups === 0, 5000, 'the groups released');
  });
});

describe('shared subscriptions with keys', () => {
  const s = useTestServer({
    keys: { reader: 'read', other: 'read', admin: 'admin' },
    auth: { revocationCheckMs: 150 },
  });
  const admin = () => bearer(s.keys.admin);

  it('never shares between keys, and revoking one key ends only its own subscribers', async () => {
    const created = await s.gql(
      CreateRun,
      { input: { mode: 'TRACKED', modelName: 'm', projectName: 'shared', taskDescription: 't' } },
      admin(),
    );
    const run = expectResult(created.createTrainingRun, 'CreateTrainingRunPayload').run;
    const reader = wsClient(s.url, { Authorization: `Bearer ${s.keys.reader}` });
    const other = wsClient(s.url, { Authorization: `Bearer ${s.keys.other}` });
    const readerSubs = Array.from({ length: 3 }, () => subscribe(reader, OnRunStatus, { runId: run.id }));
    const otherSubs = Array.from({ length: 3 }, () => subscribe(other, OnRunStatus, { runId: run.id }));
    const firsts = [...readerSubs, ...otherSubs].map((it) => take(it, 1));
    await waitFor(() => stats(s).members === 6, 5000, 'six members');
    expect(stats(s).groups).toBe(2);

    const before = stats(s).executions;
    await s.gql(TransitionRun, { runId: run.id, to: 'GENERATING' }, admin());
    for (const [e] of await Promise.all(firsts)) expect(e.runStatusChanged.to).toBe('GENERATING');
    expect(stats(s).executions - before).toBe(2);

    // Revoke the reader's key: its subscribers end with the revocation error; the other key's go on.
    const readerKeyId = (await s.app.services.apiKeys.list()).find((k) => k.name === 'reader')!.keyId;
    const ended = readerSubs.map((it) =>
      it.next().then(
        () => 'no error',
        (err: unknown) => JSON.stringify(err),
      ),
    );
    expectResult((await s.gql(RevokeApiKey, { id: readerKeyId }, admin())).revokeApiKey, 'RevokeApiKeyPayload');
    for (const outcome of await Promise.all(ended)) expect(outcome).toMatch(/API_KEY_REVOKED/);
    await waitFor(() => stats(s).groups === 1 && stats(s).members === 3, 5000, "the revoked key's group gone");
    const next = otherSubs.map((it) => take(it, 1));
    await s.gql(TransitionRun, { runId: run.id, to: 'COLLECTING' }, admin());
    for (const [e] of await Promise.all(next)) expect(e.runStatusChanged.to).toBe('COLLECTING');

    await reader.dispose();
    await other.dispose();
    await waitFor(
      () => stats(s).groups === 0 && s.app.events.listenerCount('runStatus') === 0,
      5000,
      'every group released',
    );
  });
});
