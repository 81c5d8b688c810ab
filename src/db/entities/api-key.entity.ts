// The `api_keys` table: who may call Atelier. A key is shown once when made; only its SHA-256 is
// stored. Rows are never deleted: a revoked key keeps its row (revoked_at set) so the record of who
// had access stays, and so "no key was ever made" (open mode on loopback) can never come back.
import { EntitySchema } from 'typeorm';

export interface ApiKeyRow {
  id: number;
  /** The public part of the key (atl_<keyId>_<secret>): how a presented key is found. */
  keyId: string;
  name: string;
  /** read, write or admin. */
  scope: string;
  /** Hex SHA-256 of the secret part. */
  secretHash: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The projects the key may reach, a JSON list of names; null: every project. */
  projects: string | null;
}

export const ApiKeyEntity = new EntitySchema<ApiKeyRow>({
  name: 'ApiKey',
  tableName: 'api_keys',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    keyId: { name: 'key_id', type: 'varchar', length: 32, unique: true },
    name: { type: 'varchar', length: 100 },
    scope: { type: 'varchar', length: 16 },
    secretHash: { name: 'secret_hash', type: 'varchar', length: 64 },
    createdAt: { name: 'created_at', type: 'varchar', length: 32 },
    lastUsedAt: { name: 'last_used_at', type: 'varchar', length: 32, nullable: true },
    revokedAt: { name: 'revoked_at', type: 'varchar', length: 32, nullable: true },
    projects: { type: 'text', nullable: true },
  },
  indices: [
    { name: 'IDX_api_keys_name', columns: ['name', 'id'] },
    // One active key per name (migration 1796062000000).
    { name: 'UQ_api_keys_active_name', columns: ['name'], unique: true, where: 'revoked_at IS NULL' },
  ],
});
