// Shared execution for subscribers (issue #14): subscribers with the same operation, variables and
// authorization share one source of events, one execution per event and one serialized payload per
// event, as Hasura multiplexes live queries. graphql-ws used to execute a subscription's selection
// once per subscriber per event and serialize each result on its own; with 5,000 subscribers to one
// run, that was 5,000 executions and 5,000 JSON.stringify calls for every transition.
//
// A group is keyed by the printed document, the operation name, the variables (keys sorted) and who
// is asking (scope and key id, or 'open'). It opens the subscription field's source once, with a
// context of its own (the first member's viewer and services, none of its transport), stamps each
// source event as it arrives, executes it once (graphql `execute` of the subscription document with
// the event as rootValue: what graphql-js's mapSourceToResponse does for each event) and hands the
// result to every member that joined before the event arrived.
//
// Members stay per subscriber: each runs through yoga's envelop as before (scopes, the per-key cap,
// live sessions and revocation, the SSE output guard, masked and redacted errors wrap its own
// iterator), ends on its own (complete, close, revocation, overflow) without touching the others,
// and falls SUBSCRIPTION_BUFFER events behind at most before it is cut off with SUBSCRIPTION_OVERFLOW.
// - Over graphql-ws (a socket sink set in ws.ts), the member writes the frame itself:
//   `{"id":<its id>,"type":"next","payload":<shared JSON>}`, built by concatenation so the payload is
//   serialized once for the whole group; graphql-ws still sends `error` and `complete`. One frame
//   at a time per member, as graphql-ws did (the next waits for the previous one's write callback);
//   the outbound guard is checked after each write.
// - Over SSE (or anything else), the member yields the shared result object; yoga serializes it with
//   the result's own `stringify`, which answers the group's JSON: once per event for every member
//   (1,000 SSE subscribers used to cost 1,000 JSON.stringify calls of each batch).
// A member that falls behind keeps the resolved payload of at most `heldPerConnection` events per
// connection (the send gate's bound, send-gate.ts); beyond that it keeps the raw event and executes it
// on its own when its turn comes, as every subscriber did before.
//
// Subscriptions whose field does not opt in (graphql/shared-subscription.ts), that use a per-subscriber
// argument (afterEventId), or whose viewer has no identity to share run exactly as before.
import {
  createSourceEventStream,
  execute,
  getOperationAST,
  GraphQLError,
  Kind,
  print,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
} from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { WebSocket } from 'ws';

import { SubscriberOverflowError } from '../events/bounded-iterator';
import { SHARED_SUBSCRIPTION, type SharedSubscriptionExtension } from '../graphql/shared-subscription';
import { headersOf } from './sse-resume';

export interface SharedSubscriptionsOptions {
  /** Events a member may fall behind before it is cut off (SUBSCRIPTION_BUFFER); also bounds a group's own backlog. */
  bufferSize: number;
  /** Resolved events a connection may hold unsent across its members (beyond it, raw events wait). */
  heldPerConnection: number;
  /** Who is asking, as far as results can differ: null when the subscription must not be shared. */
  identity(contextValue: unknown): string | null;
  /** The context a group executes with; `members` is how many subscribers its source stands for. */
  groupContext(contextValue: unknown, members: () => number): unknown;
  /** A result as graphql-ws sends it (errors masked and redacted), serialized. */
  serialize(result: ExecutionResult): string;
}

export interface SharedSubscriptionStats {
  groups: number;
  members: number;
  /** Executions of subscription events by groups (and by members that fell behind) since start. */
  executions: number;
  /** Shared results serialized (once per event for all members, graphql-ws and SSE) since start. */
  serializations: number;
}

/** How a graphql-ws operation's frames reach its socket (set in ws.ts, by context value). */
interface SocketSink {
  /** `{"id":<id>,"type":"next","payload":` */
  prefix: string;
  socket: WebSocket;
  afterSend: () => void;
  holder: Holder;
}

/** Resolved events held unsent by one connection's members. */
interface Holder {
  held: number;
}

const sinks = new WeakMap<object, SocketSink>();
const holders = new WeakMap<WebSocket, Holder>();

/** Lets a graphql-ws operation's shared events be written straight to its socket. */
export function shareOverSocket(contextValue: object, id: string, socket: WebSocket, afterSend: () => void): void {
  let holder = holders.get(socket);
  if (!holder) holders.set(socket, (holder = { held: 0 }));
  sinks.set(contextValue, {
    prefix: `{"id":${JSON.stringify(id)},"type":"next","payload":`,
    socket,
    afterSend,
    holder,
  });
}

