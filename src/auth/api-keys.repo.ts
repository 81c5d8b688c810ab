// Queries over api_keys. Reads only: every write goes through ApiKeysService and the write queue.
import { In, IsNull, type DataSource } from 'typeorm';

import { ApiKeyEntity, type ApiKeyRow } from '../db/entities';

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
