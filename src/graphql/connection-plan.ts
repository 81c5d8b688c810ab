// Cached execution plans for the connections clients read most (a run's trajectories, the runs list):
// executing a page's edges field by field through graphql-js (each field with its resolve info,
// resolver and completion) costs several times the SQL that read the rows. When an operation's
// `<field> { edges { … } }` selects only fields its plan knows (no fragments or directives inside
// edges, arguments only where the plan reads them), the operation runs without its edges, and the
// edges are written straight to JSON from the page the resolver read, by a writer compiled once per
// document, then put in the answer where graphql-js would have put them (raw-json.ts). Any other
// operation runs as it always did, and so does a planned one whose data has a value graphql-js would
// refuse (an Int out of range, a date that is not one): it is run again unplanned, on the page
// already read, so both ways give the same answer and the same errors.
//
// This module is the machinery and the writers of plain values; each connection's plan (which fields,
// read how) lives beside its resolver: trajectories/page-plan.ts, runs/runs-list-plan.ts.
import {
  getOperationAST,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLResolveInfo,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

import { chargeAnswer } from './answer-budget';
import { RawJson, stringifyWithRawJson } from './raw-json';

/** Thrown by a writer on a value graphql-js would not serialize as it stands: the operation runs unplanned. */
export class Unplannable extends Error {}

/** What writing counted, as security/response-size.ts counts the strings and JSON values resolvers return. */
export interface Tally {
  bytes: number;
}
export type Writer<S> = (source: S, tally: Tally) => string;
/** Compiles a field's writer from the field as selected; null when it cannot be planned. */
export type FieldPlan<S> = (field: FieldNode) => Writer<S> | null;

/** A field without arguments or a selection set, written by `write`. */
export const leaf =
  <S>(write: Writer<S>): FieldPlan<S> =>
  (field) =>
    field.selectionSet || field.arguments?.length ? null : write;

export const string = <S>(get: (s: S) => unknown, nullable = false) =>
  leaf<S>((s, tally) => {
    const v = get(s);
    if (v == null && nullable) return 'null';
    if (typeof v !== 'string') throw new Unplannable();
    tally.bytes += v.length;
    return JSON.stringify(v);
  });

export const int = <S>(get: (s: S) => unknown, nullable = false) =>
  leaf<S>((s) => {
    const v = get(s);
    if (v == null && nullable) return 'null';
    if (!Number.isInteger(v) || (v as number) > 2147483647 || (v as number) < -2147483648) throw new Unplannable();
    return String(v);
  });

export const float = <S>(get: (s: S) => unknown, nullable = false) =>
  leaf<S>((s) => {
    const v = get(s);
    if (v == null && nullable) return 'null';
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Unplannable();
    return JSON.stringify(v);
  });

export const boolean = <S>(get: (s: S) => boolean) => leaf<S>((s) => (get(s) ? 'true' : 'false'));

/** A DateTime (scalars.ts): a Date as its ISO text, counted as 24 characters as response-size counts it. */
export const dateTime = <S>(get: (s: S) => unknown, nullable = false) =>
  leaf<S>((s, tally) => {
    const d = get(s);
    if (d == null && nullable) return 'null';
    if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new Unplannable();
    tally.bytes += 24;
    return `"${d.toISOString()}"`;
  });

/**
 * An enum, from the values its definition maps its names to: the stored value's name; a value the
 * enum does not have is graphql-js's error to give.
 */
export const enumValue = <S>(get: (s: S) => unknown, values: Readonly<Record<string, { value: unknown }>>) => {
  const names = new Map(Object.entries(values).map(([name, v]) => [v.value, name]));
  return leaf<S>((s) => {
    const name = names.get(get(s));
    if (name === undefined) throw new Unplannable();
    return JSON.stringify(name);
  });
};

/** The JSON scalar serializes values as they are; response-size counts an object as its JSON text. */
export const json = <S>(get: (s: S) => unknown, nullable: boolean) =>
  leaf<S>((s, tally) => {
    const v = get(s);
    if (v == null) {
      if (!nullable) throw new Unplannable();
      return 'null';
    }
    const text = JSON.stringify(v);
    tally.bytes += typeof v === 'object' ? text.length : typeof v === 'string' ? v.length : 8;
    return text;
  });

/** A [String!]! list, each string counted. */
export const stringList = <S>(get: (s: S) => unknown) =>
  leaf<S>((s, tally) => {
    const items = get(s);
    if (!Array.isArray(items)) throw new Unplannable();
    let text = '[';
    for (let i = 0; i < items.length; i++) {
      const v: unknown = items[i];
      if (typeof v !== 'string') throw new Unplannable();
      tally.bytes += v.length;
      text += `${i ? ',' : ''}${JSON.stringify(v)}`;
    }
    return `${text}]`;
  });

/** An object's writer: its fields in the order selected, under their response keys, each key once. */
export function object<S>(typename: string, fields: Record<string, FieldPlan<S>>): FieldPlan<S> {
  return (field) => {
    const set = field.selectionSet;
    if (!set || field.arguments?.length) return null;
    const keys: string[] = [];
    const writers: Writer<S>[] = [];
    for (const sel of set.selections) {
      if (sel.kind !== Kind.FIELD || sel.directives?.length) return null;
      const key = `${JSON.stringify(sel.alias?.value ?? sel.name.value)}:`;
      if (keys.includes(key)) return null;
      const write =
        sel.name.value === '__typename'
          ? sel.selectionSet || sel.arguments?.length
            ? null
            : () => JSON.stringify(typename)
          : Object.hasOwn(fields, sel.name.value)
            ? fields[sel.name.value](sel)
            : null;
      if (!write) return null;
      keys.push(key);
      writers.push(write);
    }
    return (s, tally) => {
      let text = '{';
      for (let i = 0; i < writers.length; i++) text += `${i ? ',' : ''}${keys[i]}${writers[i](s, tally)}`;
      return `${text}}`;
    };
  };
}

/** An object field read from the parent's `get(s)`; null there when nullable. */
export const nested =
  <S, T>(get: (s: S) => T | null | undefined, plan: FieldPlan<T>, nullable = false): FieldPlan<S> =>
  (field) => {
    const write = plan(field);
    if (!write) return null;
    return (s, tally) => {
      const v = get(s);
      if (v == null) {
        if (!nullable) throw new Unplannable();
        return 'null';
      }
      return write(v, tally);
    };
  };

export const list =
  <S, T>(get: (s: S) => readonly T[], item: FieldPlan<T>): FieldPlan<S> =>
  (field) => {
    const write = item(field);
    if (!write) return null;
    return (s, tally) => {
      const items = get(s);
      let text = '[';
      for (let i = 0; i < items.length; i++) text += `${i ? ',' : ''}${write(items[i], tally)}`;
      return `${text}]`;
    };
  };

/** A connection's page as its resolver returns it: what the edges are written from. */
interface PlannedConnection {
  edges: readonly unknown[];
}

/** The plan of one kind of connection: its root field, and how its edges are written. */
export interface ConnectionPlan<S> {
  /** The root query field (e.g. `runs`). */
  field: string;
  /** Compiles the writer of one edge from the `edges` field as selected; null when it cannot be planned. */
  edge: FieldPlan<S>;
  /**
   * The writer's sources for the page's edges, loaded before writing (the runs list's tags and
   * summaries, through the operation's loaders); the edges themselves when absent.
   */
  prepare?: (edges: readonly unknown[], context: object, edgesField: FieldNode) => Promise<readonly S[]>;
}

/** One planned root field under its response key. */
interface RootPlan {
  /** The field as the operation wrote it, edges included (what the resolver's reservation reads). */
  node: FieldNode;
  /** The connection's response keys in the order selected, and which one is edges. */
  keys: string[];
  edgesKey: string;
  edgesField: FieldNode;
  writeEdge: Writer<unknown>;
  connection: ConnectionPlan<unknown>;
}

interface Plan {
  /** The operation without the planned edges: what graphql-js executes. */
  document: DocumentNode;
  roots: Map<string, RootPlan>;
}

const keyOf = (f: FieldNode) => f.alias?.value ?? f.name.value;

/** The plan of one root field, and the field as executed (without its edges); null when it cannot be planned. */
function planRoot(
  field: FieldNode,
  connections: ReadonlyMap<string, ConnectionPlan<unknown>>,
): { plan: RootPlan; executed: FieldNode } | null {
  const connection = connections.get(field.name.value);
  if (!connection || field.directives?.length || !field.selectionSet) return null;
  const keys: string[] = [];
  let edges: FieldNode | undefined;
  for (const sel of field.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || sel.directives?.length) return null;
    const key = keyOf(sel);
    if (keys.includes(key)) return null;
    keys.push(key);
    if (sel.name.value === 'edges') {
      if (edges || sel.arguments?.length) return null;
      edges = sel;
    }
  }
  if (!edges) return null;
  const writeEdge = connection.edge(edges);
  if (!writeEdge) return null;
  const rest = field.selectionSet.selections.filter((s) => s !== edges);
  return {
    plan: { node: field, keys, edgesKey: keyOf(edges), edgesField: edges, writeEdge, connection },
    executed: { ...field, selectionSet: { ...field.selectionSet, selections: rest } },
  };
}

