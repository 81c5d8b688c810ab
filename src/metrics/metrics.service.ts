// Records a run's metric history. Reward statistics of a point come from the run's stored
// trajectories of that step, not from the caller; the run's `metrics` snapshot follows the
// latest step.
import type { Database } from '../db/data-source';
import {
  GradientStepEntity,
  MetricPointEntity,
  TrajectoryEntity,
  type GradientStepRow,
  type MetricPointRow,
} from '../db/entities';
import { parseJsonObject } from '../db/json';
import { nowStored } from '../db/timestamps';
import { downsample, type Bucket } from '../domain/downsample';
import type { TrainingMetrics } from '../domain/training-metrics';
import { ConflictError, ValidationError } from '../errors';
import type { EventBus } from '../events/event-bus';
import { writeMetricsSnapshot } from '../runs/runs.repo';
import { lockGuarded, type WriteGuard } from '../runs/write-guard';
import { CORE_SERIES, metricPointFromRow, type MetricPoint } from './metric-point.model';
import { rewardStatsBySteps, type MetricsRepo } from './metrics.repo';

export interface RecordMetricPointInput {
  step: number;
  epoch: number;
  trainingLoss?: number | null;
  values?: Record<string, number> | null;
}

export const MAX_POINTS_PER_CALL = 1000;

/** Whether a stored point holds exactly what a caller sends (values compared by name, in any order). */
function samePoint(row: MetricPointRow, p: RecordMetricPointInput): boolean {
  if (row.epoch !== p.epoch || row.trainingLoss !== (p.trainingLoss ?? null)) return false;
  const stored = parseJsonObject(row.values);
  const sent = p.values ?? {};
  const names = Object.keys(sent);
  return names.length === Object.keys(stored).length && names.every((n) => stored[n] === sent[n]);
}

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

export class MetricsService {
  constructor(
    private readonly db: Database,
    private readonly repo: MetricsRepo,
    private readonly events: EventBus,
  ) {}

  async record(runId: number, points: RecordMetricPointInput[], guard?: WriteGuard): Promise<MetricPoint[]> {
    if (points.length > MAX_POINTS_PER_CALL)
      throw ValidationError.of('points', 'max', `at most ${MAX_POINTS_PER_CALL} points per call, got ${points.length}`);
    const seen = new Set<number>();
    points.forEach((p, i) => {
      if (seen.has(p.step))
        throw ValidationError.of(`points.${i}.step`, 'unique', `step ${p.step} appears twice in this call`);
      seen.add(p.step);
    });

    return this.db.writes.run(async (tx) => {
      await lockGuarded(tx.em, this.db.kind, runId, guard);
      const pointsRepo = tx.em.getRepository(MetricPointEntity);
      const steps = points.map((p) => p.step);
      // A retry after a lost answer sends the same points again: those are already stored, and
      // accepted as they are. A point that differs from the stored one of its step is a conflict.
      const stored = new Map<number, MetricPointRow>();
      if (steps.length > 0) {
        for (const row of await pointsRepo
          .createQueryBuilder('m')
          .where('m.run_id = :runId AND m.step IN (:...steps)', { runId, steps })
          .getMany())
          stored.set(row.step, row);
      }
      for (const p of points) {
        const old = stored.get(p.step);
        if (old && !samePoint(old, p))
          throw new ConflictError(
            `step ${p.step} of this run already has a different history point; recorded metrics are never overwritten`,
          );
      }
      const fresh = points.filter((p) => !stored.has(p.step));
      const stats = await rewardStatsBySteps(
        tx.em,
        runId,
        fresh.map((p) => p.step),
      );
      const now = nowStored();
      const rows = fresh.map((p) => {
        const s = stats.get(p.step);
        return pointsRepo.create({
          runId,
          step: p.step,
          epoch: p.epoch,
          totalTrajectories: s?.count ?? 0,
          avgReward: s?.mean ?? null,
          minReward: s?.min ?? null,
          maxReward: s?.max ?? null,
          rewardStd: s?.std ?? null,
          trainingLoss: p.trainingLoss ?? null,
          values: JSON.stringify(p.values ?? {}),
          recordedAt: now,
        });
      });
      const saved = rows.length ? await pointsRepo.save(rows, { chunk: 100 }) : [];
      const byStep = new Map([...stored, ...saved.map((r) => [r.step, r] as const)]);
      const answer = points.map((p) => metricPointFromRow(byStep.get(p.step)!));
      if (saved.length === 0) return answer;

      const latest = await pointsRepo.findOne({ where: { runId }, order: { step: 'DESC' } });
      if (latest) {
        const total = await tx.em.getRepository(TrajectoryEntity).countBy({ runId });
        const snapshot: TrainingMetrics = {
          totalTrajectories: total,
          avgReward: latest.avgReward,
          minReward: latest.minReward,
          maxReward: latest.maxReward,
          trainingLoss: latest.trainingLoss,
          epoch: latest.epoch,
          step: latest.step,
        };
        await writeMetricsSnapshot(tx.em, runId, snapshot);
      }
      tx.afterCommit(() => this.events.publish('metricsRecorded', { runId, steps: saved.map((r) => r.step) }));
      return answer;
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

  /** The points of the given steps, each its own bucket. */
  async pointsAt(runId: number, steps: number[]): Promise<HistoryBucket[]> {
    return steps.length ? toBuckets((await this.repo.pointsAt(runId, steps)).map(metricPointFromRow), null) : [];
  }

  /** The run's history, one point per step; with maxPoints, buckets that keep each series' min, max and last value. */
  /** How many history points the run has and its last step (-1 when none). */
  recorded(runId: number): Promise<{ count: number; lastStep: number }> {
    return this.repo.recorded(runId);
  }

  async history(runId: number, maxPoints: number | null): Promise<HistoryBucket[]> {
    return toBuckets((await this.repo.history(runId)).map(metricPointFromRow), maxPoints);
  }
}
