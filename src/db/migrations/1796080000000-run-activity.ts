// run_activity: when a TRACKED run's rows last arrived and, once none came for STALL_TIMEOUT_SECONDS
// while it was not finished, since when it is stalled (src/runs/stall-monitor.ts). Kept apart from
// training_runs so the seed's row layout is untouched. QueryRunner API only: SQLite and PostgreSQL.
import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class RunActivity1796080000000 implements MigrationInterface {
  name = 'RunActivity1796080000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'run_activity',
        columns: [
          { name: 'run_id', type: 'integer', isPrimary: true },
          { name: 'last_activity_at', type: 'varchar', length: '32' },
          { name: 'stalled_since', type: 'varchar', length: '32', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'IDX_run_activity_last', columnNames: ['last_activity_at'] })],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['run_id'],
            referencedTableName: 'training_runs',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('run_activity');
  }
}
