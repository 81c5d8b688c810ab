// Two Atelier instances sharing PostgreSQL and Redis, as in a scaled-out deployment: a transition
// made through instance A reaches a subscriber on instance B, and resuming with afterEventId works
// across instances. Runs against the PostgreSQL and Redis on this machine (and in CI).
import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRun, recordTrajectories, trajectory, transition } from './helpers/builders';
import {
  createPostgresDatabase,
  POSTGRES_SKIP_REASON,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { REDIS_SKIP_REASON, redisUrl } from './helpers/redis';
import { startServer, useTestServer } from './helpers/server';
import { quiet, subscribe, take, waitFor, wsClient } from './helpers/subscriptions';
import { startTcpProxy } from './helpers/tcp-proxy';
import { OnRunStatus, OnTrajectoryCounts } from './operations';

const missing = [!postgresUrl && POSTGRES_SKIP_REASON, !redisUrl && REDIS_SKIP_REASON].filter(Boolean).join('; ');
if (missing) console.warn(missing);

describe.skipIf(Boolean(missing))(`two instances over PostgreSQL and Redis${missing ? ` [${missing}]` : ''}`, () => {
  let db: FreshPostgresDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
  });
  afterAll(() => db?.drop());
  const redisPrefix = `atelier-test-${randomBytes(4).toString('hex')}`;
  const shared = () => ({ databaseUrl: db.url, redisUrl, redisPrefix });
  const a = useTestServer(shared);
  const b = useTestServer(shared);

  it('delivers a transition made on A to a subscriber on B, in order', async () => {
    const run = await createRun(a);
    const client = wsClient(b.url);
    const events = subscribe(client, OnRunStatus, { runId: run.id });
    const counts = subscribe(client, OnTrajectoryCounts, { runId: run.id });
    const got = take(events, 3);
    const gotCounts = take(counts, 1);
    await waitFor(() => b.app.events.listenerCount() === 2, 5000, 'subscribers on B');
    await transition(a, run.id, 'GENERATING');
    await transition(a, run.id, 'COLLECTING');
    await transition(b, run.id, 'SCORING');
    await recordTrajectories(a, run.id, [trajectory(0, 1), trajectory(0, 0)]);
    expect((await got).map((e) => [e.runStatusChanged.to, e.runStatusChanged.run.status])).toEqual([
      ['GENERATING', expect.any(String)],
      ['COLLECTING', expect.any(String)],
      ['SCORING', 'SCORING'],
    ]);
    expect((await gotCounts)[0].trajectoriesRecorded.count).toBe(2);
    await client.dispose();
  });

  it('resumes on B with afterEventId after transitions made on A while disconnected', async () => {
    const run = await createRun(a);
    const c1 = wsClient(a.url);
    const first = subscribe(c1, OnRunStatus, { runId: run.id });
    await waitFor(() => a.app.events.listenerCount('runStatus') === 1, 5000, 'subscriber on A');
    await transition(a, run.id, 'GENERATING');
    // The run's creation (PENDING), committed just before the subscription, may come first when the
    // bus's recovery check delivers it (under load): resume after GENERATING, whatever came before it.
    let [seen] = await take(first, 1);
    while (seen.runStatusChanged.to !== 'GENERATING') [seen] = await take(first, 1);
    await c1.dispose();

    await transition(a, run.id, 'COLLECTING');
    await transition(a, run.id, 'SCORING');

    const c2 = wsClient(b.url);
    const resumed = subscribe(c2, OnRunStatus, { runId: run.id, afterEventId: seen.runStatusChanged.eventId });
    const replayed = await take(resumed, 2);
    expect(replayed.map((e) => e.runStatusChanged.to)).toEqual(['COLLECTING', 'SCORING']);
    await transition(a, run.id, 'TRAINING');
    expect((await take(resumed, 1))[0].runStatusChanged.to).toBe('TRAINING');
    expect(await quiet(resumed, 300)).toBe(true);
    await c2.dispose();
  });
});

describe.skipIf(Boolean(missing))(`readiness follows PostgreSQL and Redis${missing ? ` [${missing}]` : ''}`, () => {
  it('answers 503 on /ready while PostgreSQL or Redis cannot be reached, and 200 again once they can', async () => {
    const db = await createPostgresDatabase();
    const pgUrl = new URL(db.url);
    const redis = new URL(redisUrl!);
    const pgProxy = await startTcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
    const redisProxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
    pgUrl.host = `127.0.0.1:${pgProxy.port}`;
    const server = await startServer({
      databaseUrl: pgUrl.toString(),
      redisUrl: `redis://127.0.0.1:${redisProxy.port}`,
    });
    const ready = async () => (await fetch(`${server.url}/ready`)).status;
    try {
      expect(await ready()).toBe(200);
      redisProxy.cut();
      await waitFor(async () => (await ready()) === 503, 10_000, '/ready to report Redis down');
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      redisProxy.restore();
      await waitFor(async () => (await ready()) === 200, 15_000, '/ready to recover with Redis');
      pgProxy.cut();
      await waitFor(async () => (await ready()) === 503, 10_000, '/ready to report PostgreSQL down');
      pgProxy.restore();
      await waitFor(async () => (await ready()) === 200, 15_000, '/ready to recover with PostgreSQL');
    } finally {
      await server.stop().catch(() => undefined);
      await pgProxy.close();
      await redisProxy.close();
      await db.drop();
    }
  }, 60_000);
});
