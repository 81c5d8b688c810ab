// Opens the database Atelier stores everything in: an SQLite file by default, PostgreSQL when
// configured. Runs the migrations at start (synchronize stays off).
//
// SQLite has one writer, and TypeORM's better-sqlite3 driver shares one connection for the whole
// DataSource: a read made there while a write transaction is open would see uncommitted rows. So on
// SQLite all writes go through one DataSource behind the serialized write queue, and reads use a
// second, read-only connection that only ever sees committed data (WAL mode allows both at once).
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { DataSource, type DataSourceOptions } from 'typeorm';

import type { DatabaseConfig } from '../config';
import { entities } from './entities';
import { migrations } from './migrations';
import { QueryCounter } from './query-counter';
import { beginImmediately, type LockWait } from './sqlite-locking';
import { ensureSqliteTriggers } from './sqlite-triggers';
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
  /** How many statements reads have run so far. */
  readQueries(): number;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

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
      if (!readonly) db.pragma('synchronous = NORMAL');
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
    try {
      beginImmediately(writer);
      // Start-up may wait in SQLite (nothing else runs yet); from then on writes wait in the queue, asynchronously.
      await writer.runMigrations({ transaction: 'each' });
      await ensureSqliteTriggers(writer);
      await writer.query('PRAGMA busy_timeout = 0');
      const counter = new QueryCounter();
      const reader = await new DataSource(sqliteOptions(path, true, counter)).initialize();
      return assemble('sqlite', writer, reader, new WriteQueue(writer, true, lockWait), counter);
    } catch (err) {
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
): Database {
  return {
    kind,
    reader,
    writer,
    writes,
    readQueries: () => counter.count,
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
      if (reader !== writer && reader.isInitialized) await reader.destroy();
      if (writer.isInitialized) await writer.destroy();
    },
  };
}
