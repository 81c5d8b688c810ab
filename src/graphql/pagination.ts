// Relay connection arguments to a keyset window, and opaque cursors. A cursor carries the sort key
// and id of a row plus a fingerprint of the query it came from: one that is malformed, forged or
// made for another ordering or filter is refused with a clear error instead of a wrong page.
import { createHash } from 'node:crypto';

import type { Page, PageWindow, Position, Positioned } from '../db/keyset';
import { ValidationError } from '../errors';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface CursorShape {
  /** The ordering, e.g. "reward:desc". */
  order: string;
  /** The filter and scope the page belongs to. */
  query: unknown;
  valueKind: 'number' | 'string';
}

function fingerprint(shape: CursorShape): string {
  return createHash('sha256')
    .update(JSON.stringify([shape.order, shape.query]))
    .digest('base64url')
    .slice(0, 12);
}

/** Encodes cursors of one query: its fingerprint (a SHA-256) is computed once, not once per row. */
export function cursorEncoder(shape: CursorShape): (pos: Position) => string {
  const q = fingerprint(shape);
  return (pos) => Buffer.from(JSON.stringify({ o: shape.order, q, v: pos.value, i: pos.id })).toString('base64url');
}

export function encodeCursor(shape: CursorShape, pos: Position): string {
  return cursorEncoder(shape)(pos);
}

export function decodeCursor(shape: CursorShape, cursor: string, field: string): Position {
  const bad = (why: string) =>
    ValidationError.of(field, 'invalid_cursor', `this cursor ${why}; start again from the first page`);
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad('is not one Atelier issued');
  }
  const c = raw as { o?: unknown; q?: unknown; v?: unknown; i?: unknown };
  if (
    !c ||
    typeof c !== 'object' ||
    typeof c.o !== 'string' ||
    typeof c.q !== 'string' ||
    !Number.isSafeInteger(c.i) ||
    (c.i as number) < 1
  ) {
    throw bad('is not one Atelier issued');
  }
  // Ordering and filter first: a cursor of another ordering carries another kind of sort value, and
  // must say where it belongs rather than look forged.
  if (c.o !== shape.order) throw bad('belongs to a different ordering');
  if (c.q !== fingerprint(shape)) throw bad('belongs to a different filter');
  const valueOk =
    c.v === null ||
    (shape.valueKind === 'number'
      ? typeof c.v === 'number' && Number.isFinite(c.v)
      : typeof c.v === 'string' && c.v.length <= 64);
  if (!valueOk) throw bad('is not one Atelier issued');
  return { value: c.v as Position['value'], id: c.i as number };
}

export function pageWindow(args: ConnectionArgs, shape: CursorShape): PageWindow {
  const { first, last, after, before } = args;
  if (first != null && last != null)
    throw ValidationError.of('last', 'exclusive', 'use first/after or last/before, not both');
  if (after != null && before != null)
    throw ValidationError.of('before', 'exclusive', 'use first/after or last/before, not both');
  const backward = last != null || before != null;
  const size = (backward ? last : first) ?? DEFAULT_PAGE_SIZE;
  const field = backward ? 'last' : 'first';
  if (!Number.isInteger(size) || size < 0)
    throw ValidationError.of(field, 'too_small', `${field} must be between 0 and ${MAX_PAGE_SIZE}`);
  if (size > MAX_PAGE_SIZE)
    throw ValidationError.of(field, 'too_big', `${field} must be at most ${MAX_PAGE_SIZE}, got ${size}`);
  return {
    limit: size,
    backward,
    after: after != null ? decodeCursor(shape, after, 'after') : null,
    before: before != null ? decodeCursor(shape, before, 'before') : null,
  };
}

/** An edge whose cursor is encoded only when a client asks for it (a dashboard listing runs asks for none). */
class Edge<N> {
  constructor(
    readonly node: N,
    private readonly position: Position,
    private readonly encode: (pos: Position) => string,
  ) {}

  get cursor(): string {
    return this.encode(this.position);
  }
}

/** A Relay connection from a keyset page; cursors and totalCount are computed only when asked for. */
export function toConnection<N>(page: Page<Positioned<N>>, shape: CursorShape, totalCount: () => Promise<number>) {
  let encoder: ((pos: Position) => string) | undefined;
  // The query's fingerprint (a SHA-256) is computed once, and only if some cursor is asked for.
  const encode = (pos: Position) => (encoder ??= cursorEncoder(shape))(pos);
  const edges: Array<{ readonly cursor: string; readonly node: N }> = page.rows.map(
    (row) => new Edge(row.node, row.position, encode),
  );
  return {
    edges,
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      get startCursor() {
        return edges[0]?.cursor ?? null;
      },
      get endCursor() {
        return edges[edges.length - 1]?.cursor ?? null;
      },
    },
    totalCount,
  };
}
