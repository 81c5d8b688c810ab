// SQLite's one write lock, shared with other processes (`npm run keys`, another tool) without
// failing and without blocking the event loop (#23).
//
// Two things went wrong before. A deferred transaction (TypeORM's `BEGIN TRANSACTION`) reads first
// and takes the write lock at its first write; when another process wrote in between, SQLite answers
// SQLITE_BUSY(_SNAPSHOT) at once, without waiting — that was the `Unexpected error.` a
// recordTrajectories got while the keys command wrote. And better-sqlite3's busy timeout waits
// synchronously, freezing every other request of the server while it waits. So every write
// transaction on the writer connection begins IMMEDIATE (the lock is taken first, or not at all),
// the connection does not wait in SQLite, and a BEGIN refused as busy is retried here, asynchronously,
// with short polls, until the busy timeout (SQLITE_BUSY_TIMEOUT_SECONDS) runs out.
import type { DataSource } from 'typeorm';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, …): another connection holds the lock. */
export function isSqliteBusy(err: unknown): boolean {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** A BEGIN IMMEDIATE that found the lock held: nothing of the transaction ran, so it may simply be tried again. */
export class SqliteLockBusy extends Error {
  constructor(readonly cause: unknown) {
    super('the SQLite database is locked by another connection');
    this.name = 'SqliteLockBusy';
  }
}

/**
 * Makes every transaction TypeORM starts on this (better-sqlite3) DataSource begin IMMEDIATE, and
 * marks a BEGIN refused as busy. better-sqlite3 shares one query runner per DataSource, so this is
 * done once, on it; TypeORM issues exactly `BEGIN TRANSACTION` at depth 0 (savepoints inside).
 */
export function beginImmediately(ds: DataSource): void {
  const runner = ds.createQueryRunner() as unknown as {
    query: (...args: unknown[]) => Promise<unknown>;
    isTransactionActive: boolean;
  };
  const query = runner.query.bind(runner);
  runner.query = async (sql: unknown, ...rest: unknown[]) => {
    if (sql !== 'BEGIN TRANSACTION') return query(sql, ...rest);
    try {
      return await query('BEGIN IMMEDIATE TRANSACTION', ...rest);
    } catch (err) {
      // No transaction began: say so, so TypeORM's rollback does not issue a ROLLBACK of nothing.
      runner.isTransactionActive = false;
      throw isSqliteBusy(err) ? new SqliteLockBusy(err) : err;
    }
  };
}

export interface LockWait {
  /** How long to keep trying before the write fails. */
  timeoutMs: number;
  /** Told once per write that has to wait (the keys command prints it; the server logs it). */
  onWait?: (message: string) => void;
}

/** Polls of the lock: short, so a writer gets in during the brief gaps another process leaves. */
const POLL_MS = [1, 2, 3, 5];

/** Runs `attempt` (one transaction) until it is not refused as busy, or the timeout runs out. */
export async function whenUnlocked<T>(attempt: () => Promise<T>, wait: LockWait): Promise<T> {
  const started = Date.now();
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof SqliteLockBusy)) throw err;
      if (Date.now() - started >= wait.timeoutMs)
        throw new Error(
          `the SQLite database stayed locked by another process for ${Math.round(wait.timeoutMs / 1000)} s (raise SQLITE_BUSY_TIMEOUT_SECONDS)`,
        );
      if (tries === 0)
        wait.onWait?.(
          `the SQLite database is locked by another process; waiting for it (up to ${Math.round(wait.timeoutMs / 1000)} s, SQLITE_BUSY_TIMEOUT_SECONDS)`,
        );
      await pause(POLL_MS[Math.min(tries, POLL_MS.length - 1)] * (0.5 + Math.random()));
    }
  }
}
