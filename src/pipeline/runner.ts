// Runs pipeline runs. Each instance executes at most maxConcurrentRuns at once; a run executes only
// under a lease this instance holds (see leases.ts), so with several instances every run is driven
// exactly once and one backend trains one run at a time, the others waiting in PENDING, oldest
// first. Runs left active by an instance that died are taken over once their leases expire; a
// graceful stop hands its runs back at once. A run that reaches a final state (RunsService.cancel,
// or any instance) has its execution stopped wherever it runs.
import type { Database } from '../db/data-source';
import { isFinal, type TrainingStatus } from '../domain/status-machine';
import type { BoundedIterator } from '../events/bounded-iterator';
import type { RunStatusEvent } from '../events/topics';
import type { TrainingRun } from '../runs/run.model';
import type { PipelineDeps } from './deps';
import { EvaluationRunner } from './evaluation-runner';
import { RunExecution } from './execution';
import { LeaseFence, Leases } from './leases';
import { PollLoop } from './poll-loop';

const POLL_MS = 1000;

export class PipelineRunner {
  /** Runs executing here, each with the fence that stops it before its lease can run out. */
  private readonly executing = new Map<number, { execution: RunExecution; done: Promise<void>; fence: LeaseFence }>();
  private readonly leases: Leases;
  private renewTimer: NodeJS.Timeout | null = null;
  private readonly loop = new PollLoop(() => this.lookForWork(), POLL_MS);
  private stopped = true;
  private statusEvents: BoundedIterator<RunStatusEvent> | null = null;
  /** Evaluations of checkpoints (evaluateCheckpoint), driven beside the runs. */
  readonly evaluations: EvaluationRunner;

  constructor(
    private readonly deps: PipelineDeps,
    private readonly db: Database,
  ) {
    this.leases = new Leases(db, deps.config.instanceId, deps.config.leaseTtlMs);
    this.evaluations = new EvaluationRunner(deps, this.leases.owner, db.kind === 'sqlite');
    deps.evaluations.bind(this.evaluations);
  }

  /** Whether this server can run pipelines (its settings are configured). */
  get enabled(): boolean {
    return Boolean(this.deps.config.artBackends.length && this.deps.config.openaiBaseUrl);
  }

  private get renewEveryMs(): number {
    return Math.max(100, Math.floor(this.deps.config.leaseTtlMs / 3));
  }

  /**
   * How long before its lease can expire a run that could not be renewed is stopped: one renewal
   * interval (a third of LEASE_TTL_SECONDS, 10 s by default). It must cover this instance's timer
   * firing late (a busy event loop), clock skew between instances (the next owner compares the
   * expiry with its own clock) and the abort reaching the backend (closing the socket: milliseconds);
   * see the README's multi-instance section. A run is stopped only after a renewal failed or went
   * unanswered for a whole interval.
   */
  private get fenceMarginMs(): number {
    return this.renewEveryMs;
  }

  get instanceId(): string {
    return this.leases.owner;
  }

  async start(): Promise<void> {
    if (!this.enabled) return;
    this.stopped = false;
    if (this.db.kind === 'sqlite') await this.leases.voidAll();
    this.watchStatus();
    this.renewTimer = setInterval(() => void this.renewAll(), this.renewEveryMs);
    this.loop.start();
    await this.evaluations.start();
  }

  /** Looks for work now (a run was created or one finished). */
  wake(): void {
    if (!this.stopped) this.loop.wake();
  }

  private async lookForWork(): Promise<void> {
    try {
      let free = this.deps.config.maxConcurrentRuns - this.executing.size;
      if (free <= 0 || this.stopped) return;
      for (const run of await this.candidates()) {
        if (free <= 0 || this.stopped) break;
        const backend = run.backend ?? this.deps.config.artBackends[0].name;
        const claimedAt = Date.now();
        if (await this.leases.claim(run.id, backend)) {
          this.launch(run, claimedAt);
          free--;
        }
      }
    } catch (err) {
      this.deps.logger.error('the pipeline runner could not look for work', err);
    }
  }

