// Keyset (seek) pagination: a page is found by seeking the index to the cursor's (sort value, id)
// position, never by OFFSET, so a page deep in a million rows costs what the first page costs.
// Nullable sort keys put NULLs last in either direction; the non-null and NULL parts are read as
// two index ranges, one after the other, so each stays a plain range scan. The statements are plain
// SQL (db/rows.ts): their text depends on the page's shape only, so each shape is prepared once.
import type { ObjectLiteral } from 'typeorm';

import { SqlParams, type RowReader } from './rows';

export interface Position {
  value: number | string | null;
  id: number;
}

export interface SortSpec {
  /** SQL expression of the sort key, e.g. `t.reward`. */
  expr: string;
  /** SQL expression of the tie-breaking id, e.g. `t.id`. */
  idExpr: string;
  desc: boolean;
  nullable: boolean;
}

export interface PageWindow {
  limit: number;
  after?: Position | null;
  before?: Position | null;
  /** true for last/before: read backwards from `before` (or the end). */
  backward: boolean;
}

/** A row as a page hands it out: the model, and the keyset position its cursor encodes. */
export interface Positioned<T> {
  node: T;
  position: Position;
}

export interface Page<T> {
  rows: T[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/** What a page reads from: rows of one table under the alias the expressions use, and the page's filter. */
export interface KeysetSource<T> {
  rows: RowReader<T>;
  alias: string;
  /** The filter's conditions (ANDed), their values added to `params` in the order they appear. */
  where(params: SqlParams): string[];
  /** Only these properties' columns (default: every column). */
  properties?: readonly string[];
  /** The FROM clause when it is more than the table under `alias` (a join); its values come before where's. */
  from?(params: SqlParams): string;
  /** Further select items beside the row's columns (e.g. a joined sort value). */
  select?: string;
}

type Segment = { nulls: boolean; from?: Position; reverse: boolean };

export async function keysetPage<T extends ObjectLiteral>(
  source: KeysetSource<T>,
  sort: SortSpec,
  window: PageWindow,
): Promise<Page<T>> {
  const segments = plan(sort, window);
  const want = window.limit + 1;
  const rows: T[] = [];
  for (const seg of segments) {
    if (rows.length >= want) break;
    rows.push(...(await readSegment(source, sort, seg, want - rows.length)));
  }
  const more = rows.length > window.limit;
  const page = rows.slice(0, window.limit);
  if (window.backward) {
    page.reverse();
    return { rows: page, hasPreviousPage: more, hasNextPage: Boolean(window.before) };
  }
  return { rows: page, hasNextPage: more, hasPreviousPage: Boolean(window.after) };
}

/** The segments to read, in reading order. Display order is: non-null values, then NULLs by id. */
function plan(sort: SortSpec, w: PageWindow): Segment[] {
  if (!w.backward) {
    const after = w.after ?? undefined;
    if (!sort.nullable) return [{ nulls: false, from: after, reverse: false }];
    if (after && after.value === null) return [{ nulls: true, from: after, reverse: false }];
    return [
      { nulls: false, from: after, reverse: false },
      { nulls: true, reverse: false },
    ];
  }
  const before = w.before ?? undefined;
  if (!sort.nullable) return [{ nulls: false, from: before, reverse: true }];
  if (before && before.value !== null) return [{ nulls: false, from: before, reverse: true }];
  return [
    { nulls: true, from: before, reverse: true },
    { nulls: false, reverse: true },
  ];
}

/** A segment's conditions and order, its values added to `params`. */
function segmentQuery<T>(source: KeysetSource<T>, sort: SortSpec, seg: Segment, params: SqlParams) {
  // Reading direction: the display direction, flipped when reading backwards.
  const desc = sort.desc !== seg.reverse;
  const cmp = desc ? '<' : '>';
  const dir = desc ? 'DESC' : 'ASC';
  const from = source.from ? source.from(params) : `${source.rows.table} ${source.alias}`;
  const where = source.where(params);
  let order: string;
  if (seg.nulls) {
    where.push(`${sort.expr} IS NULL`);
    if (seg.from) where.push(`${sort.idExpr} ${cmp} ${params.add(seg.from.id)}`);
    order = `${sort.idExpr} ${dir}`;
  } else {
    if (sort.nullable) where.push(`${sort.expr} IS NOT NULL`);
    if (seg.from)
      where.push(`(${sort.expr}, ${sort.idExpr}) ${cmp} (${params.add(seg.from.value)}, ${params.add(seg.from.id)})`);
    order = `${sort.expr} ${dir}, ${sort.idExpr} ${dir}`;
  }
  return `FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order}`;
}

async function readSegment<T extends ObjectLiteral>(
  source: KeysetSource<T>,
  sort: SortSpec,
  seg: Segment,
  limit: number,
): Promise<T[]> {
  const params = new SqlParams(source.rows.kind);
  const from = segmentQuery(source, sort, seg, params);
  const columns = source.rows.columns(source.alias, source.properties);
  const select = source.select ? `${columns}, ${source.select}` : columns;
  return source.rows.all(`SELECT ${select} ${from} LIMIT ${Math.trunc(limit)}`, params.values);
}

/**
 * The sum of `valueExpr` (an SQL expression on the source's alias) over the rows the page would hold,
 * computed by the database without reading the rows out: what a page will weigh, before it is read.
 */
export async function keysetPageSum<T extends ObjectLiteral>(
  source: KeysetSource<T>,
  sort: SortSpec,
  window: PageWindow,
  valueExpr: string,
): Promise<number> {
  let left = window.limit;
  let total = 0;
  for (const seg of plan(sort, window)) {
    if (left <= 0) break;
    const params = new SqlParams(source.rows.kind);
    const from = segmentQuery(source, sort, seg, params);
    const [row] = await source.rows.aggregate(
      `SELECT COUNT(1) AS c, COALESCE(SUM(v), 0) AS n FROM (SELECT ${valueExpr} AS v ${from} LIMIT ${Math.trunc(left)}) page`,
      params.values,
    );
    left -= row.c;
    total += row.n;
  }
  return total;
}
