// Evaluations of kept checkpoints (evaluateCheckpoint): one row each, with its scenarios, status,
// lease and summary. QueryRunner API only: runs on SQLite and PostgreSQL.
import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class Evaluations1796085000000 implements MigrationInterface {
  name = 'Evaluations1796085000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'evaluations',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'uuid', type: 'varchar', length: '36' },
          { name: 'run_id', type: 'integer' },
          { name: 'step', type: 'integer' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'scenarios', type: 'text' },
          { name: 'source', type: 'varchar', length: '100' },
          { name: 'model_name', type: 'varchar', length: '300', isNullable: true },
          { name: 'metrics', type: 'text', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '32' },
          { name: 'started_at', type: 'varchar', length: '32', isNullable: true },
          { name: 'completed_at', type: 'varchar', length: '32', isNullable: true },
          { name: 'lease_owner', type: 'varchar', length: '200', isNullable: true },
          { name: 'lease_expires_at', type: 'varchar', length: '32', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'UQ_evaluations_uuid', columnNames: ['uuid'], isUnique: true }),
          new TableIndex({ name: 'IDX_evaluations_run', columnNames: ['run_id', 'id'] }),
          new TableIndex({ name: 'IDX_evaluations_status', columnNames: ['status', 'id'] }),
        ],
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
    await q.dropTable('evaluations');
  }
}
