// Evaluations of a run's kept checkpoints (evaluateCheckpoint): created PENDING here, driven by the
// pipeline's EvaluationRunner under a lease (one instance at a time, taken over after a crash), ended
// COMPLETED with a summary recorded in the run's history (split `eval`, at the checkpoint's step),
// FAILED with its cause (the run is left alone), or CANCELLED with its run.
//
// An evaluation's trajectories are the run's `eval` trajectories of its step whose ART group index is
// in its own range (GROUPS_PER_EVALUATION from id × GROUPS_PER_EVALUATION), so several evaluations of
// one step never collide and an interrupted one is removed exactly before it is played again.
import { randomUUID } from 'node:crypto';

import { In, type DataSource } from 'typeorm';

import type { ArtBackendConfig } from '../config';
import type { Database } from '../db/data-source';
import { CheckpointEntity, EvaluationEntity, type EvaluationRow, type EvaluationStatus } from '../db/entities';
import { nowStored, toStoredDate } from '../db/timestamps';
import type { ProjectScope } from '../domain/project-scope';
import { checkScenarios } from '../domain/scenarios';
import { CheckpointNotServedError, ConflictError, NotFoundError, RunModeError, ValidationError } from '../errors';
import type { EventBus } from '../events/event-bus';
import type { EvaluationUpdatedEvent } from '../events/topics';
import type { MetricsService } from '../metrics/metrics.service';
import { lockGuarded, type WriteGuard } from '../runs/write-guard';

/** Scenarios of one evaluation at most; each has its own ART group in the evaluation's index range. */
export const GROUPS_PER_EVALUATION = 1000;

export const ACTIVE_EVALUATION: EvaluationStatus[] = ['pending', 'running'];

export interface EvaluationScenario {
  inputText: string;
  context: Record<string, unknown> | null;
}

export interface Evaluation extends Omit<EvaluationRow, 'scenarios' | 'metrics'> {
  scenarios: EvaluationScenario[];
  metrics: Record<string, number> | null;
}

export function evaluationFromRow(row: EvaluationRow): Evaluation {
  return {
    ...row,
    scenarios: JSON.parse(row.scenarios) as EvaluationScenario[],
    metrics: row.metrics ? (JSON.parse(row.metrics) as Record<string, number>) : null,
  };
}

/** The first ART group index of an evaluation's range. */
export const groupOffsetOf = (evaluationId: number) => evaluationId * GROUPS_PER_EVALUATION;

export interface EvaluationDriver {
  /** A new evaluation waits: look for work now. */
  wake(): void;
}

export class EvaluationsService {
  private driver: EvaluationDriver | null = null;

  constructor(
    private readonly db: Database,
    private readonly reader: DataSource,
    private readonly events: EventBus,
    private readonly metrics: MetricsService,
    private readonly backends: ArtBackendConfig[],
  ) {}

  /** The runner that drives evaluations (bound once it is built). */
  bind(driver: EvaluationDriver): void {
    this.driver = driver;
  }

