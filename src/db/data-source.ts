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
import { QueryCounter, type QueryTally } from './query-counter';
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
  /** How many statements reads have run so far (every caller, background work included). */
  readQueries(): number;
  /** Runs fn with `tally` counting the read statements fn itself runs (and what it starts), nothing else. */
  countQueries<T>(tally: QueryTally, fn: () => T): T;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

function sqliteOptions(path: string, readonly: boolean, counter?: QueryCounter): DataSourceOptions {
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
    timeout: 5000,
    statementCacheSize: 200,
    prepareDatabase: (db: { pragma(s: string): unknown }) => {
      db.pragma('foreign_keys = ON');
      if (!readonly) db.pragma('synchronous = NORMAL');
    },
  } as DataSourceOptions;
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.kind === 'sqlite') {
    const path = config.path === ':memory:' ? config.path : resolve(config.path);
    if (path === ':memory:')
      throw new Error(
        'DATABASE_URL: an in-memory SQLite database cannot be shared by the reader and writer; use a file',
      );
    mkdirSync(dirname(path), { recursive: true });
    const writer = await new DataSource(sqliteOptions(path, false)).initialize();
    try {
      await writer.runMigrations({ transaction: 'each' });
      await ensureSqliteTriggers(writer);
      const counter = new QueryCounter();
      const reader = await new DataSource(sqliteOptions(path, true, counter)).initialize();
      return assemble('sqlite', writer, reader, new WriteQueue(writer, true), counter);
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
      if (reader !== writer && reader.isInitialized) await reader.destroy();
      if (writer.isInitialized) await writer.destroy();
    },
  };
}
