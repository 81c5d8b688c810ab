// The wake-or-poll loop both runners look for work with: one look at a time, the next one a poll
// interval after the last ended (or at once when woken), none after stop.
export class PollLoop {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private running = false;

  constructor(
    private readonly look: () => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  /** Whether the loop was started and not stopped: work in flight checks it between items. */
  get active(): boolean {
    return this.running;
  }

  start(): void {
    this.running = true;
    this.wake();
  }

  /** Looks for work now (unless a look is under way; the next one follows it). */
  wake(): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  /** Stops looking; resolves once a look under way has ended. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }

  private tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    // finally() runs after this assignment even when there is no work to await.
    this.ticking = this.look().finally(() => {
      this.ticking = null;
      if (this.running) {
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.tick(), this.intervalMs);
      }
    });
    return this.ticking;
  }
}
