// Live updates through the real transports: graphql-ws over WebSocket and graphql-sse over HTTP.
// Every subscription, its filters and ordering, resume with afterEventId (including a transition
// racing the switch from replay to live), a stalled subscriber among 100 healthy ones, and abrupt
// disconnects that must leave no listener behind.
import { print } from 'graphql';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { advanceTo, createRun, recordTrajectories, trajectory, transition } from './helpers/builders';
import { useTestServer } from './helpers/server';
import { drain, quiet, sseClient, subscribe, subscribeSse, take, waitFor, wsClient } from './helpers/subscriptions';
import {
  GetRun,
  OnMetrics,
  OnProgress,
  OnRunStatus,
  OnTrajectories,
  OnTrajectoryCounts,
  RecordMetrics,
} from './operations';

const s = useTestServer({ subscriptionBuffer: 16 });

describe('runStatusChanged', () => {
  it('pushes each transition of a run, in order, over graphql-ws', async () => {
    const run = await createRun(s);
    const client = wsClient(s.url);
    const events = subscribe(client, OnRunStatus, { runId: run.id });
    await waitFor(() => s.app.events.listenerCount('runStatus') > 0, 5000, 'the subscription');
    await advanceTo(s, run.id, 'TRAINING');
    await transition(s, run.id, 'FAILED', 'out of memory');
    const got = await take(events, 5);
    expect(got.map((e) => `${e.runStatusChanged.from}>${e.runStatusChanged.to}`)).toEqual([
      'PENDING>GENERATING',
      'GENERATING>COLLECTING',
      'COLLECTING>SCORING',
      'SCORING>TRAINING',
      'TRAINING>FAILED',
    ]);
    const last = got.at(-1)!.runStatusChanged;
    expect(last).toMatchObject({
      reason: 'out of memory',
      run: { id: run.id, status: 'FAILED', error: 'out of memory' },
    });
    expect(last.run.completedAt).not.toBeNull();
    const ids = got.map((e) => Number(e.runStatusChanged.eventId));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    await events.return?.();
    await client.dispose();
  });

  it('filters by project, and covers every run without filters', async () => {
    const client = wsClient(s.url);
    const alpha = subscribe(client, OnRunStatus, { projectName: 'alpha' });
    const all = subscribe(client, OnRunStatus, {});
    await waitFor(() => s.app.events.listenerCount('runStatus') >= 2, 5000, 'the subscriptions');
    const a = await createRun(s, { projectName: 'alpha' });
    const b = await createRun(s, { projectName: 'beta' });
    await transition(s, b.id, 'GENERATING');
    await transition(s, a.id, 'GENERATING');
    const seenAll = await take(all, 4);
    expect(seenAll.map((e) => [e.runStatusChanged.run.projectName, e.runStatusChanged.to])).toEqual([
      ['alpha', 'PENDING'],
      ['beta', 'PENDING'],
      ['beta', 'GENERATING'],
      ['alpha', 'GENERATING'],
    ]);
    const seenAlpha = await take(alpha, 2);
    expect(seenAlpha.map((e) => [e.runStatusChanged.run.id, e.runStatusChanged.to])).toEqual([
      [a.id, 'PENDING'],
      [a.id, 'GENERATING'],
    ]);
    expect(await quiet(alpha, 200)).toBe(true);
    await client.dispose();
  });

  it('works over server-sent events (graphql-sse)', async () => {
    const run = await createRun(s);
    const client = sseClient(s.url);
    const events = subscribeSse(client, OnRunStatus, { runId: run.id });
    const first = take(events, 2);
    await waitFor(() => s.app.events.listenerCount('runStatus') > 0, 5000, 'the SSE subscription');
    await transition(s, run.id, 'GENERATING');
    await transition(s, run.id, 'CANCELLED', 'stopped by hand');
    expect((await first).map((e) => e.runStatusChanged.to)).toEqual(['GENERATING', 'CANCELLED']);
    await events.return?.();
    client.dispose();
  });

  it('resumes with afterEventId: replays what happened while disconnected, then goes live, nothing twice', async () => {
    const run = await createRun(s);
    const client = wsClient(s.url);
    const first = subscribe(client, OnRunStatus, { runId: run.id });
    await waitFor(() => s.app.events.listenerCount('runStatus') > 0, 5000, 'the subscription');
    await transition(s, run.id, 'GENERATING');
    const [seen] = await take(first, 1);
    await first.return?.();
    await client.dispose();

    // While nobody listens:
    await transition(s, run.id, 'COLLECTING');
    await transition(s, run.id, 'SCORING');

    const again = wsClient(s.url);
    const resumed = subscribe(again, OnRunStatus, { runId: run.id, afterEventId: seen.runStatusChanged.eventId });
    const replayed = await take(resumed, 2);
    expect(replayed.map((e) => e.runStatusChanged.to)).toEqual(['COLLECTING', 'SCORING']);
    await transition(s, run.id, 'TRAINING');
    const [live] = await take(resumed, 1);
    expect(live.runStatusChanged.to).toBe('TRAINING');
    expect(await quiet(resumed, 200)).toBe(true);
    await again.dispose();
  });

  it('misses nothing and repeats nothing when transitions race the switch from replay to live', async () => {
    for (let round = 0; round < 15; round++) {
      const run = await createRun(s);
      const client = wsClient(s.url);
      const events = subscribe(client, OnRunStatus, { runId: run.id, afterEventId: '0' });
      // Transitions land while the subscription is being set up, replayed and switched to live.
      const path = ['GENERATING', 'COLLECTING', 'SCORING', 'TRAINING', 'COMPLETED'] as const;
      const writer = (async () => {
        for (const to of path) {
          await new Promise((r) => setTimeout(r, Math.random() * 4));
          await transition(s, run.id, to);
        }
      })();
      const got = await take(events, 6);
      await writer;
      expect(got.map((e) => e.runStatusChanged.to)).toEqual(['PENDING', ...path]);
      // COMPLETED is final: the subscription completes right after it.
      expect(await drain(events, 2000)).toEqual([]);
      const stored = (await s.gql(GetRun, { id: run.id })).run!.statusHistory.map((h) => h.eventId);
      expect(got.map((e) => e.runStatusChanged.eventId)).toEqual(stored);
      await client.dispose();
    }
  });

  it('refuses a malformed afterEventId or an unknown run with an error', async () => {
    const client = wsClient(s.url);
    await expect(take(subscribe(client, OnRunStatus, { afterEventId: 'abc' }), 1)).rejects.toThrow(/afterEventId/);
    await expect(
      take(subscribe(client, OnRunStatus, { runId: Buffer.from('TrainingRun:999999').toString('base64url') }), 1),
    ).rejects.toThrow(/not found/);
    await client.dispose();
  });
});

