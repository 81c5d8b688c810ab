// A covering index of the training_runs columns run search reads (runs/run-query-sql.ts), SQLite
// only. A totalCount over a free-text or config condition, or over many runs of one status, then
// reads this narrow index (about 200 bytes a run) instead of every whole row (metrics, prompts…):
// SQLite picks a covering index for such scans by itself. Status leads, so `status = …` is a range
// of it. Not on PostgreSQL: a B-tree entry there is limited to about 2.7 KB, and notes or a config
// longer than that would make writing the run fail. The table and its rows are unchanged.
import type { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = [
  'status',
  'created_at',
  'project_name',
  'group_name',
  'model_name',
  'mode',
  'learning_rate',
  'num_examples',
  'rollouts_per_group',
  'num_epochs',
  'max_steps',
  'avg_reward',
  'name',
  'trained_model_name',
  'notes',
  'task_description',
  'config',
];

export class RunSearchIndex1796094000000 implements MigrationInterface {
  name = 'RunSearchIndex1796094000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'better-sqlite3') return;
    await q.query(
      `CREATE INDEX IF NOT EXISTS "IDX_training_runs_search" ON "training_runs" (${COLUMNS.map((c) => `"${c}"`).join(', ')})`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'better-sqlite3') return;
    await q.query('DROP INDEX IF EXISTS "IDX_training_runs_search"');
  }
}
