// Records a run's metric history: points per (split, step), each with any named values. Reward
// statistics of a point come from the run's stored trajectories of that split and step, not from the
// caller, and stay true whichever arrives first (trajectories/step-stats.ts); the run's `metrics`
// snapshot follows the latest train step.
import { In } from 'typeorm';

import type { Database } from '../db/data-source';
import {
  GradientStepEntity,
  MetricPointEntity,
  MetricValueEntity,
  type GradientStepRow,
  type MetricPointRow,
} from '../db/entities';
import { nowStored } from '../db/timestamps';
import { downsample, type Bucket } from '../domain/downsample';
import { ConflictError, ValidationError } from '../errors';
import type { EventBus } from '../events/event-bus';
import { markActivity } from '../runs/run-activity';
import { refreshSummaries } from '../runs/run-summaries';
import { lockGuarded, type WriteGuard } from '../runs/write-guard';
import { pointStats, refreshSnapshot, rewardStatsOf } from '../trajectories/step-stats';
import { CORE_SERIES, metricPointFromRow, type MetricPoint } from './metric-point.model';
import type { MetricsRepo, StoredPoint } from './metrics.repo';

export interface RecordMetricPointInput {
  step: number;
  /** Atelier's epoch of the step; 0 when a script does not say (ART's history has none). */
  epoch?: number | null;
  trainingLoss?: number | null;
  values?: Record<string, number> | null;
}

export interface RecordMetricsOptions {
  /**
   * A stored value wins over a different one sent for the same name (instead of a ConflictError):
   * ART's history repeats time/wall_clock_sec and training_step on every row of a step, and an import
   * keeps the step's first.
   */
  keepStored?: boolean;
}

export const MAX_POINTS_PER_CALL = 1000;
export const DEFAULT_SPLIT = 'train';

export type HistoryBucket = Bucket<MetricPoint & { series: Record<string, number | null> }>;

/** Points (sorted by step) as history buckets; without maxPoints each point is its own bucket. */
export function toBuckets(points: MetricPoint[], maxPoints: number | null): HistoryBucket[] {
  const withSeries = points.map((p) => {
    const series: Record<string, number | null> = {};
    for (const name of CORE_SERIES) series[name] = p[name];
    for (const [name, value] of Object.entries(p.values)) series[`values.${name}`] = value;
    return { ...p, series };
  });
  return downsample(withSeries, maxPoints ?? Math.max(1, withSeries.length));
}

const toPoint = (p: StoredPoint) => metricPointFromRow(p.row, p.values);

export class MetricsService {
  constructor(
    private readonly db: Database,
    private readonly repo: MetricsRepo,
    private readonly events: EventBus,
  ) {}

  /**
   * Stores points of one split. A point for a (split, step) already stored merges into it, as ART's
   * history can have several rows of one step: names it lacks are added, the same values again are a
   * no-op (a retry), and a different value for a name, loss or epoch it has is a ConflictError.
   * Points may come for any step, older ones included (ART logs evaluations out of order).
   */
  async record(
    runId: number,
    points: RecordMetricPointInput[],
    guard?: WriteGuard,
    split: string = DEFAULT_SPLIT,
    options: RecordMetricsOptions = {},
  ): Promise<MetricPoint[]> {
    if (points.length > MAX_POINTS_PER_CALL)
      throw ValidationError.of('points', 'max', `at most ${MAX_POINTS_PER_CALL} points per call, got ${points.length}`);
    const seen = new Set<number>();
    points.forEach((p, i) => {
      if (seen.has(p.step))
        throw ValidationError.of(`points.${i}.step`, 'unique', `step ${p.step} appears twice in this call`);
      seen.add(p.step);
    });

    return this.db.writes.run(async (tx) => {
      const run = await lockGuarded(tx.em, this.db.kind, runId, guard);
      const pointsRepo = tx.em.getRepository(MetricPointEntity);
      const valuesRepo = tx.em.getRepository(MetricValueEntity);
      const steps = points.map((p) => p.step);
      const stored = new Map<number, StoredPoint>();
      if (steps.length > 0) {
        for (const row of await pointsRepo.findBy({ runId, split, step: In(steps) }))
          stored.set(row.step, { row, values: {} });
        for (const v of await valuesRepo.findBy({ runId, split, step: In(steps) })) {
          const point = stored.get(v.step);
          if (point) point.values[v.name] = v.value;
        }
      }

      const newValues: Array<{ step: number; name: string; value: number }> = [];
      const lossUpdates: Array<{ id: number; trainingLoss: number }> = [];
      const changedSteps = new Set<number>();
      for (const p of points) {
        const old = stored.get(p.step);
        const sent = p.values ?? {};
        if (old) {
          const differs: string[] = [];
          if (p.epoch != null && p.epoch !== old.row.epoch) differs.push(`epoch ${old.row.epoch}, sent ${p.epoch}`);
          if (p.trainingLoss != null && old.row.trainingLoss !== null && p.trainingLoss !== old.row.trainingLoss)
            differs.push(`trainingLoss ${old.row.trainingLoss}, sent ${p.trainingLoss}`);
          for (const [name, value] of Object.entries(sent))
            if (name in old.values && old.values[name] !== value)
              differs.push(`${name} ${old.values[name]}, sent ${value}`);
          if (differs.length && !options.keepStored)
            throw new ConflictError(
              `step ${p.step} of this run already has a different history point in split ${split} (${differs.slice(0, 3).join('; ')}); recorded metrics are never overwritten`,
            );
          if (p.trainingLoss != null && old.row.trainingLoss === null) {
            lossUpdates.push({ id: old.row.id, trainingLoss: p.trainingLoss });
            old.row.trainingLoss = p.trainingLoss;
            changedSteps.add(p.step);
          }
        }
        for (const [name, value] of Object.entries(sent))
          if (!old || !(name in old.values)) {
            newValues.push({ step: p.step, name, value });
            changedSteps.add(p.step);
          }
      }

      const fresh = points.filter((p) => !stored.has(p.step));
      const stats = await rewardStatsOf(
        tx.em,
        runId,
        fresh.map((p) => ({ split, step: p.step })),
      );
      const now = nowStored();
      const freshRows = fresh.map((p) => ({
        runId,
        split,
        step: p.step,
        epoch: p.epoch ?? 0,
        trainingLoss: p.trainingLoss ?? null,
        recordedAt: now,
        ...pointStats(stats, { split, step: p.step }),
      }));
      for (let i = 0; i < freshRows.length; i += 100)
        await pointsRepo
          .createQueryBuilder()
          .insert()
          .values(freshRows.slice(i, i + 100))
          .updateEntity(false)
          .execute();
      for (const p of fresh) changedSteps.add(p.step);
      for (const u of lossUpdates) await pointsRepo.update({ id: u.id }, { trainingLoss: u.trainingLoss });
      for (let i = 0; i < newValues.length; i += 200)
        await valuesRepo
          .createQueryBuilder()
          .insert()
          .values(newValues.slice(i, i + 200).map((v) => ({ runId, split, ...v })))
          .updateEntity(false)
          .execute();

      if (changedSteps.size > 0) {
        await refreshSnapshot(tx.em, run);
        await refreshSummaries(tx.em, runId, split, [...new Set(newValues.map((v) => v.name))]);
        const changed = [...changedSteps].sort((a, b) => a - b);
        await markActivity(tx, run, this.events);
        tx.afterCommit(() => this.events.publish('metricsRecorded', { runId, split, steps: changed }));
      }
      // The answer: each point as stored now (a merged one with its old and new values), built without reading back.
      const freshByStep = new Map(freshRows.map((r) => [r.step, r]));
      return points.map((p) => {
        const old = stored.get(p.step);
        const row = old?.row ?? ({ id: 0, ...freshByStep.get(p.step)! } as MetricPointRow);
        return toPoint({ row, values: { ...old?.values, ...(p.values ?? {}) } });
      });
    });
  }

