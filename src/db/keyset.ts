// Keyset (seek) pagination: a page is found by seeking the index to the cursor's (sort value, id)
// position, never by OFFSET, so a page deep in a million rows costs what the first page costs.
// Nullable sort keys put NULLs last in either direction; the non-null and NULL parts are read as
// two index ranges, one after the other, so each stays a plain range scan.
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

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

type Segment = { nulls: boolean; from?: Position; reverse: boolean };

export async function keysetPage<T extends ObjectLiteral>(
  base: () => SelectQueryBuilder<T>,
  sort: SortSpec,
  window: PageWindow,
): Promise<Page<T>> {
  const segments = plan(sort, window);
  const want = window.limit + 1;
  const rows: T[] = [];
  for (const seg of segments) {
    if (rows.length >= want) break;
    rows.push(...(await readSegment(base(), sort, seg, want - rows.length)));
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

async function readSegment<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, sort: SortSpec, seg: Segment, limit: number): Promise<T[]> {
  // Reading direction: the display direction, flipped when reading backwards.
  const desc = sort.desc !== seg.reverse;
  const cmp = desc ? '<' : '>';
  const dir = desc ? 'DESC' : 'ASC';
  if (seg.nulls) {
    qb.andWhere(`${sort.expr} IS NULL`);
    if (seg.from) qb.andWhere(`${sort.idExpr} ${cmp} :keysetId`, { keysetId: seg.from.id });
    qb.orderBy(sort.idExpr, dir);
  } else {
    if (sort.nullable) qb.andWhere(`${sort.expr} IS NOT NULL`);
    if (seg.from) {
      qb.andWhere(`(${sort.expr}, ${sort.idExpr}) ${cmp} (:keysetValue, :keysetId)`, { keysetValue: seg.from.value, keysetId: seg.from.id });
    }
    qb.orderBy(sort.expr, dir).addOrderBy(sort.idExpr, dir);
  }
  return qb.limit(limit).getMany();
}