function compile(
  document: DocumentNode,
  operationName: string | null | undefined,
  connections: ReadonlyMap<string, ConnectionPlan<unknown>>,
): Plan | null {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation || operation.operation !== 'query') return null;
  const roots = new Map<string, RootPlan>();
  const keys = new Set<string>();
  const selections = operation.selectionSet.selections.map((sel) => {
    // Fragments at the root could select a planned field again (merged by graphql-js): not planned.
    if (sel.kind !== Kind.FIELD) keys.add('');
    else {
      const key = keyOf(sel);
      if (keys.has(key)) keys.add('');
      keys.add(key);
      const planned = planRoot(sel, connections);
      if (planned) {
        roots.set(key, planned.plan);
        return planned.executed;
      }
    }
    return sel;
  });
  if (roots.size === 0 || keys.has('')) return null;
  const executed = { ...operation, selectionSet: { ...operation.selectionSet, selections } };
  return {
    document: { ...document, definitions: document.definitions.map((d) => (d === operation ? executed : d)) },
    roots,
  };
}

interface Running {
  plan: Plan;
  /** The pages the planned fields' resolvers read, by response key. */
  pages: Map<string, PlannedConnection>;
  /** Running again unplanned: the resolver hands back the page it read the first time. */
  unplanned: boolean;
}