  /**
   * Starts an evaluation of checkpoint `step` of a PIPELINE run: PENDING, driven as soon as a runner
   * is free. The checkpoint must be recorded and kept; on the legacy `art run` backend it must be the
   * latest (that server serves no other). The run's project must be in the caller's scope.
   */
  async create(
    runId: number,
    step: number,
    scenarios: EvaluationScenario[],
    source: string,
    projects: ProjectScope,
  ): Promise<Evaluation> {
    checkScenarios(scenarios, 'scenarios');
    if (scenarios.length > GROUPS_PER_EVALUATION)
      throw ValidationError.of('scenarios', 'max', `at most ${GROUPS_PER_EVALUATION} scenarios per evaluation`);
    const created = await this.db.writes.run(async (tx) => {
      const run = await lockGuarded(tx.em, this.db.kind, runId, { projects });
      if (run.mode !== 'pipeline') throw new RunModeError(run.uuid, 'tracked');
      if (run.status === 'cancelled')
        throw new ConflictError(`run ${run.uuid} was cancelled: its checkpoints are no longer evaluated`);
      const checkpoints = tx.em.getRepository(CheckpointEntity);
      const checkpoint = await checkpoints.findOneBy({ runId, step });
      if (!checkpoint) throw new NotFoundError('checkpoint', `step ${step} of run ${run.uuid}`);
      if (checkpoint.deletedAt)
        throw new ConflictError(
          `checkpoint step ${step} of run ${run.uuid} was deleted at ${checkpoint.deletedAt}${checkpoint.deletionReason ? ` (${checkpoint.deletionReason})` : ''}; evaluate a kept one (run.checkpoints)`,
        );
      const backend = this.backends.find((b) => b.name === run.backend) ?? this.backends[0];
      if (backend && (backend.kind ?? 'art-run') === 'art-run') {
        const latest = await checkpoints.findOne({ where: { runId }, order: { step: 'DESC' } });
        if (latest && latest.step !== step)
          throw new CheckpointNotServedError(
            step,
            latest.step,
            `backend ${backend.name} is a legacy art run server, which serves only its latest checkpoint (step ${latest.step}), not step ${step}; evaluate step ${latest.step}, or train on a worker or serverless backend to evaluate older ones`,
          );
      }
      const row: Omit<EvaluationRow, 'id'> = {
        uuid: randomUUID(),
        runId,
        step,
        status: 'pending',
        scenarios: JSON.stringify(scenarios),
        source,
        modelName: null,
        metrics: null,
        error: null,
        createdAt: nowStored(),
        startedAt: null,
        completedAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      };
      const { identifiers } = await tx.em.getRepository(EvaluationEntity).insert(row);
      const evaluation = evaluationFromRow({ ...row, id: Number(identifiers[0].id) });
      tx.afterCommit(() => this.publish(evaluation, run.projectName));
      return evaluation;
    });
    this.driver?.wake();
    return created;
  }

  async find(id: number): Promise<Evaluation | null> {
    const row = await this.reader.getRepository(EvaluationEntity).findOneBy({ id });
    return row ? evaluationFromRow(row) : null;
  }

  /** A run's evaluations, newest first. */
  async list(runId: number, first: number): Promise<Evaluation[]> {
    const rows = await this.reader
      .getRepository(EvaluationEntity)
      .find({ where: { runId }, order: { id: 'DESC' }, take: first });
    return rows.map(evaluationFromRow);
  }

