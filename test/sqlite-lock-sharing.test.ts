// SQLite's write lock shared with another process (#23 item 5): while another connection holds it
// (the server ingesting, or the keys command), `npm run keys` and the server's own writes wait for it,
// say so, and succeed once it is free, instead of failing with "database is locked" (the keys
// command) or `Unexpected error.` (a recordTrajectories whose deferred transaction met the keys
// command's write). The other process is a second better-sqlite3 connection holding BEGIN IMMEDIATE;
// each test releases it only once the waiter said it is waiting, so nothing here depends on timing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Sqlite from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

import { runKeysCli } from '../src/auth/keys-cli';
import { openDatabase } from '../src/db/data-source';
import { advanceTo, createRun, trajectory } from './helpers/builders';
import { useTestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { ListTrajectories, RecordTrajectories } from './operations';

const WAITING = /the SQLite database is locked by another process; waiting for it/;

/** Resolves with 'waiting' once `said` holds, or with 'finished' if `work` ends first. */
async function waitingOrFinished(said: () => boolean, work: Promise<unknown>): Promise<'waiting' | 'finished'> {
  let finished = false;
  void work.finally(() => (finished = true)).catch(() => undefined);
  await waitFor(() => finished || said(), 30_000, 'the writer to wait or finish');
  return said() ? 'waiting' : 'finished';
}

describe('npm run keys while another process holds the write lock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('waits for the lock, says so on stderr, and then makes and revokes the key', async () => {
    const path = join(dir, 'keys.sqlite');
    await (await openDatabase({ kind: 'sqlite', path })).close();
    const env = { DATABASE_URL: `sqlite:${path}` };

    for (const argv of [
      ['create', '--name', 'ops', '--scope', 'admin'],
      ['revoke', 'ops'],
    ]) {
      const holder = new Sqlite(path);
      const err: string[] = [];
      const out: string[] = [];
      try {
        holder.exec('BEGIN IMMEDIATE');
        // A write of its own, so the waiter's snapshot is stale once the lock is released.
        holder.exec('CREATE TABLE IF NOT EXISTS lock_probe (x)');
        const command = runKeysCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
        const state = await waitingOrFinished(() => err.some((l) => WAITING.test(l)), command);
        expect(state, `the command ended without waiting: ${err.join('\n')}`).toBe('waiting');
        holder.exec('COMMIT');
        expect(await command, err.join('\n')).toBe(0);
      } finally {
        if (holder.inTransaction) holder.exec('ROLLBACK');
        holder.close();
      }
    }
    const listed = new Sqlite(path, { readonly: true });
    try {
      expect(listed.prepare('SELECT name, revoked_at IS NOT NULL AS revoked FROM api_keys').all()).toEqual([
        { name: 'ops', revoked: 1 },
      ]);
    } finally {
      listed.close();
    }
  });

  it('fails with a message naming SQLITE_BUSY_TIMEOUT_SECONDS when the lock is never released', async () => {
    const path = join(dir, 'stuck.sqlite');
    await (await openDatabase({ kind: 'sqlite', path })).close();
    const holder = new Sqlite(path);
    try {
      holder.exec('BEGIN IMMEDIATE');
      const err: string[] = [];
      const code = await runKeysCli(
        ['create', '--name', 'ci', '--scope', 'read'],
        { DATABASE_URL: `sqlite:${path}`, SQLITE_BUSY_TIMEOUT_SECONDS: '0.2' },
        { out: () => undefined, err: (l) => err.push(l) },
      );
      expect(code).toBe(1);
      expect(err.join('\n')).toMatch(/stayed locked by another process for 0 s \(raise SQLITE_BUSY_TIMEOUT_SECONDS\)/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });
});

describe('the server while another process holds the write lock', () => {
  const s = useTestServer({ logLevel: 'warn' });
  afterEach(() => vi.restoreAllMocks());

  it('a recordTrajectories waits for the lock (logged), then is stored, and other requests are answered meanwhile', async () => {
    const run = await createRun(s, { projectName: 'lock' });
    await advanceTo(s, run.id, 'COLLECTING');
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));

    const holder = new Sqlite(join(s.dir, 'atelier.sqlite'));
    try {
      holder.exec('BEGIN IMMEDIATE');
      holder.exec('CREATE TABLE IF NOT EXISTS lock_probe (x)');
      const recording = s.request(RecordTrajectories, { runId: run.id, trajectories: [trajectory(0, 0.5)] });
      const state = await waitingOrFinished(() => logged.some((l) => WAITING.test(l)), recording);
      if (state === 'finished') expect.fail(`the write ended without waiting: ${JSON.stringify(await recording)}`);
      // The event loop is free while the write waits: a read is answered.
      expect((await s.gql(ListTrajectories, { runId: run.id })).trajectories.totalCount).toBe(0);
      holder.exec('COMMIT');
      const result = await recording;
      expect(result.errors).toBeUndefined();
      expect(result.data!.recordTrajectories).toMatchObject({ __typename: 'RecordTrajectoriesPayload', recorded: 1 });
    } finally {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
    }
    expect((await s.gql(ListTrajectories, { runId: run.id })).trajectories.totalCount).toBe(1);
  });
});

describe('a server that writes without a break', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-lock-share-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lets go of the lock for a moment after 200 ms of back-to-back writes, so another process gets in', async () => {
    const path = join(dir, 'share.sqlite');
    const db = await openDatabase({ kind: 'sqlite', path });
    const other = new Sqlite(path, { timeout: 0 });
    try {
      let probed!: (outcome: 'got the lock' | 'busy') => void;
      const outcome = new Promise<'got the lock' | 'busy'>((resolve) => (probed = resolve));
      // Another process tries for the lock once the first job has committed: its timer is due then, before
      // anything the queue schedules with a delay, after anything it chains at once (the second job).
      const probe = () => {
        try {
          other.exec('BEGIN IMMEDIATE');
          other.exec('ROLLBACK');
          probed('got the lock');
        } catch {
          probed('busy');
        }
      };
      const first = db.writes.run(async (tx) => {
        await tx.em.query('CREATE TABLE IF NOT EXISTS share_probe (x)');
        await new Promise((resolve) => setTimeout(resolve, 250)); // a long stretch of writing
        setTimeout(probe, 0);
      });
      // The second job holds the lock until the probe has tried: had it started at once, the probe finds it busy.
      const second = db.writes.run(async (tx) => {
        await tx.em.query('INSERT INTO share_probe VALUES (1)');
        await outcome;
      });
      await Promise.all([first, second]);
      expect(await outcome).toBe('got the lock');
    } finally {
      other.close();
      await db.close();
    }
  });
});
