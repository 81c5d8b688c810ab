// Counts the statements a DataSource runs (TypeORM calls logQuery for each), so tests and
// operators can see that a page costs a fixed number of queries, not one per row. `count` is every
// statement since start (background work included); a tally counts only the statements run inside
// one piece of work (an operation's execution, by AsyncLocalStorage), whatever else runs meanwhile.
import { AsyncLocalStorage } from 'node:async_hooks';

import type { Logger } from 'typeorm';

export interface QueryTally {
  queries: number;
  /** When given, the start of each statement's text, in order. */
  statements?: string[];
}

export class QueryCounter implements Logger {
  count = 0;
  private readonly current = new AsyncLocalStorage<QueryTally>();

  /** Runs fn with `tally` counting every statement fn runs, and what it starts, until it settles. */
  within<T>(tally: QueryTally, fn: () => T): T {
    return this.current.run(tally, fn);
  }

  logQuery(query: string): void {
    this.count++;
    const tally = this.current.getStore();
    if (!tally) return;
    tally.queries++;
    tally.statements?.push(query.slice(0, 500));
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}