type SubscribeFn = (args: ExecutionArgs) => unknown;

/** JSON with object keys sorted, so equal variables give equal keys. */
function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`)
    .join(',')}}`;
}

const printed = new WeakMap<DocumentNode, string>();
function documentText(document: DocumentNode): string {
  let text = printed.get(document);
  if (text === undefined) printed.set(document, (text = print(document)));
  return text;
}

function asGraphQLError(err: unknown): GraphQLError {
  if (err instanceof GraphQLError) return err;
  return new GraphQLError(err instanceof Error ? err.message : String(err), {
    originalError: err instanceof Error ? err : undefined,
  });
}

export class SharedSubscriptions {
  private readonly groups = new Map<string, Group>();
  /** @internal counted by groups and members */
  executions = 0;
  /** @internal counted by groups: one per event, whatever the number of members and transports */
  serializations = 0;

  constructor(readonly options: SharedSubscriptionsOptions) {}

  stats(): SharedSubscriptionStats {
    let members = 0;
    for (const group of this.groups.values()) members += group.members.size;
    return { groups: this.groups.size, members, executions: this.executions, serializations: this.serializations };
  }

  /** The envelop plugin: shareable subscriptions get the shared subscribe instead of their own. */
  plugin(): Plugin {
    return {
      onSubscribe: ({ args, subscribeFn, setSubscribeFn }) => {
        const key = this.keyOf(args);
        if (key === null) return;
        const own = subscribeFn as SubscribeFn;
        setSubscribeFn(((a: ExecutionArgs) => this.join(key, a, own)) as typeof subscribeFn);
      },
    };
  }

  /** The group key of a subscription, or null when it runs on its own. */
  keyOf(args: ExecutionArgs): string | null {
    const { schema, document, operationName, variableValues, contextValue } = args;
    const identity = this.options.identity(contextValue);
    if (identity === null) return null;
    // An SSE reconnect resumes after its Last-Event-ID (sse-resume.ts): it replays first, so it runs alone.
    if (headersOf(contextValue)?.get('last-event-id')) return null;
    const operation = getOperationAST(document, operationName);
    if (!operation || operation.operation !== 'subscription') return null;
    const [selection, ...more] = operation.selectionSet.selections;
    if (!selection || more.length || selection.kind !== Kind.FIELD) return null;
    const field = schema.getSubscriptionType()?.getFields()[selection.name.value];
    const sharing = field?.extensions?.[SHARED_SUBSCRIPTION] as SharedSubscriptionExtension | undefined;
    if (!sharing) return null;
    for (const arg of selection.arguments ?? []) {
      if (!sharing.unlessArgs.includes(arg.name.value)) continue;
      const value = arg.value;
      if (value.kind === Kind.NULL) continue;
      if (value.kind !== Kind.VARIABLE) return null;
      const name = value.name.value;
      if (variableValues && Object.hasOwn(variableValues, name)) {
        if (variableValues[name] != null) return null;
      } else {
        const fallback = operation.variableDefinitions?.find((d) => d.variable.name.value === name)?.defaultValue;
        if (fallback && fallback.kind !== Kind.NULL) return null;
      }
    }
    return `${identity}\n${operationName ?? ''}\n${stableJson(variableValues ?? {})}\n${documentText(document)}`;
  }

  private async join(key: string, args: ExecutionArgs, own: SubscribeFn): Promise<unknown> {
    let group = this.groups.get(key);
    if (!group) {
      group = new Group(this, key, args);
      this.groups.set(key, group);
    }
    const contextValue = args.contextValue;
    const member = new Member(
      group,
      typeof contextValue === 'object' && contextValue !== null ? (sinks.get(contextValue) ?? null) : null,
    );
    group.members.add(member);
    if (!(await group.ready)) {
      // The source could not be opened (an unknown run, say): each subscriber gets its own answer, as before.
      group.members.delete(member);
      return own(args);
    }
    return member.iterator();
  }

  /** @internal */
  forget(group: Group): void {
    if (this.groups.get(group.key) === group) this.groups.delete(group.key);
  }
}

interface Queued {
  seq: number;
  event: unknown;
  end?: true;
}

