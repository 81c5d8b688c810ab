// Plain-SQL reads of entity rows, for the hot read paths (keyset pages, counts, loads by id). The
// select list comes from TypeORM's metadata, each column aliased to its property name, so a row
// comes back from the driver already in the entity's shape (a column added to an entity is read
// here too); the statement text depends only on the query's shape, never on its values, so SQLite's
// reader runs one prepared statement per shape from TypeORM's statement cache. The query builder
// cost more than the statements themselves on these paths: building the SQL (it rewrites property
// names over the whole query text) and hydrating every row, column by column.
import type { DataSource, EntityMetadata, EntitySchema, ObjectLiteral } from 'typeorm';

import type { DbKind } from './data-source';

type ColumnMetadata = EntityMetadata['columns'][number];

/**
 * Statement parameters with the database's placeholders (`?` on SQLite, `$1`… on PostgreSQL). Add
 * them in the order their placeholders appear in the statement text: SQLite's are positional.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(private readonly kind: DbKind) {}

  add(value: unknown): string {
    this.values.push(value);
    return this.kind === 'postgres' ? `$${this.values.length}` : '?';
  }

  /** Placeholders for the items of an IN list. */
  list(values: readonly unknown[]): string {
    return values.map((v) => this.add(v)).join(', ');
  }
}

/**
 * Column types that both drivers hand back as the entity holds them: TypeORM's prepareHydratedValue
 * leaves them as they are, so rows of entities made only of these are used as the driver returns them.
 */
const AS_RETURNED = new Set(['integer', 'int', 'varchar', 'text', 'double precision']);

export interface RowReader<T> {
  kind: DbKind;
  /** The table's name, quoted. */
  table: string;
  /**
   * The select list: every column as `alias.column AS "property"`, or only the given properties'
   * columns (a page whose selection needs a few columns reads those alone: each column read costs).
   */
  columns(alias: string, properties?: readonly string[]): string;
  /** Runs a SELECT of columns(alias) (on the reader) and returns the rows as entities. */
  all(sql: string, params: readonly unknown[]): Promise<T[]>;
  /** Runs `SELECT COUNT(1) AS n …` and returns n. */
  count(sql: string, params: readonly unknown[]): Promise<number>;
  /** Runs `SELECT <count> AS c, <sum> AS n …` and returns each row's c and n as numbers. */
  aggregate(sql: string, params: readonly unknown[]): Promise<{ c: number; n: number }[]>;
}

/** Reads rows of one entity through a DataSource (its statements are counted as the DataSource's reads). */
export function rowReader<T extends ObjectLiteral>(
  ds: DataSource,
  kind: DbKind,
  entity: EntitySchema<T>,
): RowReader<T> {
  const metadata = ds.getMetadata(entity);
  const driver = ds.driver;
  const columns = metadata.columns.filter((c) => !c.isVirtual);
  const q = (name: string) => driver.escape(name);
  // Columns whose values TypeORM would convert on the way in: converted here the same way.
  const converted: ColumnMetadata[] = columns.filter(
    (c) => c.transformer || typeof c.type !== 'string' || !AS_RETURNED.has(c.type),
  );
  const hydrate = converted.length
    ? (row: Record<string, unknown>) => {
        for (const c of converted)
          if (c.propertyName in row) row[c.propertyName] = driver.prepareHydratedValue(row[c.propertyName], c);
        return row as T;
      }
    : null;
  const selectLists = new Map<string, string>();
  return {
    kind,
    table: q(metadata.tableName),
    columns(alias, properties) {
      const key = properties ? `${alias}:${properties.join(',')}` : alias;
      let list = selectLists.get(key);
      if (!list) {
        const chosen = properties ? columns.filter((c) => properties.includes(c.propertyName)) : columns;
        if (properties && chosen.length !== new Set(properties).size)
          throw new Error(`${metadata.tableName} has no column for some of ${properties.join(', ')}`);
        list = chosen.map((c) => `${alias}.${q(c.databaseName)} AS ${q(c.propertyName)}`).join(', ');
        // Bounded: the key depends on the shape of a selection, never on values.
        if (selectLists.size < 1000) selectLists.set(key, list);
      }
      return list;
    },
    async all(sql, params) {
      const rows: Array<Record<string, unknown>> = await ds.query(sql, params as unknown[]);
      return hydrate ? rows.map(hydrate) : (rows as T[]);
    },
    async count(sql, params) {
      const rows: Array<{ n: number | string }> = await ds.query(sql, params as unknown[]);
      return Number(rows[0]?.n ?? 0);
    },
    async aggregate(sql, params) {
      const rows: Array<{ c: number | string; n: number | string | null }> = await ds.query(sql, params as unknown[]);
      return rows.map((r) => ({ c: Number(r.c ?? 0), n: Number(r.n ?? 0) }));
    },
  };
}
