// Stalled TRACKED runs: a run not finished whose rows stop arriving for STALL_TIMEOUT_SECONDS shows as
// stalled (fields and a runStallChanged event), and is active again when rows arrive; the mark is
// stored (a restarted server still shows it, and finds new stalls from the stored last activity), and
// several server processes on one database mark a run once. No test waits on the clock: the monitor's
// check takes the time it judges by, or the timeout is tiny and the test waits for the event.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { REDIS_SKIP_REASON, redisUrl } from './helpers/redis';
import { startServer, type TestServer } from './helpers/server';
import { subscribe, take, waitFor, wsClient } from './helpers/subscriptions';
import {
  CreateRun,
  OnCheckpoint,
  OnRunStall,
  RecordCheckpoint,
  RecordMetrics,
  RecordTrajectories,
  RunStall,
  TransitionRun,
} from './operations';

const TIMEOUT_MS = 900_000;
/** A moment past the timeout, as the monitor is asked to judge. */
const later = (ms = TIMEOUT_MS + 1000) => new Date(Date.now() + ms);

async function trackedRun(s: TestServer, projectName = 'stalls'): Promise<{ id: string; databaseId: number }> {
  const made = await s.gql(CreateRun, {
    input: { mode: 'TRACKED', modelName: 'Qwen/Qwen2.5-0.5B', projectName, taskDescription: 'goes quiet' },
  });
  if (made.createTrainingRun.__typename !== 'CreateTrainingRunPayload') throw new Error('createTrainingRun failed');
  const run = made.createTrainingRun.run;
  await transition(s, run.id, 'TRAINING');
  return run;
}

async function transition(s: TestServer, runId: string, to: 'TRAINING' | 'COMPLETED' | 'FAILED') {
  const r = (await s.gql(TransitionRun, { runId, to, reason: 'the test says so' })).transitionRun;
  if (r.__typename !== 'TransitionRunPayload') throw new Error(`transitionRun: ${JSON.stringify(r)}`);
}

