// Exactly one instance drives a pipeline run at a time. An instance claims a run with a lease in the
// database — one conditional UPDATE, atomic on SQLite and PostgreSQL alike — renews it while it
// works, and stops the moment a renewal fails. A claim also keeps ART's rule that one backend trains
// one model at a time: a run starts only when no other run of its backend is active, oldest first.
import type { Database } from '../db/data-source';
import { TrainingRunEntity } from '../db/entities';
import { toStoredDate } from '../db/timestamps';

const FINAL = `('completed', 'failed', 'cancelled')`;
const ACTIVE = `('generating', 'collecting', 'scoring', 'training')`;

export class Leases {
  constructor(
    private readonly db: Database,
    readonly owner: string,
    private readonly ttlMs: number,
  ) {}

  private expiry(): string {
    return toStoredDate(new Date(Date.now() + this.ttlMs));
  }

  /** Claims a run for this instance on its backend; false when someone else holds it or the backend is busy. */
  async claim(runId: number, backend: string): Promise<boolean> {
    const now = toStoredDate(new Date());
    const result = await this.db.writes.run((tx) =>
      tx.em
        .createQueryBuilder()
        .update(TrainingRunEntity)
        .set({ leaseOwner: this.owner, leaseExpiresAt: this.expiry(), backend })
        .where(`id = :runId AND mode = 'pipeline' AND status NOT IN ${FINAL}`, { runId })
        .andWhere('(lease_owner IS NULL OR lease_expires_at < :now OR lease_owner = :owner)', { now, owner: this.owner })
        // Nobody else drives a run of this backend…
        .andWhere(
          `NOT EXISTS (SELECT 1 FROM training_runs o WHERE o.backend = :backend AND o.id <> :runId AND o.status NOT IN ${FINAL} AND o.lease_owner IS NOT NULL AND o.lease_expires_at >= :now)`,
          { backend, runId, now },
        )
        // …and a PENDING run waits for every active one of its backend and for older PENDING ones.
        .andWhere(
          `(status <> 'pending' OR NOT EXISTS (SELECT 1 FROM training_runs o WHERE o.backend = :backend AND o.mode = 'pipeline' AND o.id <> :runId AND (o.status IN ${ACTIVE} OR (o.status = 'pending' AND o.id < :runId))))`,
          { backend, runId },
        )
        .execute(),
    );
    return (result.affected ?? 0) === 1;
  }

  /** Extends this instance's lease; false when it was lost (expired and taken) or the run has ended. */
  async renew(runId: number): Promise<boolean> {
    const result = await this.db.writes.run((tx) =>
      tx.em
        .createQueryBuilder()
        .update(TrainingRunEntity)
        .set({ leaseExpiresAt: this.expiry() })
        .where(`id = :runId AND lease_owner = :owner AND status NOT IN ${FINAL}`, { runId, owner: this.owner })
        .execute(),
    );
    return (result.affected ?? 0) === 1;
  }

  /** Hands a run back at once (graceful shutdown, or the run ended). */
  async release(runId: number): Promise<void> {
    await this.db.writes.run((tx) =>
      tx.em.createQueryBuilder().update(TrainingRunEntity).set({ leaseOwner: null, leaseExpiresAt: null }).where('id = :runId AND lease_owner = :owner', { runId, owner: this.owner }).execute(),
    );
  }

  /** On SQLite one process owns the file: leases left by a process that died are void at once. */
  async voidAll(): Promise<void> {
    await this.db.writes.run((tx) =>
      tx.em.createQueryBuilder().update(TrainingRunEntity).set({ leaseOwner: null, leaseExpiresAt: null }).where('lease_owner IS NOT NULL').execute(),
    );
  }
}
