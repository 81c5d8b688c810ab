// Datasets: named lists of scenarios (the seed's TaskInput: input_text and a context object) with a
// held-out `val` part, which PIPELINE runs can train on instead of generated inputs. A run's own
// inputs gain their split too (train rows are trained on, val rows only evaluated).
// QueryRunner API only: runs on SQLite and PostgreSQL.
import { Table, TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const id = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment' as const,
};

export class Datasets1796070000000 implements MigrationInterface {
  name = 'Datasets1796070000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'datasets',
        columns: [
          id,
          { name: 'uuid', type: 'varchar', length: '36' },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'train_count', type: 'integer' },
          { name: 'val_count', type: 'integer' },
          { name: 'created_at', type: 'varchar', length: '32' },
        ],
        indices: [
          new TableIndex({ name: 'UQ_datasets_uuid', columnNames: ['uuid'], isUnique: true }),
          new TableIndex({ name: 'IDX_datasets_created', columnNames: ['created_at', 'id'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'dataset_items',
        columns: [
          id,
          { name: 'dataset_id', type: 'integer' },
          { name: 'position', type: 'integer' },
          { name: 'split', type: 'varchar', length: '64' },
          { name: 'input_text', type: 'text' },
          { name: 'context', type: 'text', isNullable: true },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_dataset_items_dataset_position',
            columnNames: ['dataset_id', 'position'],
            isUnique: true,
          }),
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['dataset_id'],
            referencedTableName: 'datasets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
    await q.addColumn(
      'task_inputs',
      new TableColumn({ name: 'split', type: 'varchar', length: '64', default: "'train'" }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM task_inputs WHERE split <> 'train'`);
    await q.dropColumn('task_inputs', 'split');
    await q.dropTable('dataset_items');
    await q.dropTable('datasets');
  }
}