/** Subscribes and waits until the server holds the subscription (events published before would be missed). */
async function live<R, V extends Record<string, unknown>>(
  s: TestServer,
  client: ReturnType<typeof wsClient>,
  doc: Parameters<typeof subscribe<R, V>>[1],
  variables: V,
  topic: 'runStall' | 'checkpointRecorded',
) {
  const before = s.app.events.listenerCount(topic);
  const iter = subscribe(client, doc, variables);
  const first = iter.next();
  await waitFor(() => s.app.events.listenerCount(topic) > before, 30_000, `the ${topic} subscription`);
  // The first event, once it comes, is handed out by the next take.
  let pending: typeof first | null = first;
  const wrapped = {
    next: () => {
      const p = pending ?? iter.next();
      pending = null;
      return p;
    },
    return: () => iter.return?.() ?? Promise.resolve(),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return wrapped as unknown as typeof iter;
}

const stallOf = async (s: TestServer, id: string) => (await s.gql(RunStall, { id })).run!;

type Db = { label: string; url: () => string; setup: () => Promise<void>; teardown: () => Promise<void> };

function sqliteDb(): Db {
  let dir = '';
  return {
    label: 'SQLite',
    url: () => `sqlite:${join(dir, 'atelier.sqlite')}`,
    setup: async () => void (dir = mkdtempSync(join(tmpdir(), 'atelier-stall-'))),
    teardown: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresDb(): Db {
  let db: FreshPostgresDatabase | undefined;
  return {
    label: 'PostgreSQL',
    url: () => db!.url,
    setup: async () => void (db = await createPostgresDatabase()),
    teardown: async () => db?.drop(),
  };
}

for (const make of [sqliteDb, postgresDb]) {
  const db = make();
  const pg = db.label === 'PostgreSQL';
  describe.skipIf(pg && !postgresUrl)(
    pg ? postgresSuiteTitle('stalled runs (PostgreSQL)') : 'stalled runs (SQLite)',
    () => {
      let s: TestServer;
      beforeAll(async () => {
        await db.setup();
        s = await startServer({ databaseUrl: db.url(), pipeline: { stallTimeoutMs: TIMEOUT_MS } });
      });
      afterAll(async () => {
        await s?.stop();
        await db.teardown();
      });

      it('marks a silent TRACKED run stalled, pushes the event, and makes it active again when rows arrive', async () => {
        const run = await trackedRun(s);
        const client = wsClient(s.url);
        const events = await live(s, client, OnRunStall, { runId: run.id }, 'runStall');
        try {
          await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 0, epoch: 0, trainingLoss: 0.5 }] });
          const before = await stallOf(s, run.id);
          expect(before).toMatchObject({ stalled: false, stalledSince: null });
          expect(before.lastActivityAt).not.toBeNull();
          // Not yet silent for the timeout: nothing to mark.
          expect((await s.app.services.stalls.check(new Date(Date.now() + 1000))).map((e) => e.runId)).not.toContain(
            run.databaseId,
          );

          const marked = await s.app.services.stalls.check(later());
          expect(marked.map((e) => e.runId)).toContain(run.databaseId);
          const [stalled] = await take(events, 1);
          expect(stalled.runStallChanged).toMatchObject({
            stalled: true,
            lastActivityAt: before.lastActivityAt,
            run: { id: run.id, stalled: true },
          });
          expect(stalled.runStallChanged.stalledSince).not.toBeNull();
          expect(await stallOf(s, run.id)).toMatchObject({
            stalled: true,
            stalledSince: stalled.runStallChanged.stalledSince,
          });
          // Marked once: a second look finds nothing new.
          expect((await s.app.services.stalls.check(later())).map((e) => e.runId)).not.toContain(run.databaseId);

          // Rows again (a trajectory, through the tracking API): active, and said so.
          await s.gql(RecordTrajectories, {
            runId: run.id,
            trajectories: [
              {
                uuid: crypto.randomUUID(),
                taskInput: { step: 1, inputText: 'again' },
                messages: [{ role: 'user', content: 'hi' }],
                reward: 1,
              },
            ],
          });
          const [active] = await take(events, 1);
          expect(active.runStallChanged).toMatchObject({ stalled: false, stalledSince: null, run: { stalled: false } });
          const after = await stallOf(s, run.id);
          expect(after).toMatchObject({ stalled: false, stalledSince: null });
          expect(after.lastActivityAt! > before.lastActivityAt!).toBe(true);
        } finally {
          await events.return?.();
          await client.dispose();
        }
      });

      it('counts checkpoints as rows (with their own event), and a run that never had rows from its start', async () => {
        const run = await trackedRun(s);
        const client = wsClient(s.url);
        const stalls = await live(s, client, OnRunStall, { runId: run.id }, 'runStall');
        const checkpoints = await live(s, client, OnCheckpoint, { runId: run.id }, 'checkpointRecorded');
        try {
          // No rows yet: silent since it started.
          await s.app.services.stalls.check(later());
          const [first] = await take(stalls, 1);
          expect(first.runStallChanged.stalled).toBe(true);
          await s.gql(RecordCheckpoint, { runId: run.id, step: 3, name: 'm@3' });
          const [cp] = await take(checkpoints, 1);
          expect(cp.checkpointRecorded).toEqual({ step: 3, run: { id: run.id } });
          const [woke] = await take(stalls, 1);
          expect(woke.runStallChanged.stalled).toBe(false);
        } finally {
          await stalls.return?.();
          await checkpoints.return?.();
          await client.dispose();
        }
      });

      it('writes nothing while no run has been silent for the timeout (finished runs are never looked at)', async () => {
        await trackedRun(s, 'stalls-none');
        const done = await trackedRun(s, 'stalls-none');
        await transition(s, done.id, 'FAILED');
        const rows = async () =>
          (await s.app.db.reader.query(
            'SELECT run_id, last_activity_at, stalled_since FROM run_activity ORDER BY run_id',
          )) as unknown[];
        const before = await rows();
        expect(await s.app.services.stalls.check(new Date(Date.now() + 1000))).toEqual([]);
        expect(await rows()).toEqual(before);
        // Past the timeout, the finished run is still left alone.
        const marked = await s.app.services.stalls.check(later());
        expect(marked.map((e) => e.runId)).not.toContain(done.databaseId);
        expect((await rows()).map((r: any) => Number(r.run_id))).not.toContain(done.databaseId);
      });

      it('never shows a finished run as stalled, and the runs list shows the field', async () => {
        const run = await trackedRun(s, 'stalls-finished');
        await s.app.services.stalls.check(later());
        expect((await stallOf(s, run.id)).stalled).toBe(true);
        await transition(s, run.id, 'COMPLETED');
        expect(await stallOf(s, run.id)).toMatchObject({ status: 'COMPLETED', stalled: false, stalledSince: null });
        const done = await trackedRun(s, 'stalls-finished');
        await transition(s, done.id, 'FAILED');
        expect((await s.app.services.stalls.check(later())).map((e) => e.runId)).not.toContain(done.databaseId);
        const quiet = await trackedRun(s, 'stalls-finished');
        await s.app.services.stalls.check(later());
        const list = await s.gql<
          { runs: { edges: { node: { id: string; stalled: boolean; stalledSince: string | null } }[] } },
          Record<string, never>
        >(
          '{ runs(first: 10, filter: { projectName: "stalls-finished" }) { edges { node { id stalled stalledSince } } } }',
        );
        const byId = Object.fromEntries(list.runs.edges.map((e) => [e.node.id, e.node.stalled]));
        expect(byId).toEqual({ [run.id]: false, [done.id]: false, [quiet.id]: true });
      });

      it('keeps the mark across a restart and finds stalls from the stored last activity', async () => {
        const run = await trackedRun(s, 'stalls-restart');
        await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 0, epoch: 0, trainingLoss: 0.1 }] });
        const { lastActivityAt } = await stallOf(s, run.id);
        await s.stop();
        // Another process on the same database, judging by what is stored.
        s = await startServer({ databaseUrl: db.url(), pipeline: { stallTimeoutMs: TIMEOUT_MS } });
        const marked = (await s.app.services.stalls.check(later())).find((e) => e.runId === run.databaseId);
        expect(marked).toMatchObject({ stalled: true });
        // The run's own rows, not its start, were what it was judged by.
        expect(new Date(marked!.lastActivityAt).toISOString()).toBe(lastActivityAt);
        await s.stop();
        s = await startServer({ databaseUrl: db.url(), pipeline: { stallTimeoutMs: TIMEOUT_MS } });
        expect(await stallOf(s, run.id)).toMatchObject({ stalled: true });
        await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 1, epoch: 0, trainingLoss: 0.1 }] });
        expect(await stallOf(s, run.id)).toMatchObject({ stalled: false });
      });

      it('is marked once when several server processes look at the same moment', async () => {
        const other = await startServer({ databaseUrl: db.url(), pipeline: { stallTimeoutMs: TIMEOUT_MS } });
        try {
          const runs = [];
          for (let i = 0; i < 5; i++) runs.push(await trackedRun(s, 'stalls-many'));
          const when = later();
          const results = await Promise.all([
            s.app.services.stalls.check(when),
            other.app.services.stalls.check(when),
            s.app.services.stalls.check(when),
            other.app.services.stalls.check(when),
          ]);
          const mine = new Set(runs.map((r) => r.databaseId));
          const marks = results
            .flat()
            .filter((e) => mine.has(e.runId))
            .map((e) => e.runId);
          expect(marks.sort()).toEqual([...mine].sort());
        } finally {
          await other.stop();
        }
      });
    },
  );
}

