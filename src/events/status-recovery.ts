// Status events are stored before they are published, so a subscriber need never miss one: when a
// publish is lost (Redis unreachable for a moment, or the publishing instance killed between its
// commit and its publish), each instance finds the stored transitions it never delivered and
// delivers them itself. Each instance runs one small indexed query per interval and per status
// event it receives, however many subscribers it has; a received event is delivered after any
// stored earlier one still missing, so each run's events arrive in order.
import type { Logger } from '../logger';
import type { RunStatusEvent } from './topics';

export interface StatusLog {
  /** Stored transitions after an id, oldest first (at most `limit`). */
  after(eventId: number, limit: number): Promise<RunStatusEvent[]>;
  /** The newest stored transition's id (0 when there is none). */
  latestId(): Promise<number>;
}

export interface StatusRecoveryOptions {
  log: StatusLog;
  /** Delivers a recovered event to this instance's subscribers only. */
  deliver(event: RunStatusEvent): void;
  logger: Logger;
  intervalMs?: number;
  /**
   * How long a transition may take to show up after one with a higher id (transactions commit out of
   * id order on PostgreSQL). Ids at or below the watermark are settled: older than this, all seen.
   */
  settleMs?: number;
}

const PAGE = 1000;

export class StatusRecovery {
  private readonly seen = new Set<number>();
  private watermark = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Deliveries happen one after another, in the order they were asked for. */
  private chain: Promise<void> = Promise.resolve();
  private readonly intervalMs: number;
  private readonly settleMs: number;

  constructor(private readonly opts: StatusRecoveryOptions) {
    this.intervalMs = opts.intervalMs ?? 1000;
    this.settleMs = opts.settleMs ?? 10_000;
  }

  async start(): Promise<void> {
    // What was stored before this instance started is history: replay serves it, not recovery.
    this.watermark = await this.opts.log.latestId();
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  /** A status event published by some instance: delivered once, after any earlier stored one still missing. */
  receive(event: RunStatusEvent): Promise<void> {
    return this.serially(async () => {
      if (this.delivered(event)) return;
      await this.recover().catch((err: unknown) => this.warn(err));
      this.deliver(event);
    });
  }

  /** Looks for undelivered transitions now (also called when the bus reconnects). */
  check(): Promise<void> {
    return this.serially(() => this.recover().catch((err: unknown) => this.warn(err)));
  }

  private serially(task: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(task, task);
    return this.chain;
  }

  private delivered(event: RunStatusEvent): boolean {
    return event.eventId <= this.watermark || this.seen.has(event.eventId);
  }

  private deliver(event: RunStatusEvent): void {
    if (this.delivered(event)) return;
    this.seen.add(event.eventId);
    this.opts.deliver(event);
  }

  private warn(err: unknown): void {
    this.opts.logger.warn(`could not check for missed status events: ${err instanceof Error ? err.message : err}`);
  }

  private async recover(): Promise<void> {
    const stored = await this.opts.log.after(this.watermark, PAGE);
    const settledBefore = Date.now() - this.settleMs;
    let settled = true;
    for (const event of stored) {
      if (!this.delivered(event)) {
        this.opts.logger.debug(
          `delivering status event ${event.eventId} of run ${event.runId}, stored but not (yet) received here`,
        );
        this.deliver(event);
      }
      // The watermark only passes transitions old enough that none below them can still appear.
      settled &&= Date.parse(event.at) < settledBefore;
      if (settled) this.watermark = event.eventId;
    }
    for (const id of this.seen) if (id <= this.watermark) this.seen.delete(id);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
