// Delivering one event to many subscribers: they share loaders that batch across subscriptions and
// cache nothing, so an event reads its run once, not once per subscriber, and each event still sees
// the run as stored when it is delivered.
import { describe, expect, it } from 'vitest';

import { createRun, transition } from './helpers/builders';
import { useTestServer } from './helpers/server';
import { subscribe, take, waitFor, wsClient } from './helpers/subscriptions';
import { OnRunStatus } from './operations';

const s = useTestServer();

describe('event delivery to many subscribers', () => {
  it('reads the run once per event for 40 subscribers, and reads it fresh for every event', async () => {
    const run = await createRun(s);
    const baseline = s.app.events.listenerCount('runStatus');
    const clients = Array.from({ length: 4 }, () => wsClient(s.url));
    const streams = Array.from({ length: 40 }, (_, i) => subscribe(clients[i % 4], OnRunStatus, { runId: run.id }));
    // Reading starts the subscriptions (the client is lazy); each stream counts and collects its events.
    const seen: number[] = streams.map(() => 0);
    streams.forEach((it, i) => {
      const next = it.next.bind(it);
      it.next = async () => {
        const r = await next();
        seen[i]++;
        return r;
      };
    });
    const got: Array<Array<{ runStatusChanged: Record<string, any> }>> = streams.map(() => []);
    const reading = streams.map((it, i) => take(it, 2, 20_000).then((events) => (got[i] = events)));
    await waitFor(() => s.app.events.listenerCount('runStatus') === baseline + 40, 10_000, '40 subscriptions');

    const before = s.app.db.readQueries();
    await transition(s, run.id, 'GENERATING');
    await waitFor(() => seen.every((n) => n >= 1), 10_000, 'the first event on every subscription');
    const reads = s.app.db.readQueries() - before;
    // One batch for the 40 subscribers; a little slack for batches split across ticks, far below 40.
    expect(reads).toBeLessThanOrEqual(3);

    await transition(s, run.id, 'COLLECTING');
    await Promise.all(reading);
    for (const [a, b] of got) {
      expect(a.runStatusChanged).toMatchObject({ to: 'GENERATING', run: { id: run.id, status: 'GENERATING' } });
      expect(b.runStatusChanged).toMatchObject({ from: 'GENERATING', to: 'COLLECTING', run: { status: 'COLLECTING' } });
    }
    await Promise.all(streams.map((it) => it.return?.()));
    await Promise.all(clients.map((c) => c.dispose()));
  });
});
