// API keys (src/auth/). Written with the QueryRunner API only, so it runs on SQLite and PostgreSQL.
// Timestamped after the pipeline's migrations (1796045000000 and later) so the order is plain.
import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class ApiKeys1796060000000 implements MigrationInterface {
  name = 'ApiKeys1796060000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'api_keys',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'key_id', type: 'varchar', length: '32', isUnique: true },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'scope', type: 'varchar', length: '16' },
          { name: 'secret_hash', type: 'varchar', length: '64' },
          { name: 'created_at', type: 'varchar', length: '32' },
          { name: 'last_used_at', type: 'varchar', length: '32', isNullable: true },
          { name: 'revoked_at', type: 'varchar', length: '32', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'IDX_api_keys_name', columnNames: ['name', 'id'] })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('api_keys');
  }
}