class Group {
  readonly members = new Set<Member>();
  /** Events taken from the source so far: a member receives those numbered above its `since`. */
  seq = 0;
  closed = false;
  readonly ready: Promise<boolean>;
  private source: AsyncIterator<unknown> | null = null;
  private readonly queue: Queued[] = [];
  private running = false;
  private readonly context: unknown;
  private readonly exec: Pick<ExecutionArgs, 'schema' | 'document' | 'variableValues' | 'operationName'>;

  constructor(
    readonly registry: SharedSubscriptions,
    readonly key: string,
    args: ExecutionArgs,
  ) {
    this.exec = {
      schema: args.schema,
      document: args.document,
      variableValues: args.variableValues,
      operationName: args.operationName,
    };
    this.context = registry.options.groupContext(args.contextValue, () => this.members.size);
    this.ready = this.open();
  }

  private async open(): Promise<boolean> {
    let stream: unknown;
    try {
      stream = await createSourceEventStream({ ...this.exec, contextValue: this.context });
    } catch {
      stream = null;
    }
    if (!isAsyncIterable(stream)) {
      this.close();
      return false;
    }
    this.source = (stream as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    if (this.closed || this.members.size === 0) {
      this.close();
    } else {
      void this.pump();
    }
    return true;
  }

  /** Takes events from the source as they arrive, numbering them, so late joiners never get earlier ones. */
  private async pump(): Promise<void> {
    const source = this.source!;
    const limit = this.registry.options.bufferSize;
    try {
      for (;;) {
        const r = await source.next();
        if (this.closed) return;
        this.queue.push(
          r.done ? { seq: ++this.seq, event: undefined, end: true } : { seq: ++this.seq, event: r.value },
        );
        if (this.queue.length > limit) {
          this.fail(new SubscriberOverflowError(limit));
          return;
        }
        void this.drain();
        if (r.done) return;
      }
    } catch (err) {
      if (!this.closed) this.fail(err);
    }
  }

  /** Executes queued events one at a time, in order, and hands each result to the members. */
  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length && !this.closed) {
        const { seq, event, end } = this.queue.shift()!;
        if (end) {
          for (const member of [...this.members]) member.complete();
          this.close();
          return;
        }
        const result = await this.execute(event);
        if (this.closed) return;
        let json: string | undefined;
        const serialized = () => {
          if (json === undefined) {
            this.registry.serializations++;
            json = this.registry.options.serialize(result);
          }
          return json;
        };
        // SSE members yield this one object; yoga serializes each with its `stringify` (what sse-resume.ts
        // uses too), so the group's JSON is made once for all of them, not once per subscriber.
        if (!result.errors && !result.extensions)
          Object.defineProperty(result, 'stringify', { value: serialized, enumerable: false });
        for (const member of this.members) if (member.since < seq) member.offer(event, result, serialized);
      }
    } finally {
      this.running = false;
    }
  }

  async execute(event: unknown): Promise<ExecutionResult> {
    this.registry.executions++;
    try {
      return await execute({ ...this.exec, rootValue: event, contextValue: this.context });
    } catch (err) {
      return { errors: [asGraphQLError(err)] };
    }
  }

  serialize(result: ExecutionResult): string {
    return this.registry.options.serialize(result);
  }

  leave(member: Member): void {
    this.members.delete(member);
    if (this.members.size === 0) this.close();
  }

  private fail(err: unknown): void {
    const members = [...this.members];
    this.close();
    for (const member of members) member.fail(err);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.registry.forget(this);
    const source = this.source;
    this.source = null;
    void Promise.resolve()
      .then(() => source?.return?.())
      .catch(() => undefined);
  }
}

interface Entry {
  event: unknown;
  /** The shared result (yielding members) or its JSON (socket members), while the connection may hold it. */
  result?: ExecutionResult;
  json?: string;
}

class Member {
  readonly since: number;
  private readonly backlog: Entry[] = [];
  private readonly holder: Holder;
  /** Takes no more events (left, failed or completed). */
  private closed = false;
  /** Completed: the backlog is still delivered, then the end. */
  private completing = false;
  /** Socket members: a frame written and not yet flushed (or an event being executed for it). */
  private sending = false;
  /** Yielding members: the consumer waiting for the next result; an error it has not seen yet. */
  private waiter: { resolve: (r: IteratorResult<ExecutionResult>) => void; reject: (e: unknown) => void } | null = null;
  private failure: { error: unknown } | null = null;
  /** Socket members: what the iterator's one pending next() settles to (they never yield a value). */
  private readonly settled: Promise<IteratorResult<ExecutionResult>> | null = null;
  private settle: ((r: IteratorResult<ExecutionResult>) => void) | null = null;
  private reject: ((e: unknown) => void) | null = null;

