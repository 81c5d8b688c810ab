// Runs pipeline runs: at most maxConcurrentRuns at once, the rest wait in PENDING, first come
// first served. At start it resumes runs a previous process left executing. A cancel makes the run
// CANCELLED first (so every later write of its execution is refused) and then aborts its calls.
import { In } from 'typeorm';
import { TrainingRunEntity } from '../db/entities';
import type { Database } from '../db/data-source';
import { isFinal, type TrainingStatus } from '../domain/status-machine';
import { IllegalTransitionError, NotFoundError } from '../errors';
import { runFromRow, type TrainingRun } from '../runs/run.model';
import type { PipelineDeps } from './deps';
import { RunExecution } from './execution';

const ACTIVE: TrainingStatus[] = ['generating', 'collecting', 'scoring', 'training'];
const POLL_MS = 1000;

export class PipelineRunner {
  private readonly executing = new Map<number, { execution: RunExecution; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private readonly deps: PipelineDeps,
    private readonly db: Database,
  ) {}

  /** Whether this server can run pipelines (its settings are configured). */
  get enabled(): boolean {
    return Boolean(this.deps.config.artBackendUrl && this.deps.config.openaiBaseUrl);
  }

  start(): void {
    if (!this.enabled) return;
    this.stopped = false;
    this.wake();
  }

  /** Looks for work now (a run was created or one finished). */
  wake(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), 0);
  }

  isExecuting(runId: number): boolean {
    return this.executing.has(runId);
  }

  private async tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = (async () => {
      try {
        const free = this.deps.config.maxConcurrentRuns - this.executing.size;
        if (free > 0 && !this.stopped) for (const run of await this.nextRuns(free)) this.launch(run);
      } catch (err) {
        this.deps.logger.error('the pipeline runner could not look for work', err);
      } finally {
        this.ticking = null;
        if (!this.stopped) {
          if (this.timer) clearTimeout(this.timer);
          this.timer = setTimeout(() => void this.tick(), POLL_MS);
        }
      }
    })();
    return this.ticking;
  }

  /** Runs left executing by an earlier process come first, then PENDING ones, oldest first. */
  private async nextRuns(limit: number): Promise<TrainingRun[]> {
    const repo = this.db.reader.getRepository(TrainingRunEntity);
    const skip = [...this.executing.keys()];
    const pick = async (statuses: TrainingStatus[], n: number) =>
      (await repo.find({ where: { mode: 'pipeline', status: In(statuses) }, order: { id: 'ASC' }, take: n + skip.length }))
        .filter((r) => !this.executing.has(r.id))
        .slice(0, n)
        .map(runFromRow);
    const resumed = await pick(ACTIVE, limit);
    return resumed.length >= limit ? resumed : [...resumed, ...(await pick(['pending'], limit - resumed.length))];
  }

  private launch(run: TrainingRun): void {
    const execution = new RunExecution(this.deps, run.id);
    this.deps.logger.info(`pipeline: ${run.status === 'pending' ? 'starting' : 'resuming'} run ${run.id} (${run.uuid})`);
    const done = execution
      .run()
      .catch((err) => this.deps.logger.error(`run ${run.id}: the pipeline stopped unexpectedly`, err))
      .finally(() => {
        this.executing.delete(run.id);
        this.wake();
      });
    this.executing.set(run.id, { execution, done });
  }

  /** Cancels a run wherever it is: CANCELLED at once, its in-flight calls aborted. Works for tracked runs too. */
  async cancel(runId: number, reason = 'cancelled by request'): Promise<TrainingRun> {
    const row = (await this.deps.runsRepo.findByIds([runId]))[0];
    if (!row) throw new NotFoundError('TrainingRun', String(runId));
    if (isFinal(row.status as TrainingStatus)) throw new IllegalTransitionError(row.status, 'cancelled', `the run is already ${row.status.toUpperCase()}`);
    const run = await this.deps.runs.transition(runId, 'cancelled', reason);
    const running = this.executing.get(runId);
    if (running) {
      running.execution.stop('cancel');
      await Promise.race([running.done, new Promise((r) => setTimeout(r, 10_000))]);
    }
    return run;
  }

  /** Stops every execution without changing its run's status: they resume when a server starts again. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    for (const { execution } of this.executing.values()) execution.stop('shutdown');
    await Promise.all([...this.executing.values()].map((e) => e.done));
  }
}