describe('metricsRecorded, trajectoriesRecorded', () => {
  // runProgress is fed by the pipeline: test/pipeline.test.ts watches it on a real run.
  it('push new points with the snapshot, and stored batches (count only or in full)', async () => {
    const run = await createRun(s);
    const client = wsClient(s.url);
    const metrics = subscribe(client, OnMetrics, { runId: run.id });
    const full = subscribe(client, OnTrajectories, { runId: run.id });
    const counts = subscribe(client, OnTrajectoryCounts, { runId: run.id });
    await waitFor(() => s.app.events.listenerCount() >= 3, 5000, 'the subscriptions');

    const batch = [trajectory(0, 0.2), trajectory(0, 0.6)];
    await recordTrajectories(s, run.id, batch);
    await recordTrajectories(s, run.id, [trajectory(1, 1), trajectory(2, 0)]);
    await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 0, epoch: 0, trainingLoss: 0.7 }] });

    const [f1] = await take(full, 1);
    expect(f1.trajectoriesRecorded).toMatchObject({ count: 2, step: 0 });
    expect(f1.trajectoriesRecorded.trajectories.map((t) => t.uuid)).toEqual(batch.map((b) => b.uuid));
    expect((await take(counts, 2)).map((c) => c.trajectoriesRecorded)).toEqual([
      { count: 2, step: 0 },
      { count: 2, step: null },
    ]);
    const [m] = await take(metrics, 1);
    expect(m.metricsRecorded.points).toEqual([{ step: 0, trainingLoss: 0.7, avgReward: 0.4, totalTrajectories: 2 }]);
    expect(m.metricsRecorded.metrics).toMatchObject({
      step: 0,
      avgReward: 0.4,
      totalTrajectories: 4,
      trainingLoss: 0.7,
    });
    await client.dispose();
  });
});