  /** Stores one gradient step the trainer streamed, while the run is TRAINING. */
  async recordGradientStep(
    runId: number,
    step: number,
    gradientStep: number,
    values: Record<string, number>,
    guard: WriteGuard,
  ): Promise<void> {
    await this.db.writes.run(async (tx) => {
      await lockGuarded(tx.em, this.db.kind, runId, guard);
      await tx.em.getRepository(GradientStepEntity).insert({
        runId,
        step,
        gradientStep,
        loss: values['loss/train'] ?? null, // ART's current name (src/domain/train-metrics.ts)
        values: JSON.stringify(values),
        recordedAt: nowStored(),
      });
    });
  }

  /** Forgets the gradient steps of a training step that is about to be redone. */
  async clearGradientSteps(runId: number, step: number, guard: WriteGuard): Promise<void> {
    await this.db.writes.run(async (tx) => {
      await lockGuarded(tx.em, this.db.kind, runId, guard);
      await tx.em.getRepository(GradientStepEntity).delete({ runId, step });
    });
  }

  /** The trainer's gradient steps of one training step, or of all. */
  gradientSteps(runId: number, step: number | null): Promise<GradientStepRow[]> {
    return this.repo.gradientSteps(runId, step);
  }

  /** The points of the given steps of a split, each its own bucket. */
  async pointsAt(runId: number, split: string, steps: number[]): Promise<HistoryBucket[]> {
    return steps.length ? toBuckets((await this.repo.pointsAt(runId, split, steps)).map(toPoint), null) : [];
  }

  /** How many train history points the run has and its last step (-1 when none). */
  /** Whether the history holds a value of this name at a split and step (a finished validation's mark). */
  hasValue(runId: number, split: string, step: number, name: string): Promise<boolean> {
    return this.repo.hasValue(runId, split, step, name);
  }

  recorded(runId: number): Promise<{ count: number; lastStep: number }> {
    return this.repo.recorded(runId);
  }

  /** A split of the run's history, one point per step; with maxPoints, buckets that keep each series' min, max and last value. */
  async history(
    runId: number,
    maxPoints: number | null,
    split: string = DEFAULT_SPLIT,
    names: readonly string[] | null = null,
  ): Promise<HistoryBucket[]> {
    if (maxPoints !== null) {
      // Long histories are bucketed by the database: only the buckets cross into the process.
      const n = await this.repo.count(runId, split);
      if (n > maxPoints) {
        const buckets = await this.repo.bucketed(runId, split, names, Math.ceil(n / maxPoints));
        return buckets.map((b) => {
          const [last] = toBuckets([toPoint(b.last)], null);
          return { ...last, firstStep: b.firstStep, lastStep: b.lastStep, count: b.count, min: b.min, max: b.max };
        });
      }
    }
    return toBuckets((await this.repo.history(runId, split, names)).map(toPoint), maxPoints);
  }

  /** Every split the run has points of, and every value name per split. */
  names(runId: number): Promise<Array<{ split: string; name: string | null }>> {
    return this.repo.names(runId);
  }
}
