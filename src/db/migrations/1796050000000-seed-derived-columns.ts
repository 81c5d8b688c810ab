// Rows written by other tools in the seed's layout (its to_dict) carry no `step` or `avg_reward`:
// on SQLite, the database other tools write to, this fills them in from the JSON the row does carry.
// New rows are covered by triggers, which ../sqlite-triggers.ts (re)creates after every start.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SeedDerivedColumns1796050000000 implements MigrationInterface {
  name = 'SeedDerivedColumns1796050000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'better-sqlite3') return;
    await q.query(`UPDATE trajectories SET step = json_extract(task_input, '$.step') WHERE step IS NULL`);
    await q.query(
      `UPDATE training_runs SET avg_reward = json_extract(metrics, '$.avg_reward') WHERE avg_reward IS NULL AND metrics IS NOT NULL`,
    );
  }

  async down(): Promise<void> {
    // The derived values stay: they are what the rows' own JSON says.
  }
}
