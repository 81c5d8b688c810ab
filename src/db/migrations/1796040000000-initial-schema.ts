// The first schema: runs, trajectories, status transitions, metric points and task inputs.
// Written with the QueryRunner API only, so the same migration runs on SQLite and PostgreSQL.
import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const id = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment' as const,
};
const runFk = () =>
  new TableForeignKey({
    columnNames: ['run_id'],
    referencedTableName: 'training_runs',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });
const runId = { name: 'run_id', type: 'integer' };

export class InitialSchema1796040000000 implements MigrationInterface {
  name = 'InitialSchema1796040000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'training_runs',
        columns: [
          id,
          { name: 'uuid', type: 'varchar', length: '36', isUnique: true },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'model_name', type: 'varchar', length: '200' },
          { name: 'project_name', type: 'varchar', length: '200' },
          { name: 'trained_model_name', type: 'varchar', length: '200', isNullable: true },
          { name: 'task_description', type: 'text' },
          { name: 'num_examples', type: 'integer' },
          { name: 'rollouts_per_group', type: 'integer' },
          { name: 'learning_rate', type: 'double precision' },
          { name: 'num_epochs', type: 'integer' },
          { name: 'max_steps', type: 'integer', isNullable: true },
          { name: 'system_prompt', type: 'text', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '32' },
          { name: 'started_at', type: 'varchar', length: '32', isNullable: true },
          { name: 'completed_at', type: 'varchar', length: '32', isNullable: true },
          { name: 'metrics', type: 'text', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
          { name: 'config', type: 'text', isNullable: true },
          { name: 'avg_reward', type: 'double precision', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'IDX_training_runs_created', columnNames: ['created_at', 'id'] }),
          new TableIndex({ name: 'IDX_training_runs_avg_reward', columnNames: ['avg_reward', 'id'] }),
          new TableIndex({ name: 'IDX_training_runs_status', columnNames: ['status', 'created_at'] }),
          new TableIndex({ name: 'IDX_training_runs_project', columnNames: ['project_name', 'created_at'] }),
          new TableIndex({ name: 'IDX_training_runs_model', columnNames: ['model_name', 'created_at'] }),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'trajectories',
        columns: [
          id,
          { name: 'uuid', type: 'varchar', length: '36', isUnique: true },
          runId,
          { name: 'task_input', type: 'text' },
          { name: 'messages', type: 'text' },
          { name: 'reward', type: 'double precision', isNullable: true },
          { name: 'metadata', type: 'text', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '32' },
          { name: 'step', type: 'integer', isNullable: true },
        ],
        foreignKeys: [runFk()],
        indices: [
          new TableIndex({ name: 'IDX_trajectories_run_created', columnNames: ['run_id', 'created_at', 'id'] }),
          new TableIndex({ name: 'IDX_trajectories_run_reward', columnNames: ['run_id', 'reward', 'id'] }),
          new TableIndex({ name: 'IDX_trajectories_run_step', columnNames: ['run_id', 'step', 'id'] }),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'status_transitions',
        columns: [
          id,
          runId,
          { name: 'from_status', type: 'varchar', length: '16', isNullable: true },
          { name: 'to_status', type: 'varchar', length: '16' },
          { name: 'at', type: 'varchar', length: '32' },
          { name: 'reason', type: 'text', isNullable: true },
        ],
        foreignKeys: [runFk()],
        indices: [new TableIndex({ name: 'IDX_status_transitions_run', columnNames: ['run_id', 'id'] })],
      }),
    );

    await q.createTable(
      new Table({
        name: 'metric_points',
        columns: [
          id,
          runId,
          { name: 'step', type: 'integer' },
          { name: 'epoch', type: 'integer' },
          { name: 'total_trajectories', type: 'integer' },
          { name: 'avg_reward', type: 'double precision', isNullable: true },
          { name: 'min_reward', type: 'double precision', isNullable: true },
          { name: 'max_reward', type: 'double precision', isNullable: true },
          { name: 'reward_std', type: 'double precision', isNullable: true },
          { name: 'training_loss', type: 'double precision', isNullable: true },
          { name: 'values', type: 'text' },
          { name: 'recorded_at', type: 'varchar', length: '32' },
        ],
        foreignKeys: [runFk()],
        indices: [
          new TableIndex({ name: 'UQ_metric_points_run_step', columnNames: ['run_id', 'step'], isUnique: true }),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'task_inputs',
        columns: [
          id,
          runId,
          { name: 'position', type: 'integer' },
          { name: 'step', type: 'integer' },
          { name: 'input_text', type: 'text' },
          { name: 'context', type: 'text', isNullable: true },
        ],
        foreignKeys: [runFk()],
        indices: [
          new TableIndex({ name: 'UQ_task_inputs_run_position', columnNames: ['run_id', 'position'], isUnique: true }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['task_inputs', 'metric_points', 'status_transitions', 'trajectories', 'training_runs']) {
      await q.dropTable(t);
    }
  }
}
