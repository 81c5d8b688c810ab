// Turns a stream of events into a stream of updates while keeping return() immediate: a client that
// disconnects releases the underlying subscription at once, even while waiting for the next event
// (an async generator would hold it until one arrives).
export interface Step<R> {
  value?: R;
  /** End the stream after this (after emitting value, if any). */
  done?: boolean;
}

export function transformEvents<T, R>(
  source: AsyncIterator<T>,
  step: (event: T) => Promise<Step<R>>,
  initial?: R,
): AsyncIterableIterator<R> {
  let pending: R[] = initial === undefined ? [] : [initial];
  let finished = false;
  const finish = async (): Promise<IteratorResult<R>> => {
    finished = true;
    pending = [];
    await source.return?.();
    return { value: undefined, done: true };
  };
  return {
    async next(): Promise<IteratorResult<R>> {
      if (pending.length) return { value: pending.shift()!, done: false };
      while (!finished) {
        const r = await source.next();
        if (r.done || finished) return finish();
        const out = await step(r.value);
        if (out.done) {
          void finish();
          if (out.value !== undefined) return { value: out.value, done: false };
          return { value: undefined, done: true };
        }
        if (out.value !== undefined) return { value: out.value, done: false };
      }
      return { value: undefined, done: true };
    },
    return: finish,
    async throw(err: unknown) {
      await finish();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
