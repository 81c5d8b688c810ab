// Queries over trajectories: keyset pages of one run's trajectories, loads by id, and the insert
// that recording uses inside its write transaction.
import type BetterSqlite3 from 'better-sqlite3';
import { Between, In, type DataSource, type EntityManager, type EntityMetadata, type EntitySchema } from 'typeorm';

import type { DbKind } from '../db/data-source';
import {
  TrajectoryArtEntity,
  TrajectoryEntity,
  TrajectoryGroupEntity,
  type TrajectoryGroupRow,
  type TrajectoryRow,
} from '../db/entities';
import { keysetPage, keysetPageSum, type Page, type PageWindow } from '../db/keyset';
import { rowReader, SqlParams, type RowReader } from '../db/rows';

export interface TrajectoryFilter {
  step?: number | null;
  /** train, val, or any split name. */
  split?: string | null;
  rewardMin?: number | null;
  rewardMax?: number | null;
  /** true: only trajectories with a reward; false: only those without. */
  hasReward?: boolean | null;
}

export type TrajectoryOrderField = 'createdAt' | 'reward';
export interface TrajectoryOrder {
  field: TrajectoryOrderField;
  desc: boolean;
}

const SORT_EXPR: Record<TrajectoryOrderField, { expr: string; nullable: boolean }> = {
  createdAt: { expr: 't.created_at', nullable: false },
  reward: { expr: 't.reward', nullable: true },
};

export class TrajectoriesRepo {
  private readonly rows: RowReader<TrajectoryRow>;

  constructor(
    private readonly ds: DataSource,
    private readonly kind: DbKind,
  ) {
    this.rows = rowReader(ds, kind, TrajectoryEntity);
  }

  /** The run and filter's conditions on alias `t`. */
  private where(runId: number, filter: TrajectoryFilter): (p: SqlParams) => string[] {
    return (p) => {
      const c = [`t.run_id = ${p.add(runId)}`];
      if (filter.split != null) c.push(`t.split = ${p.add(filter.split)}`);
      if (filter.step != null) c.push(`t.step = ${p.add(filter.step)}`);
      if (filter.rewardMin != null) c.push(`t.reward >= ${p.add(filter.rewardMin)}`);
      if (filter.rewardMax != null) c.push(`t.reward <= ${p.add(filter.rewardMax)}`);
      if (filter.hasReward === true) c.push('t.reward IS NOT NULL');
      if (filter.hasReward === false) c.push('t.reward IS NULL');
      return c;
    };
  }

  page(
    runId: number,
    filter: TrajectoryFilter,
    order: TrajectoryOrder,
    window: PageWindow,
  ): Promise<Page<TrajectoryRow>> {
    return keysetPage(
      { rows: this.rows, alias: 't', where: this.where(runId, filter) },
      { ...SORT_EXPR[order.field], idExpr: 't.id', desc: order.desc },
      window,
    );
  }

  /**
   * At least how many characters of message content the page holds, summed by the database from the
   * stored JSON without reading the rows out (SQLite: JSON1; its character count never exceeds the
   * UTF-16 length an answer counts). 0 where it cannot tell (PostgreSQL reads without blocking anyone).
   */
  async pageContentChars(
    runId: number,
    filter: TrajectoryFilter,
    order: TrajectoryOrder,
    window: PageWindow,
  ): Promise<number> {
    if (this.kind !== 'sqlite') return 0;
    try {
      return await keysetPageSum(
        { rows: this.rows, alias: 't', where: this.where(runId, filter) },
        { ...SORT_EXPR[order.field], idExpr: 't.id', desc: order.desc },
        window,
        // One walk of each row's JSON (json_tree), the string `content` of each message (its parent is
        // `$[n]`): less CPU than json_each with json_extract, which parses every message again.
        `(SELECT COALESCE(SUM(LENGTH(j.atom)), 0) FROM json_tree(t.messages) j WHERE j.key = 'content' AND j.type = 'text' AND j.path GLOB '$[[][0-9]*[]]' AND NOT j.path GLOB '$[[]*[^0-9]*[]]')`,
      );
    } catch {
      return 0; // messages that are not a JSON array: the answer counts them as it resolves
    }
  }

