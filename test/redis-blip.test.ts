// A Redis blip must never silently drop live events. Transitions stored while the instance could
// not reach Redis reach a status subscriber once it can again (recovered from the stored
// transitions); subscriptions that cannot be replayed (trajectories, metrics, progress) are closed
// with a resumable error instead of going quiet. Once 14 of 136 transitions were lost, with no error.
// The same recovery covers an instance killed between its commit and its publish.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRun, transition } from './helpers/builders';
import {
  createPostgresDatabase,
  POSTGRES_SKIP_REASON,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { REDIS_SKIP_REASON, redisUrl } from './helpers/redis';
import { startServer, useTestServer, type TestServer } from './helpers/server';
import { quiet, subscribe, take, waitFor, wsClient } from './helpers/subscriptions';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { OnRunStatus, OnTrajectoryCounts } from './operations';

describe.skipIf(!redisUrl)(`live events across a Redis blip${redisUrl ? '' : ` [${REDIS_SKIP_REASON}]`}`, () => {
  let proxy: TcpProxy;
  let s: TestServer;
  beforeAll(async () => {
    const redis = new URL(redisUrl!);
    proxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
    s = await startServer({
      redisUrl: `redis://127.0.0.1:${proxy.port}`,
      redisPrefix: `atelier-blip-${process.pid}-${Date.now()}`,
    });
  });
  afterAll(async () => {
    await s?.stop();
    await proxy?.close();
  });

  it('delivers every transition stored during the blip, and ends other subscriptions with a resumable error', async () => {
    const runs = await Promise.all([0, 1, 2].map(() => createRun(s, { projectName: 'blip' })));
    const client = wsClient(s.url);
    const status = subscribe(client, OnRunStatus, { projectName: 'blip' });
    const counts = subscribe(client, OnTrajectoryCounts, { runId: runs[0].id });
    await waitFor(() => s.app.events.listenerCount() === 2, 5000, 'both subscriptions');
    await transition(s, runs[0].id, 'GENERATING');
    expect((await take(status, 1))[0].runStatusChanged.to).toBe('GENERATING');

    proxy.cut();
    await waitFor(async () => (await fetch(`${s.url}/ready`)).status === 503, 10_000, 'Redis to be seen as down');
    for (const run of runs) await transition(s, run.id, run === runs[0] ? 'COLLECTING' : 'GENERATING');
    await transition(s, runs[1].id, 'CANCELLED', 'stopped during the blip');
    proxy.restore();

    const recovered = await take(status, 4, 20_000);
    expect(recovered.map((e) => [e.runStatusChanged.run.id, e.runStatusChanged.to]).sort()).toEqual(
      [
        [runs[0].id, 'COLLECTING'],
        [runs[1].id, 'GENERATING'],
        [runs[2].id, 'GENERATING'],
        [runs[1].id, 'CANCELLED'],
      ].sort(),
    );
    // Per run, in order.
    const ofRun1 = recovered.filter((e) => e.runStatusChanged.run.id === runs[1].id).map((e) => e.runStatusChanged.to);
    expect(ofRun1).toEqual(['GENERATING', 'CANCELLED']);

    // The trajectories subscription cannot replay what it missed: it is ended, saying so.
    const next = await counts.next().then(
      (r) => JSON.stringify(r.value?.errors ?? r),
      (err: unknown) => JSON.stringify(err),
    );
    expect(next).toMatch(/EVENTS_INTERRUPTED/);

    // Live again: a new transition arrives once, nothing twice.
    await transition(s, runs[2].id, 'COLLECTING');
    expect((await take(status, 1))[0].runStatusChanged).toMatchObject({ to: 'COLLECTING', run: { id: runs[2].id } });
    await client.dispose();
  }, 60_000);
});

describe.skipIf(!redisUrl || !postgresUrl)(
  `status events an instance stored but never published${redisUrl && postgresUrl ? '' : ` [${[!redisUrl && REDIS_SKIP_REASON, !postgresUrl && POSTGRES_SKIP_REASON].filter(Boolean).join('; ')}]`}`,
  () => {
    let db: FreshPostgresDatabase;
    beforeAll(async () => {
      db = await createPostgresDatabase();
    });
    afterAll(() => db?.drop());
    const withRedis = useTestServer(() => ({
      databaseUrl: db.url,
      redisUrl,
      redisPrefix: `atelier-lost-${process.pid}-${Date.now()}`,
    }));
    // Writes to the same database but publishes nowhere the first can hear: an instance killed between commit and publish.
    const silent = useTestServer(() => ({ databaseUrl: db.url }));

    it('reach the subscribers of every instance, once', async () => {
      const run = await createRun(withRedis, { projectName: 'lost' });
      const client = wsClient(withRedis.url);
      const status = subscribe(client, OnRunStatus, { runId: run.id });
      await waitFor(() => withRedis.app.events.listenerCount('runStatus') === 1, 5000, 'the subscription');
      await transition(silent, run.id, 'GENERATING');
      await transition(withRedis, run.id, 'COLLECTING');
      const got: string[] = [];
      while (!got.includes('COLLECTING'))
        got.push(...(await take(status, 1, 15_000)).map((e) => e.runStatusChanged.to));
      // The run's creation, committed just before the subscription and delivered after the bus's
      // recovery check, may arrive too: at least once at that boundary, never twice, always in order.
      expect(got.filter((to) => to !== 'PENDING')).toEqual(['GENERATING', 'COLLECTING']);
      expect(got.indexOf('PENDING')).toBeLessThan(1);
      expect(await quiet(status, 2500)).toBe(true);
      await client.dispose();
    }, 30_000);
  },
);