describe('stalled runs with a tiny STALL_TIMEOUT_SECONDS: the server looks by itself', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ pipeline: { stallTimeoutMs: 50 } });
  });
  afterAll(async () => s?.stop());

  it('pushes the stall to a project subscriber without being asked', async () => {
    const client = wsClient(s.url);
    const events = await live(s, client, OnRunStall, { projectName: 'stalls-tiny' }, 'runStall');
    try {
      const run = await trackedRun(s, 'stalls-tiny');
      const [event] = await take(events, 1, 30_000);
      expect(event.runStallChanged).toMatchObject({ stalled: true, run: { id: run.id } });
    } finally {
      await events.return?.();
      await client.dispose();
    }
  });
});

describe('stalled runs and keys scoped to projects', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ keys: { admin: 'admin' }, pipeline: { stallTimeoutMs: TIMEOUT_MS } });
  });
  afterAll(async () => s?.stop());

  it("pushes all runs' stalls to a scoped key for its projects only", async () => {
    const { token } = await s.app.services.apiKeys.create({ name: 'alpha-reader', scope: 'read', projects: ['alpha'] });
    const admin = { authorization: `Bearer ${s.keys.admin}` };
    const make = async (projectName: string) => {
      const made = await s.gql(
        CreateRun,
        { input: { mode: 'TRACKED', modelName: 'm', projectName, taskDescription: 'scoped stalls' } },
        admin,
      );
      if (made.createTrainingRun.__typename !== 'CreateTrainingRunPayload') throw new Error('createTrainingRun failed');
      return made.createTrainingRun.run;
    };
    const client = wsClient(s.url, { authorization: `Bearer ${token}` });
    const events = await live(s, client, OnRunStall, {}, 'runStall');
    try {
      // gamma's run is older, so it is marked (and published) first: the scoped stream must skip it.
      const gamma = await make('gamma');
      const alpha = await make('alpha');
      const marked = await s.app.services.stalls.check(later());
      expect(marked.map((e) => e.runId)).toEqual([gamma.databaseId, alpha.databaseId]);
      const [first] = await take(events, 1);
      expect(first.runStallChanged.run).toMatchObject({ id: alpha.id, databaseId: alpha.databaseId, stalled: true });
    } finally {
      await events.return?.();
      await client.dispose();
    }
  });
});

