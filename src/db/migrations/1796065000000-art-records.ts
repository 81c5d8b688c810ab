// ART-native records: a trajectory's split and group, its whole ART JSON beside it, the groups
// themselves, history points keyed by (split, step) with their named values as rows, and
// checkpoints. Existing rows move without loss: every trajectory and point becomes `train`, and each
// point's `values` JSON becomes metric_values rows. QueryRunner API only: runs on SQLite and PostgreSQL.
import { Table, TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const runFk = () =>
  new TableForeignKey({
    columnNames: ['run_id'],
    referencedTableName: 'training_runs',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });
const id = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment' as const,
};

export class ArtRecords1796065000000 implements MigrationInterface {
  name = 'ArtRecords1796065000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('trajectories', [
      new TableColumn({ name: 'split', type: 'varchar', length: '64', default: "'train'" }),
      new TableColumn({ name: 'group_id', type: 'integer', isNullable: true }),
    ]);
    await q.createIndices('trajectories', [
      new TableIndex({ name: 'IDX_trajectories_run_split_step', columnNames: ['run_id', 'split', 'step', 'id'] }),
      new TableIndex({ name: 'IDX_trajectories_group', columnNames: ['group_id', 'id'] }),
    ]);

    await q.createTable(
      new Table({
        name: 'trajectory_groups',
        columns: [
          id,
          { name: 'run_id', type: 'integer' },
          { name: 'split', type: 'varchar', length: '64' },
          { name: 'step', type: 'integer' },
          { name: 'group_index', type: 'integer' },
          { name: 'art', type: 'text' },
          { name: 'created_at', type: 'varchar', length: '32' },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_trajectory_groups_run_split_step_index',
            columnNames: ['run_id', 'split', 'step', 'group_index'],
            isUnique: true,
          }),
        ],
        foreignKeys: [runFk()],
      }),
    );
    await q.createTable(
      new Table({
        name: 'trajectory_art',
        columns: [
          { name: 'trajectory_id', type: 'integer', isPrimary: true },
          { name: 'art', type: 'text' },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['trajectory_id'],
            referencedTableName: 'trajectories',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'metric_values',
        columns: [
          id,
          { name: 'run_id', type: 'integer' },
          { name: 'split', type: 'varchar', length: '64' },
          { name: 'step', type: 'integer' },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'value', type: 'double precision' },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_metric_values_run_split_name_step',
            columnNames: ['run_id', 'split', 'name', 'step'],
            isUnique: true,
          }),
        ],
        foreignKeys: [runFk()],
      }),
    );
    await q.createTable(
      new Table({
        name: 'checkpoints',
        columns: [
          id,
          { name: 'run_id', type: 'integer' },
          { name: 'step', type: 'integer' },
          { name: 'name', type: 'varchar', length: '300' },
          { name: 'uri', type: 'text', isNullable: true },
          { name: 'created_at', type: 'varchar', length: '32' },
          { name: 'deleted_at', type: 'varchar', length: '32', isNullable: true },
          { name: 'deletion_reason', type: 'text', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'UQ_checkpoints_run_step', columnNames: ['run_id', 'step'], isUnique: true })],
        foreignKeys: [runFk()],
      }),
    );

    // History points: keyed by (run, split, step); their values move to metric_values, unchanged.
    await q.addColumn(
      'metric_points',
      new TableColumn({ name: 'split', type: 'varchar', length: '64', default: "'train'" }),
    );
    await q.dropIndex('metric_points', 'UQ_metric_points_run_step');
    await q.createIndex(
      'metric_points',
      new TableIndex({
        name: 'UQ_metric_points_run_split_step',
        columnNames: ['run_id', 'split', 'step'],
        isUnique: true,
      }),
    );
    const ph = (n: number) => (q.connection.driver.options.type === 'postgres' ? `$${n}` : '?');
    let after = 0;
    for (;;) {
      const rows: Array<{ id: number | string; run_id: number | string; step: number | string; values: string }> =
        await q.query(
          `SELECT id, run_id, step, ${q.connection.driver.escape('values')} FROM metric_points WHERE id > ${ph(1)} ORDER BY id LIMIT 1000`,
          [after],
        );
      if (rows.length === 0) break;
      for (const r of rows) {
        after = Number(r.id);
        const values = JSON.parse(r.values || '{}') as Record<string, unknown>;
        for (const [name, value] of Object.entries(values)) {
          if (typeof value !== 'number' || !Number.isFinite(value)) continue;
          await q.query(
            `INSERT INTO metric_values (run_id, split, step, name, value) VALUES (${ph(1)}, 'train', ${ph(2)}, ${ph(3)}, ${ph(4)})`,
            [Number(r.run_id), Number(r.step), name, value],
          );
        }
      }
    }
    await q.dropColumn('metric_points', 'values');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.addColumn('metric_points', new TableColumn({ name: 'values', type: 'text', default: "'{}'" }));
    await q.dropIndex('metric_points', 'UQ_metric_points_run_split_step');
    await q.query(`DELETE FROM metric_points WHERE split <> 'train'`);
    await q.dropColumn('metric_points', 'split');
    await q.createIndex(
      'metric_points',
      new TableIndex({ name: 'UQ_metric_points_run_step', columnNames: ['run_id', 'step'], isUnique: true }),
    );
    for (const t of ['checkpoints', 'metric_values', 'trajectory_art', 'trajectory_groups']) await q.dropTable(t);
    await q.dropIndex('trajectories', 'IDX_trajectories_group');
    await q.dropIndex('trajectories', 'IDX_trajectories_run_split_step');
    await q.dropColumn('trajectories', 'group_id');
    await q.dropColumn('trajectories', 'split');
  }
}
