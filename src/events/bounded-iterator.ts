// A subscriber's private, bounded buffer of events. The publisher never waits on a subscriber: it
// pushes and moves on. A subscriber that falls further behind than its buffer allows is cut off
// with a clear error (it can resume with afterEventId), so one stalled client neither delays the
// others nor grows the server's memory without bound.
import { GraphQLError } from 'graphql';

export class SubscriberOverflowError extends GraphQLError {
  constructor(limit: number) {
    super(
      `subscription closed: the client fell more than ${limit} events behind; reconnect (resume status events with afterEventId)`,
      {
        extensions: { code: 'SUBSCRIPTION_OVERFLOW', limit },
      },
    );
  }
}

export class BoundedIterator<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  private failure: Error | null = null;
  private finished = false;
  private detach: (() => void) | null;

  constructor(
    attach: (push: (value: T) => void) => () => void,
    private readonly limit: number,
  ) {
    this.detach = attach((value) => this.push(value));
  }

  private push(value: T): void {
    if (this.finished || this.failure) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve({ value, done: false });
      return;
    }
    if (this.queue.length >= this.limit) {
      // Drop the backlog and stop listening now; the client learns why on its next read.
      this.failure = new SubscriberOverflowError(this.limit);
      this.queue.length = 0;
      this.release();
      return;
    }
    this.queue.push(value);
  }

  /** Ends the subscription with an error the client receives on its next read (the backlog is dropped). */
  fail(error: Error): void {
    if (this.finished || this.failure) return;
    this.queue.length = 0;
    this.release();
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      this.finished = true;
      w.reject(error);
      return;
    }
    this.failure = error;
  }

  /**
   * Ends the subscription gracefully: nothing more is taken in, what is already queued is still
   * delivered, then the client sees the end (a completed subscription, not an error).
   */
  end(): void {
    if (this.finished || this.failure) return;
    this.finished = true;
    this.release();
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.failure) {
      const err = this.failure;
      this.finished = true;
      this.failure = null;
      return Promise.reject(err);
    }
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  return(): Promise<IteratorResult<T>> {
    this.finished = true;
    this.queue.length = 0;
    this.release();
    if (this.waiter) {
      this.waiter.resolve({ value: undefined, done: true });
      this.waiter = null;
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err: unknown): Promise<IteratorResult<T>> {
    void this.return();
    return Promise.reject(err);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private release(): void {
    this.detach?.();
    this.detach = null;
  }
}