const sharedMissing = [!postgresUrl && 'ATELIER_TEST_POSTGRES_URL unset', !redisUrl && REDIS_SKIP_REASON]
  .filter(Boolean)
  .join('; ');
describe.skipIf(Boolean(sharedMissing))(
  `stalled runs over PostgreSQL and Redis, two processes${sharedMissing ? ` [skipped: ${sharedMissing}]` : ''}`,
  () => {
    let db: FreshPostgresDatabase;
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      db = await createPostgresDatabase();
      const shared = {
        databaseUrl: db.url,
        redisUrl,
        redisPrefix: `atelier-stall-${Date.now()}`,
        pipeline: { stallTimeoutMs: TIMEOUT_MS },
      };
      a = await startServer(shared);
      b = await startServer(shared);
    });
    afterAll(async () => {
      await a?.stop();
      await b?.stop();
      await db?.drop();
    });

    it("a stall A marks reaches B's subscribers, and so does the run's waking up through B", async () => {
      const run = await trackedRun(a, 'stalls-shared');
      const client = wsClient(b.url);
      const events = await live(b, client, OnRunStall, { runId: run.id }, 'runStall');
      try {
        expect((await a.app.services.stalls.check(later())).map((e) => e.runId)).toContain(run.databaseId);
        const [stalled] = await take(events, 1);
        expect(stalled.runStallChanged).toMatchObject({ stalled: true, run: { id: run.id, stalled: true } });
        await b.gql(RecordMetrics, { runId: run.id, points: [{ step: 0, epoch: 0, trainingLoss: 0.2 }] });
        const [active] = await take(events, 1);
        expect(active.runStallChanged).toMatchObject({ stalled: false, run: { stalled: false } });
      } finally {
        await events.return?.();
        await client.dispose();
      }
    });
  },
);
