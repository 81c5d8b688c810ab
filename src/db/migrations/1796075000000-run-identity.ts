// Finding and comparing runs: a run's name, notes and group (columns the seed's from_row ignores),
// its tags (run_tags, indexed by tag for filtering), per-metric summaries (run_summaries: last, min
// and max of every metric per split, indexed by name and last value for sorting and filtering), and
// token and time costs per step (run_costs). QueryRunner API only: runs on SQLite and PostgreSQL.
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

export class RunIdentity1796075000000 implements MigrationInterface {
  name = 'RunIdentity1796075000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('training_runs', [
      new TableColumn({ name: 'name', type: 'varchar', length: '200', isNullable: true }),
      new TableColumn({ name: 'notes', type: 'text', isNullable: true }),
      new TableColumn({ name: 'group_name', type: 'varchar', length: '200', isNullable: true }),
    ]);
    await q.createIndex(
      'training_runs',
      new TableIndex({ name: 'IDX_training_runs_group', columnNames: ['group_name', 'created_at'] }),
    );
    await q.createTable(
      new Table({
        name: 'run_tags',
        columns: [
          { name: 'run_id', type: 'integer', isPrimary: true },
          { name: 'tag', type: 'varchar', length: '64', isPrimary: true },
        ],
        indices: [new TableIndex({ name: 'IDX_run_tags_tag', columnNames: ['tag', 'run_id'] })],
        foreignKeys: [runFk()],
      }),
    );
    await q.createTable(
      new Table({
        name: 'run_summaries',
        columns: [
          id,
          { name: 'run_id', type: 'integer' },
          { name: 'split', type: 'varchar', length: '64' },
          { name: 'name', type: 'varchar', length: '300' },
          { name: 'source', type: 'varchar', length: '8' },
          { name: 'step', type: 'integer' },
          { name: 'last', type: 'double precision' },
          { name: 'min', type: 'double precision' },
          { name: 'max', type: 'double precision' },
        ],
        indices: [
          new TableIndex({ name: 'UQ_run_summaries_run_name', columnNames: ['run_id', 'name'], isUnique: true }),
          new TableIndex({ name: 'IDX_run_summaries_name_last', columnNames: ['name', 'last', 'run_id'] }),
        ],
        foreignKeys: [runFk()],
      }),
    );
    await q.createTable(
      new Table({
        name: 'run_costs',
        columns: [
          id,
          { name: 'run_id', type: 'integer' },
          { name: 'step', type: 'integer' },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'value', type: 'double precision' },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_run_costs_run_name_step',
            columnNames: ['run_id', 'name', 'step'],
            isUnique: true,
          }),
        ],
        foreignKeys: [runFk()],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['run_costs', 'run_summaries', 'run_tags']) await q.dropTable(t);
    await q.dropIndex('training_runs', 'IDX_training_runs_group');
    for (const c of ['group_name', 'notes', 'name']) await q.dropColumn('training_runs', c);
  }
}
