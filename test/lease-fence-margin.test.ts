// Self-fencing with a margin (#23 item 9): an instance whose lease renewals fail stops driving the
// run a whole renewal interval (a third of LEASE_TTL_SECONDS) before the lease it last wrote can
// expire, whatever the phase of its renewal ticks against the claim. Before, the check ran only at
// renewal ticks, so the stop came anywhere between an interval and no time at all before expiry
// (one of three PostgreSQL-cut trials saw the old instance's training call end after the new owner's
// began). The runner runs on a fake clock here, with leases whose renewals fail (the database is
// unreachable) and an execution that is busy until stopped: when it is stopped is a fact of the
// clock, not a measurement. test/lease-fencing.test.ts shows the same end to end on PostgreSQL.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Database } from '../src/db/data-source';
import type { PipelineDeps } from '../src/pipeline/deps';
import { RunExecution, type StopReason } from '../src/pipeline/execution';
import { PipelineRunner } from '../src/pipeline/runner';

interface Harness {
  runner: PipelineRunner;
  /** Fake-clock times: the claim, each renewal attempt, the stop. */
  claimedAt: number | null;
  renewals: number[];
  stops: Array<{ at: number; reason: StopReason }>;
  logged: string[];
}

function harness(ttlMs: number, opts: { claimOnPoll: number; renewalsSucceed: number }): Harness {
  const h: Harness = { runner: null!, claimedAt: null, renewals: [], stops: [], logged: [] };
  let polls = 0;
  const run = { id: 7, status: 'training', backend: null, leaseExpiresAt: null };
  const deps = {
    config: {
      artBackends: [{ name: 'default', url: 'http://gpu:7999', kind: 'art-run' }],
      openaiBaseUrl: 'http://provider/v1',
      instanceId: 'instance-a',
      leaseTtlMs: ttlMs,
      maxConcurrentRuns: 1,
      stallTimeoutMs: 3_600_000,
    },
    // The run becomes a candidate at the given poll (polls are POLL_MS apart): the claim falls between renewal ticks.
    runs: {
      pipelineCandidates: async () => ({
        active: ++polls >= opts.claimOnPoll && h.claimedAt === null ? [run] : [],
        pending: [],
      }),
      // The execution is busy (say, a training call) until it is stopped.
      find: () => new Promise(() => undefined),
    },
    events: {
      subscribe: () => ({
        [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }),
        return: async () => undefined,
      }),
    },
    // Evaluations are not under test here: the runner binds its evaluation driver and finds none.
    evaluations: { bind: () => undefined, release: async () => undefined, candidates: async () => [] },
    logger: {
      error: (m: string) => h.logged.push(m),
      warn: (m: string) => h.logged.push(m),
      info: () => undefined,
      debug: () => undefined,
    },
  } as unknown as PipelineDeps;
  h.runner = new PipelineRunner(deps, { kind: 'postgres' } as Database);
  let renewed = 0;
  (h.runner as unknown as { leases: unknown }).leases = {
    owner: 'instance-a',
    claim: async () => ((h.claimedAt = Date.now()), true),
    renew: async () => {
      h.renewals.push(Date.now());
      if (renewed++ < opts.renewalsSucceed) return true;
      throw new Error('connect ETIMEDOUT (the database is unreachable)');
    },
    release: async () => undefined,
  };
  return h;
}

describe('self-fencing margin', () => {
  let stopSpy: ReturnType<typeof vi.spyOn>;
  let current: Harness | null = null;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    stopSpy = vi.spyOn(RunExecution.prototype, 'stop').mockImplementation(function (reason: StopReason) {
      current?.stops.push({ at: Date.now(), reason });
    });
  });
  afterEach(() => {
    // The execution never ends (its stop is only recorded): drop the runner's timers instead of awaiting its stop.
    vi.clearAllTimers();
    current = null;
    stopSpy.mockRestore();
    vi.useRealTimers();
  });

  // LEASE_TTL_SECONDS 4.5: renewals every 1.5 s; polls for work every 1 s, so a claim at a poll falls
  // 0.5 s or 1 s off the renewal ticks.
  const TTL = 4500;
  const INTERVAL = 1500;
  for (const [claimOnPoll, renewalsSucceed] of [
    [2, 0],
    [3, 0],
    [2, 2],
    [3, 1],
  ] as const) {
    it(`claim at poll ${claimOnPoll}, ${renewalsSucceed} renewals succeed: stopped ${INTERVAL} ms before the lease last written expires`, async () => {
      const h = (current = harness(TTL, { claimOnPoll, renewalsSucceed }));
      await h.runner.start();
      for (let i = 0; i < 200 && h.stops.length === 0; i++) await vi.advanceTimersByTimeAsync(50);
      expect(h.claimedAt).not.toBeNull();
      // The lease's expiry as the database holds it: written by the last successful write (the claim or a renewal), TTL after it was sent.
      const lastWrite = [h.claimedAt!, ...h.renewals.slice(0, renewalsSucceed)].at(-1)!;
      const expiresAt = lastWrite + TTL;
      expect(h.stops).toHaveLength(1);
      expect(h.stops[0].reason).toBe('lease-lost');
      expect(expiresAt - h.stops[0].at).toBeGreaterThanOrEqual(INTERVAL);
      expect(h.logged.join('\n')).toMatch(/could not renew its lease for \d+ s; stopping 1500 ms before it expires/);
    });
  }

  it('is not stopped while renewals succeed', async () => {
    const h = (current = harness(TTL, { claimOnPoll: 2, renewalsSucceed: Infinity }));
    await h.runner.start();
    for (let i = 0; i < 400; i++) await vi.advanceTimersByTimeAsync(50);
    expect(h.renewals.length).toBeGreaterThan(10);
    expect(h.stops.filter((s) => s.reason === 'lease-lost')).toEqual([]);
  });
});
