// The one path every write takes. Each job runs in its own transaction; on SQLite the jobs run one
// at a time (one writer, one shared connection), on PostgreSQL they run concurrently on pooled
// connections. Callbacks registered with afterCommit run once the transaction has committed, in
// commit order, and never when it rolls back: that is where events are published.
import type { DataSource, EntityManager } from 'typeorm';

export interface WriteTx {
  em: EntityManager;
  /** Runs fn after this transaction commits (never if it rolls back). */
  afterCommit(fn: () => void): void;
}

export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly serialize: boolean,
  ) {}

  run<T>(job: (tx: WriteTx) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the database is closing'));
    if (!this.serialize) return this.execute(job);
    const result = this.tail.then(() => this.execute(job));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every job queued so far has finished; later jobs are refused. */
  async drain(): Promise<void> {
    this.closed = true;
    await this.tail;
  }

  private async execute<T>(job: (tx: WriteTx) => Promise<T>): Promise<T> {
    const callbacks: Array<() => void> = [];
    const value = await this.dataSource.transaction((em) => job({ em, afterCommit: (fn) => callbacks.push(fn) }));
    for (const fn of callbacks) {
      try {
        fn();
      } catch (err) {
        // A failing subscriber-side callback must not turn a committed write into a reported failure.
        console.error('afterCommit callback failed', err);
      }
    }
    return value;
  }
}
