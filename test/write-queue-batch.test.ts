// WriteQueue.batch, which ART batch imports use to commit several files at once: every job inside
// is a SAVEPOINT, so a job that fails is undone alone (its caller sees its error) and the others
// stay; afterCommit callbacks run once the whole batch commits, never those of a failed job, and
// deferred work is flushed once before the commit with the parts of the jobs that stayed. On a real
// SQLite file and on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openDatabase, type Database } from '../src/db/data-source';
import type { WriteTx } from '../src/db/write-queue';
import { createPostgresDatabase, postgresSuiteTitle, postgresUrl } from './helpers/postgres';

async function check(db: Database): Promise<void> {
  // A table of this test's own (nothing of Atelier's schema is touched).
  await db.writer.query('CREATE TABLE write_batch_h19 (x integer NOT NULL)');
  const events: string[] = [];
  // A deferred part per job (as recordGroups defers a run's step statistics): flushed once, just
  // before the commit, with the parts of the jobs that stayed, inside the same transaction.
  const flushes: number[][] = [];
  const flush = async (tx: WriteTx, parts: number[]) => {
    flushes.push(parts);
    await tx.em.query(`INSERT INTO write_batch_h19 (x) VALUES (${100 + parts.reduce((a, b) => a + b, 0)})`);
  };
  const insert = (x: number, fail: boolean) =>
    db.writes.run(async (tx) => {
      await tx.em.query(`INSERT INTO write_batch_h19 (x) VALUES (${x})`);
      tx.defer('sum', x, flush);
      tx.afterCommit(() => events.push(`committed ${x}`));
      if (fail) throw new Error(`job ${x} fails after its insert`);
      return x;
    });
  const outcome = await db.writes.batch(async () => {
    const out: string[] = [await String(await insert(1, false))];
    out.push(await insert(2, true).then(String, (err: Error) => err.message));
    out.push(String(await insert(3, false)));
    // Nothing is published before the batch commits.
    events.push('batch body done');
    return out;
  });
  expect(outcome).toEqual(['1', 'job 2 fails after its insert', '3']);
  expect(events).toEqual(['batch body done', 'committed 1', 'committed 3']);
  expect(flushes).toEqual([[1, 3]]);
  const rows: Array<{ x: number }> = await db.reader.query('SELECT x FROM write_batch_h19 ORDER BY x');
  expect(rows.map((r) => Number(r.x))).toEqual([1, 3, 104]);

  // A batch that throws leaves nothing, and publishes nothing.
  events.length = 0;
  await expect(
    db.writes.batch(async () => {
      await insert(4, false);
      throw new Error('the batch fails');
    }),
  ).rejects.toThrow('the batch fails');
  expect(events).toEqual([]);
  expect(flushes).toEqual([[1, 3]]);
  const after: Array<{ x: number }> = await db.reader.query('SELECT x FROM write_batch_h19 ORDER BY x');
  expect(after.map((r) => Number(r.x))).toEqual([1, 3, 104]);
  // Writes after a batch run on their own again, their parts flushed in their own transaction.
  expect(await insert(5, false)).toBe(5);
  expect(events).toEqual(['committed 5']);
  expect(flushes).toEqual([[1, 3], [5]]);
  const last: Array<{ x: number }> = await db.reader.query('SELECT x FROM write_batch_h19 ORDER BY x');
  expect(last.map((r) => Number(r.x))).toEqual([1, 3, 5, 104, 105]);
}

describe('WriteQueue.batch', () => {
  it('on SQLite: a failing job is undone alone, callbacks wait for the commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-write-batch-'));
    const db = await openDatabase({ kind: 'sqlite', path: join(dir, 'atelier.sqlite') });
    try {
      await check(db);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe.skipIf(!postgresUrl)(postgresSuiteTitle('on PostgreSQL'), () => {
    it('a failing job is undone alone, callbacks wait for the commit', async () => {
      const fresh = await createPostgresDatabase();
      const db = await openDatabase({ kind: 'postgres', url: fresh.url });
      try {
        await check(db);
      } finally {
        await db.close();
        await fresh.drop();
      }
    });
  });
});
