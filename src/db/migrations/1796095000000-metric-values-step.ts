// metric_values by (run_id, split, step): the bucketed history (metrics.repo.ts bucketed) looks each
// point's named values up by its step; without it, SQLite joined every value of the run to every
// point (300 ms for a 2,000-step run). QueryRunner API only: runs on SQLite and PostgreSQL.
import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class MetricValuesStep1796095000000 implements MigrationInterface {
  name = 'MetricValuesStep1796095000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'metric_values',
      new TableIndex({ name: 'IDX_metric_values_run_split_step', columnNames: ['run_id', 'split', 'step'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('metric_values', 'IDX_metric_values_run_split_step');
  }
}