  /**
   * At most how many characters of message content the page holds: the bytes of its stored messages
   * JSON (UTF-8 takes at least as many bytes as UTF-16 takes units, and the JSON holds each content
   * string, escaped, and more), which SQLite reads without parsing them. Infinity where it cannot tell.
   */
  async pageStoredChars(
    runId: number,
    filter: TrajectoryFilter,
    order: TrajectoryOrder,
    window: PageWindow,
  ): Promise<number> {
    if (this.kind !== 'sqlite') return Infinity;
    return keysetPageSum(
      { rows: this.rows, alias: 't', where: this.where(runId, filter) },
      { ...SORT_EXPR[order.field], idExpr: 't.id', desc: order.desc },
      window,
      'OCTET_LENGTH(t.messages)',
    );
  }

  count(runId: number, filter: TrajectoryFilter): Promise<number> {
    const p = new SqlParams(this.kind);
    return this.rows.count(
      `SELECT COUNT(1) AS n FROM ${this.rows.table} t WHERE ${this.where(runId, filter)(p).join(' AND ')}`,
      p.values,
    );
  }

  /** A step's train trajectories in the order they were stored, raw choices included (the pipeline's working set). */
  forStep(runId: number, step: number, split = 'train'): Promise<TrajectoryRow[]> {
    return this.ds.getRepository(TrajectoryEntity).find({ where: { runId, step, split }, order: { id: 'ASC' } });
  }

  /** The trajectories of a split and step whose ART groups have an index in [from, to]. */
  async inGroups(runId: number, split: string, step: number, from: number, to: number): Promise<TrajectoryRow[]> {
    const groups = await this.ds
      .getRepository(TrajectoryGroupEntity)
      .find({ select: { id: true }, where: { runId, split, step, groupIndex: Between(from, to) } });
    if (groups.length === 0) return [];
    return this.ds
      .getRepository(TrajectoryEntity)
      .find({ where: { runId, groupId: In(groups.map((g) => g.id)) }, order: { id: 'ASC' } });
  }

  async artOf(ids: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK)
      for (const r of await this.ds
        .getRepository(TrajectoryArtEntity)
        .findBy({ trajectoryId: In(ids.slice(i, i + LOOKUP_CHUNK) as number[]) }))
        out.set(r.trajectoryId, r.art);
    return out;
  }

  async groupsOf(ids: readonly number[]): Promise<Map<number, TrajectoryGroupRow>> {
    const rows = ids.length
      ? await this.ds.getRepository(TrajectoryGroupEntity).findBy({ id: In(ids as number[]) })
      : [];
    return new Map(rows.map((r) => [r.id, r]));
  }

  findByUuid(uuid: string): Promise<TrajectoryRow | null> {
    return this.ds.getRepository(TrajectoryEntity).findOneBy({ uuid });
  }

  async findByIds(ids: readonly number[]): Promise<TrajectoryRow[]> {
    if (ids.length === 0) return [];
    const p = new SqlParams(this.kind);
    return this.rows.all(
      `SELECT ${this.rows.columns('t')} FROM ${this.rows.table} t WHERE t.id IN (${p.list(ids)})`,
      p.values,
    );
  }
}

export type NewTrajectoryRow = Omit<TrajectoryRow, 'id'>;

const INSERT_CHUNK = 200;
const LOOKUP_CHUNK = 500;
type Prepared = { statement: BetterSqlite3.Statement; columns: EntityMetadata['columns'] };
const insertStatements = new WeakMap<BetterSqlite3.Database, Map<string, Prepared>>();

/** The better-sqlite3 connection the caller's write transaction is open on (TypeORM's driver has exactly one). */
function sqliteConnection(em: EntityManager): BetterSqlite3.Database {
  if (!em.queryRunner?.isTransactionActive) throw new Error('inserts run inside a write transaction');
  return (em.connection.driver as unknown as { databaseConnection: BetterSqlite3.Database }).databaseConnection;
}

/**
 * One prepared INSERT of every stored column of the entity (all but a generated id), built from
 * TypeORM's metadata so a column added to the entity is written here too.
 */
