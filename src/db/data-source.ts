// Opens the database Atelier stores everything in: an SQLite file by default, PostgreSQL when
// configured. Runs the migrations at start (synchronize stays off).
//
// SQLite has one writer, and TypeORM's better-sqlite3 driver shares one connection for the whole
// DataSource: a read made there while a write transaction is open would see uncommitted rows. So on
// SQLite all writes go through one DataSource behind the serialized write queue, and reads use a
// second, read-only connection that only ever sees committed data (WAL mode allows both at once).
//
// Storage layout of SQLite files (see README "Storage"): a new file gets 16 KB pages, so a ~2 KB
// trajectory row no longer fills a 4 KB page alone (a file made with 4 KB pages keeps them: SQLite
// changes the page size only of an empty file, or by a VACUUM, which Atelier never runs by itself).
// The WAL is checkpointed by a thread of its own (wal-checkpointer.ts), not inside a request's
// commit; journal_size_limit bounds the log file left after a checkpoint.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { DataSource, type DataSourceOptions } from 'typeorm';

import type { DatabaseConfig } from '../config';
import { entities } from './entities';
import { migrations } from './migrations';
import { QueryCounter, type QueryTally } from './query-counter';
import { beginImmediately, type LockWait } from './sqlite-locking';
import { ensureSqliteTriggers } from './sqlite-triggers';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer';
import { WriteQueue } from './write-queue';

/** Which database Atelier runs on; a few statements differ between them. */
export type DbKind = 'sqlite' | 'postgres';

export interface Database {
  kind: DbKind;
  /** Reads: committed data only. */
  reader: DataSource;
  /** Every write goes through here. */
  writes: WriteQueue;
  /** The DataSource migrations and writes use. */
  writer: DataSource;
  /** How many statements reads have run so far (every caller, background work included). */
  readQueries(): number;
  /** Runs fn with `tally` counting the read statements fn itself runs (and what it starts), nothing else. */
  countQueries<T>(tally: QueryTally, fn: () => T): T;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Page size of new SQLite files: about seven ~2 KB trajectory rows a page instead of one. */
export const SQLITE_PAGE_SIZE = 16_384;
/** How often the checkpoint thread copies the WAL into the database. */
const CHECKPOINT_INTERVAL_MS = 1000;
/** The WAL file is truncated to this after a checkpoint (a burst of writes may grow it beyond). */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;
/** SQLite's own default, restored if the checkpoint thread fails. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/** The writer connection's page cache, KiB (SQLite's default is 2 MiB). */
const WRITER_CACHE_KIB = 32 * 1024;

function sqliteOptions(path: string, readonly: boolean, counter?: QueryCounter, timeoutMs = 5000): DataSourceOptions {
  return {
    logger: counter,
    logging: counter ? ['query'] : false,
    type: 'better-sqlite3',
    database: path,
    entities,
    migrations,
    synchronize: false,
    readonly,
    enableWAL: !readonly,
    timeout: timeoutMs,
    statementCacheSize: 200,
    prepareDatabase: (db: { pragma(s: string): unknown }) => {
      db.pragma('foreign_keys = ON');
      if (readonly) return;
      // Before WAL mode is set (TypeORM sets it after this): takes effect only on an empty file.
      db.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
      db.pragma('synchronous = NORMAL');
      db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
      // The writer's page cache holds a bulk transaction's dirty pages (an import request's thousands
      // of rows and their index pages) without spilling them to the log before the commit; SQLite
      // allocates it as pages are used, so an idle server does not hold it.
      db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
    },
  } as DataSourceOptions;
}

export interface OpenOptions {
  /** SQLite: how long a write waits for the lock another process holds (SQLITE_BUSY_TIMEOUT_SECONDS). */
  busyTimeoutMs?: number;
  /** SQLite: told when a write has to wait for another process. */
  onLockWait?: (message: string) => void;
}

export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  if (config.kind === 'sqlite') {
    const path = config.path === ':memory:' ? config.path : resolve(config.path);
    if (path === ':memory:')
      throw new Error(
        'DATABASE_URL: an in-memory SQLite database cannot be shared by the reader and writer; use a file',
      );
    mkdirSync(dirname(path), { recursive: true });
    const lockWait: LockWait = { timeoutMs: options.busyTimeoutMs ?? 30_000, onWait: options.onLockWait };
    const writer = await new DataSource(sqliteOptions(path, false, undefined, lockWait.timeoutMs)).initialize();
    let checkpointer: WalCheckpointer | undefined;
    try {
      beginImmediately(writer);
      // Start-up may wait in SQLite (nothing else runs yet); from then on writes wait in the queue, asynchronously.
      await writer.runMigrations({ transaction: 'each' });
      await ensureSqliteTriggers(writer);
      const connection = (writer.driver as unknown as { databaseConnection: { pragma(s: string): unknown } })
        .databaseConnection;
      // Without the thread the log would only grow: SQLite then checkpoints in the commits, as by default.
      const fallBack = (err: Error) => {
        connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
        process.emitWarning(`SQLite WAL checkpoint thread failed (${err.message}); checkpointing in commits`);
      };
      checkpointer = await startWalCheckpointer(path, CHECKPOINT_INTERVAL_MS, fallBack).catch((err: Error) => {
        fallBack(err);
        return undefined;
      });
      if (checkpointer) connection.pragma('wal_autocheckpoint = 0');
      await writer.query('PRAGMA busy_timeout = 0');
      const counter = new QueryCounter();
      const reader = await new DataSource(sqliteOptions(path, true, counter)).initialize();
      return assemble('sqlite', writer, reader, new WriteQueue(writer, true, lockWait), counter, checkpointer);
    } catch (err) {
      await checkpointer?.stop();
      await writer.destroy();
      throw err;
    }
  }
  const counter = new QueryCounter();
  const writer = await new DataSource({
    type: 'postgres',
    logger: counter,
    logging: ['query'],
    url: config.url,
    entities,
    migrations,
    synchronize: false,
    extra: { max: 10, connectionTimeoutMillis: 5000 },
  }).initialize();
  try {
    await writer.runMigrations({ transaction: 'all' });
  } catch (err) {
    await writer.destroy();
    throw err;
  }
  return assemble('postgres', writer, writer, new WriteQueue(writer, false), counter);
}

function assemble(
  kind: Database['kind'],
  writer: DataSource,
  reader: DataSource,
  writes: WriteQueue,
  counter: QueryCounter,
  checkpointer?: WalCheckpointer,
): Database {
  return {
    kind,
    reader,
    writer,
    writes,
    readQueries: () => counter.count,
    countQueries: (tally, fn) => counter.within(tally, fn),
    async ping() {
      try {
        await reader.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await writes.drain();
      await checkpointer?.stop();
      if (reader !== writer && reader.isInitialized) await reader.destroy();
      if (writer.isInitialized) await writer.destroy();
    },
  };
}
