// Queries over api_keys. Reads only: every write goes through ApiKeysService and the write queue.
import { In, IsNull, type DataSource, type EntityManager } from 'typeorm';

import type { DbKind } from '../db/data-source';
import { ApiKeyEntity, type ApiKeyRow } from '../db/entities';
import { ACTIVE_KEY_NAME_INDEX } from '../db/migrations/1796062000000-api-key-active-names';

/** pg_advisory_xact_lock's key for key management ("atlk"): one constant, so every instance takes the same lock. */
const KEY_MANAGEMENT_LOCK = 0x61746c6b;

/**
 * Serializes key management inside a write transaction, so "is this the last admin key?" and "is
 * this name taken?" stay true until the transaction commits. On PostgreSQL, whose writes run
 * concurrently (on every instance), a transaction-scoped advisory lock: two admins revoking each
 * other at once are taken one after the other, and the second sees the first's revocation. On
 * SQLite a write transaction already holds the file's only write lock (BEGIN IMMEDIATE, see
 * write-queue.ts), across processes, so there is nothing to add.
 */
export async function lockKeyManagement(em: EntityManager, kind: DbKind): Promise<void> {
  if (kind === 'postgres') await em.query('SELECT pg_advisory_xact_lock($1)', [KEY_MANAGEMENT_LOCK]);
}

/** Whether a write failed on the one-active-key-per-name index (both databases name it in the error). */
export function isActiveNameConflict(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string; driverError?: unknown };
  const driver = (e?.driverError ?? e) as { code?: string; constraint?: string; message?: string };
  if (driver?.code === '23505') return driver.constraint === ACTIVE_KEY_NAME_INDEX;
  return (
    typeof driver?.code === 'string' &&
    driver.code.startsWith('SQLITE_CONSTRAINT') &&
    /api_keys\.name/.test(driver.message ?? '')
  );
}

export class ApiKeysRepo {
  constructor(private readonly ds: DataSource) {}

  private get repo() {
    return this.ds.getRepository(ApiKeyEntity);
  }

  findByKeyId(keyId: string): Promise<ApiKeyRow | null> {
    return this.repo.findOneBy({ keyId });
  }

  /** Every key, newest first (keys are few: this is not paginated). */
  list(): Promise<ApiKeyRow[]> {
    return this.repo.find({ order: { id: 'DESC' } });
  }

  activeByName(name: string): Promise<ApiKeyRow[]> {
    return this.repo.find({ where: { name, revokedAt: IsNull() }, order: { id: 'DESC' } });
  }

  /** Whether any key was ever made (revoked ones included). */
  async anyEverMade(): Promise<boolean> {
    return (await this.repo.count({ take: 1 })) > 0;
  }

  countActive(): Promise<number> {
    return this.repo.countBy({ revokedAt: IsNull() });
  }

  /** Which of these keys are revoked or gone. */
  async invalidAmong(keyIds: string[]): Promise<string[]> {
    if (keyIds.length === 0) return [];
    const active = await this.repo.find({ select: { keyId: true }, where: { keyId: In(keyIds), revokedAt: IsNull() } });
    const live = new Set(active.map((r) => r.keyId));
    return keyIds.filter((k) => !live.has(k));
  }
}
