// A cached execution plan for the page of trajectories a client reads most (Query.trajectories):
// executing its edges field by field through graphql-js (about 19 fields a row, each with its resolve
// info, resolver and completion) cost ten times the SQL that read the rows. When an operation's
// `trajectories { edges { … } }` selects only plain fields (the list in NODE_FIELDS and below: no
// fragments, directives or arguments inside edges), the operation runs without its edges, and the
// edges are written straight to JSON from the page the resolver read, by a writer compiled once per
// document, then put in the answer where graphql-js would have put them (graphql/raw-json.ts). Any
// other operation runs as it always did, and so does a planned one whose data has a value graphql-js
// would refuse (an Int out of range, a date that is not one): it is run again unplanned, on the page
// already read, so both ways give the same answer and the same errors.
import {
  getOperationAST,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

import { chargeAnswer } from '../graphql/answer-budget';
import { encodeGlobalId } from '../graphql/global-id';
import { RawJson, stringifyWithRawJson } from '../graphql/raw-json';
import { storedMessagesText, type Trajectory, type TrajectoryMessage } from './trajectory.model';

/** Thrown by a writer on a value graphql-js would not serialize as it stands: the operation runs unplanned. */
class Unplannable extends Error {}

/** What writing counted, as security/response-size.ts counts the strings and JSON values resolvers return. */
interface Tally {
  bytes: number;
}
type Writer<S> = (source: S, tally: Tally) => string;
/** Compiles a field's writer from its selection set (none for a leaf); null when it cannot be planned. */
type FieldPlan<S> = (set: SelectionSetNode | undefined) => Writer<S> | null;

interface PlannedEdge {
  readonly cursor: string;
  readonly node: Trajectory;
}
interface PlannedConnection {
  edges: PlannedEdge[];
}

const leaf =
  <S>(write: Writer<S>): FieldPlan<S> =>
  (set) =>
    set ? null : write;

const string = <S>(get: (s: S) => unknown, nullable = false) =>
  leaf<S>((s, tally) => {
    const v = get(s);
    if (v == null && nullable) return 'null';
    if (typeof v !== 'string') throw new Unplannable();
    tally.bytes += v.length;
    return JSON.stringify(v);
  });

const int = <S>(get: (s: S) => unknown) =>
  leaf<S>((s) => {
    const v = get(s);
    if (!Number.isInteger(v) || (v as number) > 2147483647 || (v as number) < -2147483648) throw new Unplannable();
    return String(v);
  });

const nullableFloat = <S>(get: (s: S) => unknown) =>
  leaf<S>((s) => {
    const v = get(s);
    if (v == null) return 'null';
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Unplannable();
    return JSON.stringify(v);
  });

const boolean = <S>(get: (s: S) => boolean) => leaf<S>((s) => (get(s) ? 'true' : 'false'));

/** The JSON scalar serializes values as they are; response-size counts an object as its JSON text. */
const json = <S>(get: (s: S) => unknown, nullable: boolean) =>
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

/** An object's writer: its fields in the order selected, under their response keys, each key once. */
function object<S>(typename: string, fields: Record<string, FieldPlan<S>>): FieldPlan<S> {
  return (set) => {
    if (!set) return null;
    const keys: string[] = [];
    const writers: Writer<S>[] = [];
    for (const sel of set.selections) {
      if (sel.kind !== Kind.FIELD || sel.directives?.length || sel.arguments?.length) return null;
      const key = sel.alias?.value ?? sel.name.value;
      if (keys.some((k) => k === `${JSON.stringify(key)}:`)) return null;
      const write =
        sel.name.value === '__typename'
          ? sel.selectionSet
            ? null
            : () => JSON.stringify(typename)
          : Object.hasOwn(fields, sel.name.value)
            ? fields[sel.name.value](sel.selectionSet)
            : null;
      if (!write) return null;
      keys.push(`${JSON.stringify(key)}:`);
      writers.push(write);
    }
    return (s, tally) => {
      let text = '{';
      for (let i = 0; i < writers.length; i++) text += `${i ? ',' : ''}${keys[i]}${writers[i](s, tally)}`;
      return `${text}}`;
    };
  };
}

const list =
  <S, T>(get: (s: S) => readonly T[], item: FieldPlan<T>): FieldPlan<S> =>
  (set) => {
    const write = item(set);
    if (!write) return null;
    return (s, tally) => {
      const items = get(s);
      let text = '[';
      for (let i = 0; i < items.length; i++) text += `${i ? ',' : ''}${write(items[i], tally)}`;
      return `${text}]`;
    };
  };

/** A JSON string as JSON.stringify writes it when it needs no escape: no quote, backslash, control character or lone surrogate. */
const PLAIN = String.raw`"(?:[^"\\\u0000-\u001f\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*"`;
const PLAIN_MESSAGES = new RegExp(
  String.raw`^\[\{"role":${PLAIN},"content":${PLAIN}\}(?:,\{"role":${PLAIN},"content":${PLAIN}\})*\]$`,
);
/** Per message, what `{"role":"","content":""}` and the comma after it add to its two strings. */
const MESSAGE_FRAME = '{"role":"","content":""},'.length;

/**
 * The characters of role and content (what response-size counts) in stored messages text that is
 * exactly a list of {role, content} as JSON.stringify writes it with nothing to escape; null otherwise.
 * Its strings then decode to themselves, so the text is what serializing the parsed list gives.
 */
function roleContentChars(text: string): number | null {
  if (text === '[]') return 0;
  if (!PLAIN_MESSAGES.test(text)) return null;
  let count = 0;
  for (let at = text.indexOf('{"role":"'); at !== -1; at = text.indexOf('{"role":"', at + 9)) count++;
  // The brackets, and one comma fewer than messages.
  return text.length - 2 + 1 - count * MESSAGE_FRAME;
}

const MESSAGE = object<TrajectoryMessage>('TrajectoryMessage', {
  role: string((m) => m.role),
  content: string((m) => m.content),
  toolCallId: string((m) => m.toolCallId, true),
  name: string((m) => m.name, true),
  trainable: boolean((m) => m.trainable === true),
});

const NODE_FIELDS: Record<string, FieldPlan<Trajectory>> = {
  id: leaf((t) => JSON.stringify(encodeGlobalId('Trajectory', t.id))),
  databaseId: int((t) => t.id),
  uuid: string((t) => t.uuid),
  reward: nullableFloat((t) => t.reward),
  createdAt: leaf((t, tally) => {
    const d = t.createdAt;
    if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new Unplannable();
    tally.bytes += 24;
    return `"${d.toISOString()}"`;
  }),
  split: string((t) => t.split),
  step: int((t) => t.taskInput.step),
  metadata: json((t) => t.metadata, false),
  taskInput: (set) => {
    const write = object<Trajectory['taskInput']>('TaskInput', {
      step: int((i) => i.step),
      inputText: string((i) => i.inputText),
      context: json((i) => i.context, true),
    })(set);
    return write && ((t, tally) => write(t.taskInput, tally));
  },
  messages: (set) => {
    const write = list((t: Trajectory) => t.messages, MESSAGE)(set);
    if (!write) return null;
    // `messages { role content }` is what Atelier stores for seed-shaped rows: the stored text
    // itself, when it is that list exactly and has no character JSON.stringify would write otherwise.
    const roleContent = set?.selections.map((f) => (f.kind === Kind.FIELD && !f.alias ? f.name.value : '')).join();
    if (roleContent !== 'role,content') return write;
    return (t, tally) => {
      const text = storedMessagesText(t);
      if (text === undefined) return write(t, tally);
      const chars = roleContentChars(text);
      if (chars === null) return write(t, tally);
      tally.bytes += chars;
      return text;
    };
  },
};

const EDGE = object<PlannedEdge>('TrajectoryEdge', {
  cursor: string((e) => e.cursor),
  node: (set) => {
    const write = object('Trajectory', NODE_FIELDS)(set);
    return write && ((e, tally) => write(e.node, tally));
  },
});

/** One planned root field: `trajectories` under its response key. */
interface RootPlan {
  /** The field as the operation wrote it, edges included (what the resolver's reservation reads). */
  node: FieldNode;
  /** The connection's response keys in the order selected, and which one is edges. */
  keys: string[];
  edgesKey: string;
  writeEdge: Writer<PlannedEdge>;
}

interface Plan {
  /** The operation without the planned edges: what graphql-js executes. */
  document: DocumentNode;
  roots: Map<string, RootPlan>;
}

const keyOf = (f: FieldNode) => f.alias?.value ?? f.name.value;

/** The plan of one root field, and the field as executed (without its edges); null when it cannot be planned. */
function planRoot(field: FieldNode): { plan: RootPlan; executed: FieldNode } | null {
  if (field.name.value !== 'trajectories' || field.directives?.length || !field.selectionSet) return null;
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
  const writeEdge = EDGE(edges.selectionSet);
  if (!writeEdge) return null;
  const rest = field.selectionSet.selections.filter((s) => s !== edges);
  return {
    plan: { node: field, keys, edgesKey: keyOf(edges), writeEdge },
    executed: { ...field, selectionSet: { ...field.selectionSet, selections: rest } },
  };
}

function compile(document: DocumentNode, operationName: string | null | undefined): Plan | null {
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
      const planned = planRoot(sel);
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

/** Plans by document (yoga keeps one parsed document per query text) and operation name. */
const plans = new WeakMap<DocumentNode, Map<string, Plan | null>>();

function planFor(document: DocumentNode, operationName: string | null | undefined): Plan | null {
  let byName = plans.get(document);
  if (!byName) plans.set(document, (byName = new Map()));
  const name = operationName ?? '';
  if (!byName.has(name)) byName.set(name, compile(document, operationName));
  return byName.get(name)!;
}

/** Whether an operation's trajectories pages are planned (for tests: both ways must answer the same). */
export function isPlanned(document: DocumentNode, operationName?: string): boolean {
  return planFor(document, operationName) !== null;
}

interface Running {
  plan: Plan;
  /** The pages the planned fields' resolver read, by response key. */
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

/** For Query.trajectories' resolver: the field as the operation wrote it (executed without its edges when planned). */
export function plannedFieldNodes(context: unknown, info: GraphQLResolveInfo): readonly FieldNode[] {
  const found = rootPlanOf(context, info);
  return found ? [found.root.node] : info.fieldNodes;
}

/** For Query.trajectories' resolver: the page it read already, when the operation runs again unplanned. */
export function pageReadBefore<C extends PlannedConnection>(context: unknown, info: GraphQLResolveInfo): C | undefined {
  const found = rootPlanOf(context, info);
  return found?.run.unplanned ? (found.run.pages.get(info.path.key as string) as C | undefined) : undefined;
}

/** For Query.trajectories' resolver: the page it read, for the planned edges to be written from. */
export function keepPage(context: unknown, info: GraphQLResolveInfo, connection: PlannedConnection): void {
  rootPlanOf(context, info)?.run.pages.set(info.path.key as string, connection);
}

/** The answer with the planned edges in place; null when a value cannot be written as planned. */
function withEdges(result: ExecutionResult, run: Running, context: unknown): ExecutionResult | null {
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
    let edges = '[';
    try {
      for (let i = 0; i < page.edges.length; i++) edges += `${i ? ',' : ''}${root.writeEdge(page.edges[i], tally)}`;
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

/** Runs planned operations with their edges written from the page; every other operation as before. */
export function usePagePlans(): Plugin {
  return {
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
          const answer = withEdges(result, run, context);
          if (answer) return answer;
          run.unplanned = true;
          return await executeFn(a);
        } finally {
          running.delete(context);
        }
      });
    },
  };
}
