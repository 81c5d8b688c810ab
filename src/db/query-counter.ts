// Counts the statements a DataSource runs (TypeORM calls logQuery for each), so tests and
// operators can see that a page costs a fixed number of queries, not one per row.
import type { Logger } from 'typeorm';

export class QueryCounter implements Logger {
  count = 0;
  logQuery(): void {
    this.count++;
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}
