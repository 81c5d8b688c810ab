// The one path every write takes. Each job runs in its own transaction; on SQLite the jobs run one
// at a time (one writer, one shared connection), on PostgreSQL they run concurrently on pooled
// connections. Callbacks registered with afterCommit run once the transaction has committed, in
// commit order, and never when it rolls back: that is where events are published.
//
// On SQLite the file's write lock is shared with other processes (`npm run keys`): a transaction
// that finds it held waits for it without blocking the event loop (sqlite-locking.ts), and a queue
// that has written without a break for a while leaves the lock free for a moment, so another
// process polling for it gets in instead of waiting out a long ingestion.
import { AsyncLocalStorage } from 'node:async_hooks';

import type { DataSource, EntityManager } from 'typeorm';

import { whenUnlocked, type LockWait } from './sqlite-locking';

export interface WriteTx {
  em: EntityManager;
  /** Runs fn after this transaction commits (never if it rolls back). */
  afterCommit(fn: () => void): void;
  /**
   * Work that sums up the transaction's writes (a run's step statistics, its activity), done once
   * just before it commits: each `defer` under the same key adds its part, and `flush` gets them all.
   * In a batch (see batch()) that is once for all its jobs; a job its SAVEPOINT undoes takes its parts along.
   */
  defer<T>(key: string, part: T, flush: (tx: WriteTx, parts: T[]) => Promise<void>): void;
}

type Flush = (tx: WriteTx, parts: never[]) => Promise<void>;

/** The deferred parts of one transaction (or of one SAVEPOINT of a batch), by key, in first-use order. */
class Deferred {
  private readonly byKey = new Map<string, { flush: Flush; parts: unknown[] }>();

  add(key: string, part: unknown, flush: Flush): void {
    const entry = this.byKey.get(key);
    if (entry) entry.parts.push(part);
    else this.byKey.set(key, { flush, parts: [part] });
  }

  /** Hands the parts to the enclosing transaction (a SAVEPOINT that was released). */
  moveTo(outer: WriteTx): void {
    for (const [key, { flush, parts }] of this.byKey) for (const part of parts) outer.defer(key, part as never, flush);
    this.byKey.clear();
  }

  /** Runs every flush; what a flush defers in turn runs after it. */
  async flush(tx: WriteTx): Promise<void> {
    while (this.byKey.size > 0) {
      const [key, { flush, parts }] = this.byKey.entries().next().value!;
      this.byKey.delete(key);
      await flush(tx, parts as never[]);
    }
  }
}

/** After this long of back-to-back SQLite writes, the queue lets go of the lock for BREAK_MS. */
const HOLD_MS = 200;
const BREAK_MS = 10;

export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  private busySince = 0;
  private idle = true;
  /** The transaction of the batch (see batch()) the current async context runs in, if any. */
  private readonly ambient = new AsyncLocalStorage<WriteTx>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly serialize: boolean,
    /** SQLite: how a transaction waits for a lock another process holds. */
    private readonly lockWait?: LockWait,
  ) {}

  run<T>(job: (tx: WriteTx) => Promise<T>): Promise<T> {
    const outer = this.ambient.getStore();
    if (outer) return this.nested(outer, job);
    if (this.closed) return Promise.reject(new Error('the database is closing'));
    if (!this.serialize) return this.execute(job);
    const result = this.tail.then(async () => {
      await this.shareTheLock();
      try {
        return await (this.lockWait ? whenUnlocked(() => this.execute(job), this.lockWait) : this.execute(job));
      } finally {
        this.idle = this.tail === settled;
      }
    });
    const settled: Promise<unknown> = result.catch(() => undefined);
    this.tail = settled;
    return result;
  }

  /**
   * Runs fn with every write it makes (run(), awaited one after another) in one transaction, each
   * of them a SAVEPOINT of it: a job that throws is undone alone and its caller sees the error,
   * while the others stay. Their afterCommit callbacks run once the whole transaction commits. One
   * commit for many small jobs (the files of an import request) instead of a commit each.
   */
  batch<T>(fn: () => Promise<T>): Promise<T> {
    return this.run((tx) => this.ambient.run(tx, fn));
  }

  private async nested<T>(outer: WriteTx, job: (tx: WriteTx) => Promise<T>): Promise<T> {
    const callbacks: Array<() => void> = [];
    const deferred = new Deferred();
    // EntityManager.transaction on the batch's query runner: SAVEPOINT, then RELEASE or ROLLBACK TO.
    const value = await outer.em.transaction((em) =>
      job({
        em,
        afterCommit: (fn) => callbacks.push(fn),
        defer: (key, part, flush) => deferred.add(key, part, flush as Flush),
      }),
    );
    for (const fn of callbacks) outer.afterCommit(fn);
    deferred.moveTo(outer);
    return value;
  }

  /** Resolves once every job queued so far has finished; later jobs are refused. */
  async drain(): Promise<void> {
    this.closed = true;
    await this.tail;
  }

  private async shareTheLock(): Promise<void> {
    const now = Date.now();
    if (this.idle) {
      this.idle = false;
      this.busySince = now;
    } else if (this.lockWait && now - this.busySince >= HOLD_MS) {
      await new Promise((resolve) => setTimeout(resolve, BREAK_MS));
      this.busySince = Date.now();
    }
  }

  private async execute<T>(job: (tx: WriteTx) => Promise<T>): Promise<T> {
    const callbacks: Array<() => void> = [];
    const value = await this.dataSource.transaction(async (em) => {
      const deferred = new Deferred();
      const tx: WriteTx = {
        em,
        afterCommit: (fn) => callbacks.push(fn),
        defer: (key, part, flush) => deferred.add(key, part, flush as Flush),
      };
      const result = await job(tx);
      await deferred.flush(tx);
      return result;
    });
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