const running = new WeakMap<object, Running>();

function rootPlanOf(context: unknown, info: GraphQLResolveInfo): { run: Running; root: RootPlan } | null {
  if (info.path.prev !== undefined || typeof context !== 'object' || context === null) return null;
  const run = running.get(context);
  const root = run?.plan.roots.get(info.path.key as string);
  return run && root ? { run, root } : null;
}

/** For a planned field's resolver: the field as the operation wrote it (executed without its edges when planned). */
export function plannedFieldNodes(context: unknown, info: GraphQLResolveInfo): readonly FieldNode[] {
  const found = rootPlanOf(context, info);
  return found ? [found.root.node] : info.fieldNodes;
}

/** For a planned field's resolver: the page it read already, when the operation runs again unplanned. */
export function pageReadBefore<C extends PlannedConnection>(context: unknown, info: GraphQLResolveInfo): C | undefined {
  const found = rootPlanOf(context, info);
  return found?.run.unplanned ? (found.run.pages.get(info.path.key as string) as C | undefined) : undefined;
}

/** For a planned field's resolver: the page it read, for the planned edges to be written from. */
export function keepPage(context: unknown, info: GraphQLResolveInfo, connection: PlannedConnection): void {
  rootPlanOf(context, info)?.run.pages.set(info.path.key as string, connection);
}