  /** Runs that may need a driver: active ones whose lease lapsed first, then the oldest PENDING run of each backend. */
  private async candidates(): Promise<TrainingRun[]> {
    const runs = await this.deps.runs.pipelineCandidates(200);
    const now = new Date();
    const active = runs.active.filter(
      (r) => !this.executing.has(r.id) && (!r.leaseExpiresAt || r.leaseExpiresAt < now),
    );
    const pending = runs.pending;
    const firstPerBackend = new Map<string, TrainingRun>();
    for (const r of pending) {
      const backend = r.backend ?? this.deps.config.artBackends[0].name;
      if (!firstPerBackend.has(backend) && !this.executing.has(r.id)) firstPerBackend.set(backend, r);
    }
    return [...active, ...[...firstPerBackend.values()].sort((a, b) => a.id - b.id)];
  }

  private launch(run: TrainingRun, claimedAt: number): void {
    const execution = new RunExecution(this.deps, run.id, this.leases.owner);
    this.deps.logger.info(
      `pipeline: ${run.status === 'pending' ? 'starting' : 'resuming'} run ${run.id} (${run.uuid}) on backend ${run.backend ?? this.deps.config.artBackends[0].name}`,
    );
    const done = execution
      .run()
      .catch((err) => this.deps.logger.error(`run ${run.id}: the pipeline stopped unexpectedly`, err))
      .then(() => this.leases.release(run.id))
      .catch((err) => this.deps.logger.warn(`run ${run.id}: could not release its lease: ${err.message}`))
      .finally(() => {
        fence.cancel();
        this.executing.delete(run.id);
        this.wake();
      });
    const fence = new LeaseFence(this.deps.config.leaseTtlMs, this.fenceMarginMs, (renewedAt) => {
      this.deps.logger.error(
        `run ${run.id}: could not renew its lease for ${Math.round((Date.now() - renewedAt) / 1000)} s; stopping ${fence.marginMs} ms before it expires so another instance can take over alone`,
      );
      execution.stop('lease-lost');
    });
    fence.renewed(claimedAt);
    this.executing.set(run.id, { execution, done, fence });
  }

  /**
   * Keeps this instance's leases alive; a run whose lease cannot be renewed is dropped at once. An
   * instance that cannot reach the database at all fences itself: each run's LeaseFence stops it
   * fenceMarginMs before the lease it last renewed can expire, so no other instance that takes the
   * run over ever trains beside it.
   */
  private async renewAll(): Promise<void> {
    for (const [runId, running] of this.executing) {
      try {
        const attemptedAt = Date.now();
        if (await this.leases.renew(runId)) running.fence.renewed(attemptedAt);
        else {
          this.deps.logger.warn(`run ${runId}: lease lost or run ended elsewhere; stopping here`);
          running.execution.stop('lease-lost');
        }
      } catch (err) {
        // The database is unreachable: the run's fence stops it before its lease runs out.
        this.deps.logger.warn(`run ${runId}: could not renew its lease: ${err instanceof Error ? err.message : err}`);
      }
    }
  }

  /** A run cancelled or failed through any instance stops here within moments, not at the next renewal. */
  private watchStatus(): void {
    const events = this.deps.events.subscribe('runStatus', {
      filter: (e) => this.executing.has(e.runId) && isFinal(e.to as TrainingStatus),
    });
    this.statusEvents = events;
    void (async () => {
      try {
        for await (const e of events) this.executing.get(e.runId)?.execution.stop('cancel');
      } catch {
        if (!this.stopped) this.watchStatus();
      }
    })();
  }

  /**
   * Stops a run's execution on this instance, if it has one, and waits (at most 10 s) for it to end:
   * RunsService.cancel calls this after the run is CANCELLED, so nothing is written after it answers.
   */
  async stopExecution(runId: number): Promise<void> {
    // A cancelled run's evaluations are cancelled before the cancel answers.
    const run = await this.deps.runs.find(runId);
    if (run?.status === 'cancelled') await this.evaluations.cancelRun(runId, run.projectName);
    const running = this.executing.get(runId);
    if (!running) return;
    running.execution.stop('cancel');
    await Promise.race([running.done, new Promise((r) => setTimeout(r, 10_000))]);
  }

  /** Stops every execution without changing its run's status and hands the runs back at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.renewTimer) clearInterval(this.renewTimer);
    await this.loop.stop();
    for (const { execution } of this.executing.values()) execution.stop('shutdown');
    await Promise.all([...this.executing.values()].map((e) => e.done));
    await this.statusEvents?.return();
    await this.evaluations.stop();
  }
}