  /** Evaluations that need a driver: PENDING ones, and RUNNING ones whose lease lapsed (their instance died), oldest first. */
  async candidates(limit: number): Promise<Evaluation[]> {
    const now = nowStored();
    const rows = await this.reader
      .getRepository(EvaluationEntity)
      .createQueryBuilder('e')
      .where(
        `e.status = 'pending' OR (e.status = 'running' AND (e.lease_owner IS NULL OR e.lease_expires_at < :now))`,
        {
          now,
        },
      )
      .orderBy('e.id', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map(evaluationFromRow);
  }

  /** Takes an evaluation for this instance: true when it was PENDING, or RUNNING under a lapsed lease. */
  claim(id: number, owner: string, ttlMs: number): Promise<boolean> {
    const now = new Date();
    return this.db.writes.run(async (tx) => {
      const res = await tx.em
        .getRepository(EvaluationEntity)
        .createQueryBuilder()
        .update()
        .set({
          status: 'running',
          leaseOwner: owner,
          leaseExpiresAt: toStoredDate(new Date(now.getTime() + ttlMs)),
          startedAt: () => `COALESCE(started_at, '${toStoredDate(now)}')`,
        })
        .where(
          `id = :id AND (status = 'pending' OR (status = 'running' AND (lease_owner IS NULL OR lease_expires_at < :now)))`,
          { id, now: toStoredDate(now) },
        )
        .execute();
      return (res.affected ?? 0) > 0;
    });
  }

  /** Extends this instance's lease; false when the evaluation ended (cancelled) or was taken over. */
  renew(id: number, owner: string, ttlMs: number): Promise<boolean> {
    return this.db.writes.run(async (tx) => {
      const res = await tx.em
        .getRepository(EvaluationEntity)
        .createQueryBuilder()
        .update()
        .set({ leaseExpiresAt: toStoredDate(new Date(Date.now() + ttlMs)) })
        .where(`id = :id AND status = 'running' AND lease_owner = :owner`, { id, owner })
        .execute();
      return (res.affected ?? 0) > 0;
    });
  }

  /** Hands running evaluations back (a graceful stop, or on SQLite the leases of a process that died). */
  release(owner: string | null): Promise<void> {
    return this.db.writes.run(async (tx) => {
      const q = tx.em
        .getRepository(EvaluationEntity)
        .createQueryBuilder()
        .update()
        .set({ leaseExpiresAt: null, leaseOwner: null });
      await (
        owner === null
          ? q.where(`status = 'running'`)
          : q.where(`status = 'running' AND lease_owner = :owner`, { owner })
      ).execute();
    });
  }

  /** Records the served name an evaluation runs on. */
  async started(evaluation: Evaluation, owner: string, modelName: string, projectName: string): Promise<void> {
    await this.db.writes.run(async (tx) => {
      await tx.em
        .getRepository(EvaluationEntity)
        .update({ id: evaluation.id, status: 'running', leaseOwner: owner }, { modelName });
    });
    this.publish({ ...evaluation, status: 'running' }, projectName);
  }

  /**
   * COMPLETED with its summary: recorded first in the run's history at its step (split `eval`; a
   * value already there from an earlier evaluation of the step is kept), then on the evaluation, only
   * while this instance still holds it. A crash between the two replays the evaluation, whose
   * recording is then a no-op.
   */
  async complete(
    evaluation: Evaluation,
    owner: string,
    summary: Record<string, number>,
    projectName: string,
    guard?: WriteGuard,
  ): Promise<boolean> {
    await this.metrics.record(evaluation.runId, [{ step: evaluation.step, values: summary }], guard, 'eval', {
      keepStored: true,
    });
    return this.end(evaluation, owner, 'completed', { metrics: JSON.stringify(summary) }, projectName);
  }

  /** FAILED with its cause; the run is not touched. */
  fail(evaluation: Evaluation, owner: string, error: string, projectName: string): Promise<boolean> {
    return this.end(evaluation, owner, 'failed', { error: error.slice(0, 4000) }, projectName);
  }

  private async end(
    evaluation: Evaluation,
    owner: string,
    status: 'completed' | 'failed',
    changes: Partial<EvaluationRow>,
    projectName: string,
  ): Promise<boolean> {
    const ended = await this.db.writes.run(async (tx) => {
      const res = await tx.em
        .getRepository(EvaluationEntity)
        .update(
          { id: evaluation.id, status: 'running', leaseOwner: owner },
          { ...changes, status, completedAt: nowStored(), leaseOwner: null, leaseExpiresAt: null },
        );
      return (res.affected ?? 0) > 0;
    });
    if (ended) this.publish({ ...evaluation, status }, projectName);
    return ended;
  }

  /** Cancels a run's pending and running evaluations (the run was cancelled); answers their ids. */
  async cancelForRun(runId: number, projectName: string, reason = 'the run was cancelled'): Promise<number[]> {
    const ids = await this.db.writes.run(async (tx) => {
      const repo = tx.em.getRepository(EvaluationEntity);
      const rows = await repo.find({ select: { id: true }, where: { runId, status: In(ACTIVE_EVALUATION) } });
      if (rows.length === 0) return [];
      await repo.update(
        { runId, status: In(ACTIVE_EVALUATION) },
        { status: 'cancelled', error: reason, completedAt: nowStored(), leaseOwner: null, leaseExpiresAt: null },
      );
      return rows.map((r) => r.id);
    });
    for (const id of ids) {
      const e = await this.find(id);
      if (e) this.publish(e, projectName);
    }
    return ids;
  }

  /** Publishes an evaluation's status (and progress, when given). */
  publish(
    evaluation: Pick<Evaluation, 'id' | 'runId' | 'status'>,
    projectName: string,
    progress: Partial<
      Pick<EvaluationUpdatedEvent, 'rolloutsDone' | 'rolloutsTotal' | 'judgeCallsDone' | 'judgeCallsTotal'>
    > = {},
  ): void {
    this.events.publish('evaluationUpdated', {
      evaluationId: evaluation.id,
      runId: evaluation.runId,
      projectName,
      status: evaluation.status,
      rolloutsDone: progress.rolloutsDone ?? 0,
      rolloutsTotal: progress.rolloutsTotal ?? 0,
      judgeCallsDone: progress.judgeCallsDone ?? 0,
      judgeCallsTotal: progress.judgeCallsTotal ?? 0,
      at: nowStored(),
    });
  }
}
