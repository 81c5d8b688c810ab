// How many events one WebSocket may have resolved but not yet sent. Each subscription resolves every
// event for itself, so 100 subscriptions on a socket that stopped reading held 100 copies of a 1 MB
// batch. An event takes one of the connection's permits once it arrives, before it is resolved, and
// gives it back when its subscription pulls the next one — graphql-ws pulls only after the previous
// result was sent. A client that stops reading thus holds a few resolved events; the others wait as
// the small raw events they are (bounded by SUBSCRIPTION_BUFFER). Idle subscriptions hold no permit.
import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';

export class SendGate {
  private free: number;
  private readonly waiters: (() => void)[] = [];

  constructor(permits: number) {
    this.free = permits;
  }

  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
  }
}

/** A subscription's source events, each let through under a permit held until the next pull (or the end). */
export function gated<T>(source: AsyncIterable<T>, gate: SendGate): AsyncGenerator<T> {
  const inner = source[Symbol.asyncIterator]();
  let holding = false;
  let ended = false;
  const drop = () => {
    if (!holding) return;
    holding = false;
    gate.release();
  };
  const finish = (): IteratorResult<T> => ({ value: undefined, done: true });
  const generator: AsyncGenerator<T> = {
    async next() {
      drop();
      if (ended) return finish();
      const result = await inner.next();
      if (result.done || ended) return result.done ? result : finish();
      await gate.acquire();
      holding = true;
      // Ended while waiting for a permit: hand it on.
      if (ended) {
        drop();
        return finish();
      }
      return result;
    },
    async return(value?: unknown) {
      ended = true;
      drop();
      await inner.return?.(value);
      return finish();
    },
    async throw(err?: unknown) {
      ended = true;
      drop();
      if (inner.throw) return inner.throw(err);
      throw err;
    },
    [Symbol.asyncIterator]() {
      return generator;
    },
  };
  return generator;
}

/** The gate of each graphql-ws operation, by its context value (set where the context is made). */
const gates = new WeakMap<object, SendGate>();

export function setGate(contextValue: object, gate: SendGate): void {
  gates.set(contextValue, gate);
}

const WRAPPED = Symbol('send-gate');

/** Wraps, once per schema (in place), each subscription field's source so it passes its operation's gate, if any. */
export function gateSubscriptions(schema: GraphQLSchema): GraphQLSchema {
  const root = schema.getSubscriptionType();
  for (const field of Object.values(root?.getFields() ?? {})) {
    const subscribe: (GraphQLFieldResolver<unknown, unknown> & { [WRAPPED]?: true }) | undefined = field.subscribe;
    if (!subscribe || subscribe[WRAPPED]) continue;
    const wrapped: GraphQLFieldResolver<unknown, unknown> & { [WRAPPED]?: true } = async (
      source,
      args,
      context,
      info,
    ) => {
      const stream: unknown = await subscribe(source, args, context, info);
      const gate = typeof context === 'object' && context !== null ? gates.get(context) : undefined;
      return gate && isAsyncIterable(stream) ? gated(stream, gate) : stream;
    };
    wrapped[WRAPPED] = true;
    field.subscribe = wrapped;
  }
  return schema;
}
