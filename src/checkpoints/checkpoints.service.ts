// A run's checkpoints: recorded by the pipeline for every step it trains (under the name the backend
// serves) or by a TRACKED run's script, listed, and the best one by a history metric as ART picks it.
import { In, IsNull } from 'typeorm';

import type { Database } from '../db/data-source';
import { CheckpointEntity, EvaluationEntity, type CheckpointRow } from '../db/entities';
import { nowStored } from '../db/timestamps';
import { ConflictError } from '../errors';
import type { EventBus } from '../events/event-bus';
import { markActivity } from '../runs/run-activity';
import { lockGuarded, type WriteGuard } from '../runs/write-guard';
import { bestStep, retainedSteps } from './best-checkpoint';
import type { CheckpointsRepo, StepValue } from './checkpoints.repo';

export interface CheckpointInput {
  step: number;
  name: string;
  uri?: string | null;
}

export interface CheckpointWithMetrics extends CheckpointRow {
  metrics: Array<{ name: string; value: number }>;
}

export interface BestCheckpoint {
  checkpoint: CheckpointRow | null;
  step: number;
  value: number;
}

export interface RetentionPlan {
  /** The steps to keep (sent to the backend as steps_to_keep). */
  keep: number[];
  /** The live checkpoints to delete. */
  doomed: CheckpointRow[];
}

export class CheckpointsService {
  constructor(
    private readonly db: Database,
    private readonly repo: CheckpointsRepo,
    private readonly events: EventBus,
  ) {}

  /** Stores a checkpoint; the same one again is a no-op, another name or uri for a stored step is a ConflictError. */
  async record(runId: number, input: CheckpointInput, guard?: WriteGuard): Promise<CheckpointRow> {
    return this.db.writes.run(async (tx) => {
      const run = await lockGuarded(tx.em, this.db.kind, runId, guard);
      const repo = tx.em.getRepository(CheckpointEntity);
      const old = await repo.findOneBy({ runId, step: input.step });
      const uri = input.uri ?? null;
      if (old) {
        if (old.name === input.name && old.uri === uri) return old;
        throw new ConflictError(
          `step ${input.step} of this run already has checkpoint ${old.name}${old.uri ? ` (${old.uri})` : ''}; a recorded checkpoint is never overwritten`,
        );
      }
      const row = {
        runId,
        step: input.step,
        name: input.name,
        uri,
        createdAt: nowStored(),
        deletedAt: null,
        deletionReason: null,
      };
      const { identifiers } = await repo.insert(row);
      await markActivity(tx, run, this.events);
      tx.afterCommit(() => this.events.publish('checkpointRecorded', { runId, step: input.step }));
      return { ...row, id: Number(identifiers[0].id) };
    });
  }

  list(runId: number, afterStep: number | null, first: number): Promise<CheckpointRow[]> {
    return this.repo.list(runId, afterStep, first);
  }

  /** The history values a metric has, per history row; `<split>/reward` falls back to the split's average reward where no value was logged. */
  private async metricValues(runId: number, metric: string): Promise<StepValue[]> {
    const values = await this.repo.values(runId, metric);
    const slash = metric.indexOf('/');
    if (slash > 0 && metric.slice(slash + 1) === 'reward') {
      const logged = new Set(values.map((v) => v.step));
      for (const v of await this.repo.rewardAverages(runId, metric.slice(0, slash)))
        if (!logged.has(v.step)) values.push(v);
    }
    return values;
  }

  /** The best step by `metric` (ART's rule) and its checkpoint, if one was recorded for it; null when no step has the metric. */
  async best(runId: number, metric: string): Promise<BestCheckpoint | null> {
    const best = bestStep(await this.metricValues(runId, metric));
    if (!best) return null;
    const [checkpoint] = await this.repo.atSteps(runId, [best.step]);
    return { ...best, checkpoint: checkpoint ?? null };
  }

  /**
   * Plans retention and marks the doomed checkpoints deleted in one transaction under the run's lock,
   * leaving out every step a PENDING or RUNNING evaluation uses (read under the same lock, so an
   * evaluation started meanwhile either sees its checkpoint marked, and is refused, or keeps it). The
   * caller then deletes on the backend, and unmarks (unmarkDeleted) if that fails.
   */
  async reserveRetention(
    runId: number,
    policy: { keepLast: number; keepBest: number; metric: string },
    reason: (keep: number[]) => string,
    guard?: WriteGuard,
  ): Promise<RetentionPlan> {
    const values = await this.metricValues(runId, policy.metric);
    return this.db.writes.run(async (tx) => {
      await lockGuarded(tx.em, this.db.kind, runId, guard);
      const live = await tx.em.getRepository(CheckpointEntity).find({ where: { runId, deletedAt: IsNull() } });
      const inUse = (
        await tx.em
          .getRepository(EvaluationEntity)
          .find({ select: { step: true }, where: { runId, status: In(['pending', 'running']) } })
      ).map((e) => e.step);
      const keep = retainedSteps(
        values,
        live.map((c) => c.step),
        policy,
        inUse,
      );
      const doomed = live.filter((c) => !keep.includes(c.step));
      if (doomed.length)
        await tx.em
          .getRepository(CheckpointEntity)
          .createQueryBuilder()
          .update()
          .set({ deletedAt: nowStored(), deletionReason: reason(keep) })
          .where('run_id = :runId AND step IN (:...steps) AND deleted_at IS NULL', {
            runId,
            steps: doomed.map((c) => c.step),
          })
          .execute();
      return { keep, doomed };
    });
  }

  /** Takes back marks reserveRetention made when the backend's delete failed (nothing was deleted). */
  async unmarkDeleted(runId: number, steps: number[], guard?: WriteGuard): Promise<void> {
    if (steps.length === 0) return;
    await this.db.writes.run(async (tx) => {
      await lockGuarded(tx.em, this.db.kind, runId, guard);
      await tx.em
        .getRepository(CheckpointEntity)
        .createQueryBuilder()
        .update()
        .set({ deletedAt: null, deletionReason: null })
        .where('run_id = :runId AND step IN (:...steps)', { runId, steps })
        .execute();
    });
  }

  /** The checkpoint of a step, if recorded. */
  async at(runId: number, step: number): Promise<CheckpointRow | null> {
    const [row] = await this.repo.atSteps(runId, [step]);
    return row ?? null;
  }

  /**
   * The history values at these checkpoints' steps, named `<split>/<name>` (names that already have a
   * section, as ART's `val/reward`, kept as they are), with `<split>/reward` from the split's average
   * reward where none was logged.
   */
  async withMetrics(runId: number, rows: CheckpointRow[]): Promise<CheckpointWithMetrics[]> {
    const byStep = new Map<number, Map<string, number>>(rows.map((r) => [r.step, new Map()]));
    const values = await this.repo.valuesAt(
      runId,
      rows.map((r) => r.step),
    );
    for (const v of values.filter((v) => v.name !== '__reward'))
      byStep.get(v.step)?.set(v.name.includes('/') ? v.name : `${v.split}/${v.name}`, v.value);
    for (const v of values.filter((v) => v.name === '__reward')) {
      const m = byStep.get(v.step);
      if (m && !m.has(`${v.split}/reward`)) m.set(`${v.split}/reward`, v.value);
    }
    return rows.map((row) => ({
      ...row,
      metrics: [...byStep.get(row.step)!]
        .map(([name, value]) => ({ name, value }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    }));
  }
}
