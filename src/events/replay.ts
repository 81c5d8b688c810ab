// Resume without gaps: replay stored events after a client's last seen id, then go live. The live
// subscription is opened before the replay is read, so an event committed in between is in one or
// the other; events already replayed are skipped by id (tracked per run, because ids increase in
// commit order within a run).
export interface Replayable {
  eventId: number;
  runId: number;
}

export class ReplayThenLive<T extends Replayable> implements AsyncIterableIterator<T> {
  private page: T[] = [];
  private cursor: number;
  private live = false;
  private closed = false;
  private readonly lastSeen = new Map<number, number>();

  constructor(
    private readonly liveEvents: AsyncIterator<T>,
    private readonly loadPage: (afterEventId: number) => Promise<T[]>,
    /** The client has seen everything up to here: such an event still in flight is not sent again. */
    private readonly floor: number,
  ) {
    this.cursor = floor;
  }

  async next(): Promise<IteratorResult<T>> {
    while (!this.closed && !this.live) {
      if (this.page.length === 0) {
        this.page = await this.loadPage(this.cursor);
        if (this.page.length === 0) {
          this.live = true;
          break;
        }
        this.cursor = this.page[this.page.length - 1].eventId;
      }
      const event = this.page.shift()!;
      this.lastSeen.set(event.runId, Math.max(event.eventId, this.lastSeen.get(event.runId) ?? 0));
      return { value: event, done: false };
    }
    while (!this.closed) {
      const r = await this.liveEvents.next();
      if (r.done) return r;
      if (r.value.eventId <= Math.max(this.floor, this.lastSeen.get(r.value.runId) ?? 0)) continue;
      return r;
    }
    return { value: undefined, done: true };
  }

  async return(): Promise<IteratorResult<T>> {
    this.closed = true;
    this.page = [];
    await this.liveEvents.return?.();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
