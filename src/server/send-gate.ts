// How many events one WebSocket may have resolved but not yet sent. graphql-ws asks a subscription
// for its next event only once the previous one was sent, so a permit taken when an event is pulled
// and given back on the next pull bounds the payloads a connection holds: a client that stops reading
// holds a few, instead of one per subscription (100 subscriptions × a 1 MB batch each).
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

/** The subscription's events, each pulled under a permit held until the next pull (or the end). */
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
      await gate.acquire();
      holding = true;
      // Ended while waiting for a permit: hand it on.
      if (ended) {
        drop();
        return finish();
      }
      try {
        const result = await inner.next();
        if (result.done) drop();
        return result;
      } catch (err) {
        drop();
        throw err;
      }
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
