// One active key per name, enforced by the database on both kinds (#23): a partial unique index over
// the names of keys not revoked, so concurrent createApiKey calls (or the keys command beside a
// server) cannot make two active keys with one name, whatever the check before the insert saw.
// Revoked keys keep their rows and may share a name. QueryRunner API only: portable.
import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export const ACTIVE_KEY_NAME_INDEX = 'UQ_api_keys_active_name';

export class ApiKeyActiveNames1796062000000 implements MigrationInterface {
  name = 'ApiKeyActiveNames1796062000000';

  async up(q: QueryRunner): Promise<void> {
    // A database the race already hit holds active duplicates: the older ones get a distinct name
    // (`<name>-dup-<row id>`, still valid key names) rather than being revoked, so nobody loses access.
    await q.query(
      `UPDATE api_keys SET name = substr(name, 1, 80) || '-dup-' || CAST(id AS TEXT)
        WHERE revoked_at IS NULL
          AND EXISTS (SELECT 1 FROM api_keys newer
                       WHERE newer.name = api_keys.name AND newer.revoked_at IS NULL AND newer.id > api_keys.id)`,
    );
    await q.createIndex(
      'api_keys',
      new TableIndex({
        name: ACTIVE_KEY_NAME_INDEX,
        columnNames: ['name'],
        isUnique: true,
        where: 'revoked_at IS NULL',
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('api_keys', ACTIVE_KEY_NAME_INDEX);
  }
}