describe('slow and vanished subscribers', () => {
  it('a stalled subscriber neither blocks 100 others nor grows without bound: it is cut off with a clear error', async () => {
    const run = await createRun(s);
    // Subscriptions of earlier tests close asynchronously: start from none.
    await waitFor(
      () => s.app.events.listenerCount('trajectoriesRecorded') === 0,
      5000,
      'earlier subscriptions to close',
    );
    const baseline = 0;

    // One client subscribes to full trajectories, then stops reading its socket.
    const stalled = new WebSocket(s.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
    const messages: string[] = [];
    await new Promise((r) => stalled.once('open', r));
    stalled.on('message', (m) => messages.push(m.toString()));
    stalled.send(JSON.stringify({ type: 'connection_init' }));
    await waitFor(() => messages.some((m) => m.includes('connection_ack')), 5000, 'connection_ack');
    stalled.send(
      JSON.stringify({
        id: 'slow',
        type: 'subscribe',
        payload: { query: print(OnTrajectories), variables: { runId: run.id } },
      }),
    );

    const clients = Array.from({ length: 10 }, () => wsClient(s.url));
    const healthy = Array.from({ length: 100 }, (_, i) =>
      subscribe(clients[i % 10], OnTrajectoryCounts, { runId: run.id }),
    );
    const batches = 40;
    // Reading starts the subscriptions (the client is lazy).
    const received = healthy.map((it) => take(it, batches, 60_000));
    await waitFor(
      () => s.app.events.listenerCount('trajectoriesRecorded') === baseline + 101,
      10_000,
      '101 subscribers',
    );
    (stalled as unknown as { _socket: { pause(): void } })._socket.pause();

    // Each batch is about 1 MB when a subscriber selects the full trajectories.
    const big = 'x'.repeat(10_000);
    for (let b = 0; b < batches; b++) {
      await recordTrajectories(
        s,
        run.id,
        Array.from({ length: 100 }, () => trajectory(b, 0.5, { messages: [{ role: 'assistant', content: big }] })),
      );
    }
    const all = await Promise.all(received);
    for (const events of all)
      expect(events.map((e) => e.trajectoriesRecorded.step)).toEqual(Array.from({ length: batches }, (_, i) => i));

    // The stalled one overflowed its buffer (16 events) and was detached: only the 100 remain.
    expect(s.app.events.listenerCount('trajectoriesRecorded')).toBe(baseline + 100);
    (stalled as unknown as { _socket: { resume(): void } })._socket.resume();
    await waitFor(() => messages.some((m) => m.includes('SUBSCRIPTION_OVERFLOW')), 30_000, 'the overflow error');
    const error = JSON.parse(messages.find((m) => m.includes('SUBSCRIPTION_OVERFLOW'))!);
    expect(error).toMatchObject({ id: 'slow', type: 'error' });
    expect(error.payload[0].message).toMatch(/fell more than 16 events behind/);
    stalled.terminate();
    await Promise.all(clients.map((c) => c.dispose()));
    await waitFor(
      () => s.app.events.listenerCount('trajectoriesRecorded') === baseline,
      5000,
      'all listeners released',
    );
  }, 120_000);

  it('an abrupt disconnect releases the subscription', async () => {
    const run = await createRun(s);
    await waitFor(() => s.app.events.listenerCount() === 0, 5000, 'earlier subscriptions to close');
    const baseline = 0;
    const sockets: WebSocket[] = [];
    for (const doc of [OnRunStatus, OnMetrics, OnTrajectories, OnProgress]) {
      const ws = new WebSocket(s.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
      await new Promise((r) => ws.once('open', r));
      const acked = new Promise((r) => ws.on('message', (m) => m.toString().includes('connection_ack') && r(null)));
      ws.send(JSON.stringify({ type: 'connection_init' }));
      await acked;
      ws.send(
        JSON.stringify({ id: '1', type: 'subscribe', payload: { query: print(doc), variables: { runId: run.id } } }),
      );
      sockets.push(ws);
    }
    await waitFor(() => s.app.events.listenerCount() === baseline + 4, 5000, 'four subscriptions');
    // No close frame: the TCP connection just goes away.
    for (const ws of sockets) (ws as unknown as { _socket: { destroy(): void } })._socket.destroy();
    await waitFor(() => s.app.events.listenerCount() === baseline, 5000, 'listeners released after abrupt disconnects');

    // Same over SSE: the client aborts the HTTP request.
    const controller = new AbortController();
    const res = await fetch(`${s.graphqlUrl}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: print(OnRunStatus), variables: { runId: run.id } }),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    await waitFor(() => s.app.events.listenerCount() === baseline + 1, 5000, 'the SSE subscription');
    controller.abort();
    await waitFor(() => s.app.events.listenerCount() === baseline, 5000, 'the SSE listener released');
  });
});
