// Notices TRACKED runs gone silent: not finished, and no rows for STALL_TIMEOUT_SECONDS (since their
// last rows, or their start before any). Each is marked stalled once, whichever server process looks
// first: the mark is a conditional UPDATE (still unmarked, still silent, still TRACKED and not final),
// and only the process whose UPDATE changed the row publishes the runStall event. Nothing is held in
// memory, so a restarted server finds the same stalls from what is stored. The clock is injectable.
import type { Database } from '../db/data-source';
import { RunActivityEntity } from '../db/entities';
import { toStoredDate } from '../db/timestamps';
import type { EventBus } from '../events/event-bus';
import type { RunStallEvent } from '../events/topics';
import type { Logger } from '../logger';
import { markStalled, silentTrackedRuns } from './runs.repo';

export interface StallMonitorOptions {
  timeoutMs: number;
  /** Between checks; default a quarter of the timeout, between 25 ms and 10 s. */
  intervalMs?: number;
  now?: () => Date;
  logger: Logger;
}

/** Runs marked per check at most (the rest on the next). */
const BATCH = 500;

export class StallMonitor {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private readonly now: () => Date;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly options: StallMonitorOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  get intervalMs(): number {
    return this.options.intervalMs ?? Math.min(10_000, Math.max(25, this.options.timeoutMs / 4));
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.check()
        .catch((err: Error) => this.options.logger.warn(`stall check failed: ${err.message}`))
        .finally(() => (this.running = null));
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Marks the runs silent for longer than the timeout as stalled (as of `now`); returns the events this call published. */
  async check(now: Date = this.now()): Promise<RunStallEvent[]> {
    const at = toStoredDate(now);
    const cutoff = toStoredDate(new Date(now.getTime() - this.options.timeoutMs));
    const candidates = await silentTrackedRuns(this.db.reader, this.db.kind, cutoff, BATCH);
    if (candidates.length === 0) return [];
    const published: RunStallEvent[] = [];
    await this.db.writes.run(async (tx) => {
      const repo = tx.em.getRepository(RunActivityEntity);
      for (const c of candidates) {
        const runId = Number(c.id);
        // A run that never had rows: its start stands for its last activity.
        if (c.known == null)
          await repo
            .createQueryBuilder()
            .insert()
            .values({ runId, lastActivityAt: c.last, stalledSince: null })
            .orIgnore()
            .execute();
        if (!(await markStalled(tx.em, runId, cutoff, at))) continue;
        const event: RunStallEvent = {
          runId,
          projectName: c.project_name,
          stalled: true,
          stalledSince: at,
          lastActivityAt: c.last,
          at,
        };
        published.push(event);
        tx.afterCommit(() => this.events.publish('runStall', event));
      }
    });
    return published;
  }
}
