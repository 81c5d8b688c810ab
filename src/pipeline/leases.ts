// Exactly one instance drives a pipeline run at a time. An instance claims a run with a lease in the
// database, renews it while it works, and stops the moment a renewal fails. A claim also keeps ART's
// rule that one backend trains one model at a time: a run starts only when no other run of its
// backend is active, oldest first. The statements themselves live in runs/runs.repo.ts.
import type { Database } from '../db/data-source';
import { claimLease, releaseLease, renewLease, voidLeases } from '../runs/runs.repo';

export class Leases {
  constructor(
    private readonly db: Database,
    readonly owner: string,
    private readonly ttlMs: number,
  ) {}

  private expiry(): Date {
    return new Date(Date.now() + this.ttlMs);
  }

  /** Claims a run for this instance on its backend; false when someone else holds it or the backend is busy. */
  claim(runId: number, backend: string): Promise<boolean> {
    return this.db.writes.run((tx) =>
      claimLease(tx.em, { runId, backend, owner: this.owner, expiresAt: this.expiry(), now: new Date() }),
    );
  }

  /** Extends this instance's lease; false when it was lost (expired and taken) or the run has ended. */
  renew(runId: number): Promise<boolean> {
    return this.db.writes.run((tx) => renewLease(tx.em, runId, this.owner, this.expiry()));
  }

  /** Hands a run back at once (graceful shutdown, or the run ended). */
  release(runId: number): Promise<void> {
    return this.db.writes.run((tx) => releaseLease(tx.em, runId, this.owner));
  }

  /** On SQLite one process owns the file: leases left by a process that died are void at once. */
  voidAll(): Promise<void> {
    return this.db.writes.run((tx) => voidLeases(tx.em));
  }
}

/**
 * Self-fencing (#23): an instance that cannot renew a lease must stop driving the run before the
 * lease can run out, because from that moment another instance may take the run over. The fence is
 * armed at each claim or renewal, for `marginMs` before the lease it wrote expires (counted from
 * before the write was sent, so never later than the database's expiry), and fires on its own timer,
 * not at the next renewal tick: a check made only at renewal ticks fired anywhere between a full
 * interval and no time at all before expiry, depending on how the ticks fell against the claim.
 */
export class LeaseFence {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ttlMs: number,
    readonly marginMs: number,
    private readonly onFence: (lastRenewedAt: number) => void,
  ) {}

  /** The lease was claimed or renewed by a write sent at `at` (ms since the epoch). */
  renewed(at: number): void {
    this.cancel();
    const fenceAt = at + this.ttlMs - this.marginMs;
    this.timer = setTimeout(() => this.onFence(at), Math.max(0, fenceAt - Date.now()));
    this.timer.unref?.();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
