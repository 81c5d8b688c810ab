// Keys scoped to projects (src/domain/project-scope.ts): api_keys.projects holds the JSON list of
// project names a key may reach; NULL (every key made before) reaches every project. QueryRunner
// API only, so it runs on SQLite and PostgreSQL.
import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

export class KeyProjects1796063000000 implements MigrationInterface {
  name = 'KeyProjects1796063000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('api_keys', new TableColumn({ name: 'projects', type: 'text', isNullable: true }));
  }

  /** Without the column a scoped key would reach every project: scoped keys are revoked first (fail closed). */
  async down(q: QueryRunner): Promise<void> {
    // The timestamp is ours (an ISO string of digits and punctuation), so it is written inline: portable SQL.
    const now = new Date().toISOString();
    await q.query(`UPDATE api_keys SET revoked_at = '${now}' WHERE projects IS NOT NULL AND revoked_at IS NULL`);
    await q.dropColumn('api_keys', 'projects');
  }
}