function sqliteInsert(em: EntityManager, connection: BetterSqlite3.Database, entity: EntitySchema<never>): Prepared {
  let byEntity = insertStatements.get(connection);
  if (!byEntity) insertStatements.set(connection, (byEntity = new Map()));
  const metadata = em.connection.getMetadata(entity);
  let insert = byEntity.get(metadata.name);
  if (!insert) {
    const columns = metadata.columns.filter((c) => !c.isGenerated);
    const driver = em.connection.driver;
    const sql = `INSERT INTO ${driver.escape(metadata.tableName)} (${columns.map((c) => driver.escape(c.databaseName)).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    byEntity.set(metadata.name, (insert = { statement: connection.prepare(sql), columns }));
  }
  return insert;
}

/**
 * Inserts rows of an entity through its prepared statement on SQLite, each converted as the query
 * builder converts it (an absent value is the column's default, or NULL where it has none); returns
 * each row's id (its lastInsertRowid), in order.
 */
function sqliteInsertRows<T extends object>(em: EntityManager, entity: EntitySchema<never>, rows: T[]): number[] {
  const driver = em.connection.driver;
  const { statement, columns } = sqliteInsert(em, sqliteConnection(em), entity);
  const values = (r: T) =>
    columns.map((c) => {
      const value = c.getEntityValue(r);
      return driver.preparePersistentValue(value === undefined ? c.default : value, c) ?? null;
    });
  return rows.map((r) => Number(statement.run(...values(r)).lastInsertRowid));
}

/** Rows per multi-row INSERT on PostgreSQL: the parameters stay far under its 65,535. */
const ART_CHUNK = 1000;
const GROUP_CHUNK = 500;

/** Inserts ART JSON rows of stored trajectories inside the caller's write transaction. */
export async function insertTrajectoryArt(
  em: EntityManager,
  kind: DbKind,
  rows: Array<{ trajectoryId: number; art: string }>,
): Promise<void> {
  if (kind === 'sqlite') return void sqliteInsertRows(em, TrajectoryArtEntity as EntitySchema<never>, rows);
  for (let i = 0; i < rows.length; i += ART_CHUNK)
    await em
      .createQueryBuilder()
      .insert()
      .into(TrajectoryArtEntity)
      .values(rows.slice(i, i + ART_CHUNK))
      .updateEntity(false)
      .execute();
}

/** Inserts a step's new groups (one run, split and step) inside the caller's write transaction; their ids by group index. */
export async function insertTrajectoryGroups(
  em: EntityManager,
  kind: DbKind,
  rows: Array<Omit<TrajectoryGroupRow, 'id'>>,
): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  if (rows.length === 0) return ids;
  if (kind === 'sqlite') {
    sqliteInsertRows(em, TrajectoryGroupEntity as EntitySchema<never>, rows).forEach((id, i) =>
      ids.set(rows[i].groupIndex, id),
    );
    return ids;
  }
  const repo = em.getRepository(TrajectoryGroupEntity);
  for (let i = 0; i < rows.length; i += GROUP_CHUNK)
    await repo
      .createQueryBuilder()
      .insert()
      .values(rows.slice(i, i + GROUP_CHUNK))
      .updateEntity(false)
      .execute();
  const { runId, split, step } = rows[0];
  for (let i = 0; i < rows.length; i += LOOKUP_CHUNK)
    for (const g of await repo.find({
      select: { id: true, groupIndex: true },
      where: { runId, split, step, groupIndex: In(rows.slice(i, i + LOOKUP_CHUNK).map((r) => r.groupIndex)) },
    }))
      ids.set(g.groupIndex, g.id);
  return ids;
}

/**
 * Inserts new rows inside the caller's write transaction and returns their ids, ascending.
 * On SQLite the rows go through one prepared statement on the driver's connection, the one the
 * transaction is open on, and each row's id is its lastInsertRowid: much cheaper than building
 * multi-row INSERTs with the query builder and reading the ids back. PostgreSQL inserts in chunks
 * through the query builder.
 */
export async function insertTrajectories(em: EntityManager, kind: DbKind, rows: NewTrajectoryRow[]): Promise<number[]> {
  if (kind === 'sqlite') return sqliteInsertRows(em, TrajectoryEntity as EntitySchema<never>, rows);
  const repo = em.getRepository(TrajectoryEntity);
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await repo
      .createQueryBuilder()
      .insert()
      .into(TrajectoryEntity)
      .values(rows.slice(i, i + INSERT_CHUNK))
      .updateEntity(false)
      .execute();
  }
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += LOOKUP_CHUNK) {
    const stored = await repo.find({
      select: { id: true },
      where: { uuid: In(rows.slice(i, i + LOOKUP_CHUNK).map((r) => r.uuid)) },
    });
    ids.push(...stored.map((s) => s.id));
  }
  return ids.sort((a, b) => a - b);
}