/** The answer with the planned edges in place; null when a value cannot be written as planned. */
async function withEdges(result: ExecutionResult, run: Running, context: object): Promise<ExecutionResult | null> {
  const data = result.data as Record<string, unknown> | null | undefined;
  if (!data) return result;
  const out: Record<string, unknown> = {};
  const tally: Tally = { bytes: 0 };
  for (const [key, value] of Object.entries(data)) {
    const root = run.plan.roots.get(key);
    if (!root || value === null) {
      out[key] = value;
      continue;
    }
    const page = run.pages.get(key);
    if (!page) return null;
    const prepare = root.connection.prepare;
    let sources: readonly unknown[];
    try {
      sources = prepare ? await prepare(page.edges, context, root.edgesField) : page.edges;
    } catch {
      // A loader that failed: graphql-js, run unplanned, gives its error where the field is.
      return null;
    }
    let edges = '[';
    try {
      for (let i = 0; i < sources.length; i++) edges += `${i ? ',' : ''}${root.writeEdge(sources[i], tally)}`;
    } catch (err) {
      if (err instanceof Unplannable) return null;
      throw err;
    }
    const connection = value as Record<string, unknown>;
    const written: Record<string, unknown> = {};
    for (const k of root.keys) written[k] = k === root.edgesKey ? new RawJson(`${edges}]`) : connection[k];
    out[key] = written;
  }
  chargeAnswer(context, tally.bytes);
  const answer: ExecutionResult = { ...result, data: out };
  // yoga serializes a result with its own `stringify` when it has one (result-processor/stringify.js).
  Object.defineProperty(answer, 'stringify', { value: stringifyWithRawJson, enumerable: false });
  return answer;
}

export interface ConnectionPlans {
  /** The yoga plugin: runs planned operations with their edges written from the page; every other as before. */
  plugin(): Plugin;
  /** Whether an operation has a planned connection (for tests: both ways must answer the same). */
  isPlanned(document: DocumentNode, operationName?: string): boolean;
}

/** Plans for these connections, cached by document (yoga keeps one parsed document per query text) and operation name. */
// Each plan's writers and prepare agree on their own source type; the list holds plans of several.
export function connectionPlans(list: readonly ConnectionPlan<any>[]): ConnectionPlans {
  const connections = new Map(list.map((c) => [c.field, c as unknown as ConnectionPlan<unknown>]));
  const plans = new WeakMap<DocumentNode, Map<string, Plan | null>>();
  const planFor = (document: DocumentNode, operationName: string | null | undefined): Plan | null => {
    let byName = plans.get(document);
    if (!byName) plans.set(document, (byName = new Map()));
    const name = operationName ?? '';
    if (!byName.has(name)) byName.set(name, compile(document, operationName, connections));
    return byName.get(name)!;
  };
  return {
    isPlanned: (document, operationName) => planFor(document, operationName) !== null,
    plugin: () => ({
      onExecute({ args, executeFn, setExecuteFn }) {
        if (!planFor(args.document, args.operationName)) return;
        setExecuteFn(async (a) => {
          // Planned from the arguments execution gets (a plugin before this one may have changed them).
          const plan = planFor(a.document, a.operationName);
          const context = a.contextValue;
          if (!plan || typeof context !== 'object' || context === null) return executeFn(a);
          const run: Running = { plan, pages: new Map(), unplanned: false };
          running.set(context, run);
          try {
            const result = await executeFn({ ...a, document: plan.document });
            if (Symbol.asyncIterator in result) return result;
            const answer = await withEdges(result, run, context);
            if (answer) return answer;
            run.unplanned = true;
            return await executeFn(a);
          } finally {
            running.delete(context);
          }
        });
      },
    }),
  };
}
