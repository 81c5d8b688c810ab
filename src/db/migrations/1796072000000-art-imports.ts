// art_import_files: what an ART folder import has taken of each file (src/imports/), so a re-import
// ships only what changed. QueryRunner API only: runs on SQLite and PostgreSQL.
import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class ArtImports1796072000000 implements MigrationInterface {
  name = 'ArtImports1796072000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'art_import_files',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'run_id', type: 'integer' },
          { name: 'path', type: 'varchar', length: '500' },
          { name: 'size', type: 'bigint' },
          { name: 'sha256', type: 'varchar', length: '64' },
          { name: 'consumed', type: 'bigint' },
          { name: 'tail', type: 'varchar', length: '100', isNullable: true },
          { name: 'imported_at', type: 'varchar', length: '32' },
        ],
        indices: [
          new TableIndex({ name: 'UQ_art_import_files_run_path', columnNames: ['run_id', 'path'], isUnique: true }),
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
    await q.dropTable('art_import_files');
  }
}
