// What the training pipeline needs on top of the first schema: a run's mode and current step, the
// raw completion choice of each rollout (ART trains on its token logprobs), and the per-gradient-step
// values the trainer streams back.
import { Table, TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class Pipeline1796045000000 implements MigrationInterface {
  name = 'Pipeline1796045000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('training_runs', [
      new TableColumn({ name: 'mode', type: 'varchar', length: '16', default: "'tracked'" }),
      new TableColumn({ name: 'current_step', type: 'integer', isNullable: true }),
    ]);
    await q.createIndex(
      'training_runs',
      new TableIndex({ name: 'IDX_training_runs_mode_status', columnNames: ['mode', 'status', 'id'] }),
    );
    await q.addColumn('trajectories', new TableColumn({ name: 'choice', type: 'text', isNullable: true }));
    await q.createTable(
      new Table({
        name: 'gradient_steps',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'run_id', type: 'integer' },
          { name: 'step', type: 'integer' },
          { name: 'gradient_step', type: 'integer' },
          { name: 'loss', type: 'double precision', isNullable: true },
          { name: 'values', type: 'text' },
          { name: 'recorded_at', type: 'varchar', length: '32' },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['run_id'],
            referencedTableName: 'training_runs',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        indices: [
          new TableIndex({
            name: 'UQ_gradient_steps_run_step',
            columnNames: ['run_id', 'step', 'gradient_step'],
            isUnique: true,
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('gradient_steps');
    await q.dropColumn('trajectories', 'choice');
    await q.dropIndex('training_runs', 'IDX_training_runs_mode_status');
    await q.dropColumn('training_runs', 'current_step');
    await q.dropColumn('training_runs', 'mode');
  }
}