  constructor(
    private readonly group: Group,
    private readonly sink: SocketSink | null,
  ) {
    this.since = group.seq;
    this.holder = sink ? sink.holder : { held: 0 };
    if (sink) {
      this.settled = new Promise((resolve, reject) => {
        this.settle = resolve;
        this.reject = reject;
      });
      this.settled.catch(() => undefined);
    }
  }

  private get limit(): number {
    return this.group.registry.options.bufferSize;
  }

  offer(event: unknown, result: ExecutionResult, serialized: () => string): void {
    if (this.closed) return;
    if (this.backlog.length === 0) {
      if (this.sink && !this.sending) return this.send(serialized());
      if (!this.sink && this.waiter) {
        const waiter = this.waiter;
        this.waiter = null;
        return waiter.resolve({ value: result, done: false });
      }
    }
    if (this.backlog.length >= this.limit) return this.fail(new SubscriberOverflowError(this.limit));
    const entry: Entry = { event };
    if (this.holder.held < this.group.registry.options.heldPerConnection) {
      this.holder.held++;
      if (this.sink) entry.json = serialized();
      else entry.result = result;
    }
    this.backlog.push(entry);
  }

  private take(): Entry | undefined {
    const entry = this.backlog.shift();
    if (entry && (entry.json !== undefined || entry.result !== undefined)) this.holder.held--;
    return entry;
  }

  private drop(): void {
    while (this.backlog.length) this.take();
  }

  // Socket members: one frame at a time, as graphql-ws awaited each send.
  private send(json: string): void {
    const sink = this.sink!;
    this.sending = true;
    sink.socket.send(sink.prefix + json + '}', this.sent);
    sink.afterSend();
  }

  private readonly sent = (err?: Error | null): void => {
    this.sending = false;
    if (err) return;
    this.sendNext();
  };

  private sendNext(): void {
    if (this.closed && !this.completing) return;
    const entry = this.take();
    if (!entry) {
      if (this.completing) this.end();
      return;
    }
    if (entry.json !== undefined) return this.send(entry.json);
    // Fell behind further than its connection may hold: executed now, for this member alone.
    this.sending = true;
    void this.group.execute(entry.event).then((result) => {
      this.sending = false;
      if (this.closed && !this.completing) return;
      this.send(this.group.serialize(result));
    });
  }

  // Yielding members.
  private pull(): Promise<IteratorResult<ExecutionResult>> {
    const entry = this.take();
    if (entry) {
      if (entry.result !== undefined) return Promise.resolve({ value: entry.result, done: false });
      return this.group.execute(entry.event).then((value) => ({ value, done: false }));
    }
    if (this.failure) {
      const { error } = this.failure;
      this.failure = null;
      return Promise.reject(error);
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** The source ended: what is backlogged is still delivered, then the subscriber's `complete`. */
  complete(): void {
    if (this.closed) return;
    this.closed = true;
    this.completing = true;
    this.group.leave(this);
    if (this.sink) {
      if (!this.sending && this.backlog.length === 0) this.end();
    } else if (this.waiter) {
      this.waiter.resolve({ value: undefined, done: true });
      this.waiter = null;
    }
  }

  private end(): void {
    this.completing = false;
    this.settle?.({ value: undefined, done: true });
  }

  /** Ends this member with an error it receives next (its backlog is dropped); the group goes on. */
  fail(error: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.drop();
    this.group.leave(this);
    if (this.sink) this.reject?.(error);
    else if (this.waiter) {
      this.waiter.reject(error);
      this.waiter = null;
    } else this.failure = { error };
  }

  /** The subscriber went away (complete, close, revocation): it leaves its group. */
  private leave(): void {
    this.completing = false;
    this.failure = null;
    if (!this.closed) {
      this.closed = true;
      this.group.leave(this);
    }
    this.drop();
    this.settle?.({ value: undefined, done: true });
    if (this.waiter) {
      this.waiter.resolve({ value: undefined, done: true });
      this.waiter = null;
    }
  }

  iterator(): AsyncIterableIterator<ExecutionResult> {
    const iterator: AsyncIterableIterator<ExecutionResult> = {
      next: () => this.settled ?? this.pull(),
      return: () => {
        this.leave();
        return Promise.resolve({ value: undefined, done: true });
      },
      throw: (err: unknown) => {
        this.leave();
        return Promise.reject(err);
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}
