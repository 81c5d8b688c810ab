// Bounded concurrency: a semaphore, and map with at most `limit` calls in flight.

export class Semaphore {
  private active = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    while (this.active >= this.limit) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiters.shift()?.();
    }
  }
}

/** Like Promise.all over items.map(fn), with at most `limit` calls running at once. Fails fast. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const gate = new Semaphore(Math.max(1, limit));
  return Promise.all(items.map((item, i) => gate.run(() => fn(item, i))));
}
