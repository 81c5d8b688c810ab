// Records a run's metric history. Reward statistics of a point come from the run's stored
// trajectories of that step, not from the caller; the run's `metrics` snapshot follows the
// latest step.
import type { Database } from '../db/data-source';
import { nowStored } from '../db/timestamps';
import { GradientStepEntity, MetricPointEntity, TrajectoryEntity } from '../db/entities';
import { downsample, type Bucket } from '../domain/downsample';
import { ConflictError, ValidationError } from '../errors';
import type { EventBus } from '../events/event-bus';
import type { TrainingMetrics } from '../domain/training-metrics';
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
    if (points.length > MAX_POINTS_PER_CALL) throw ValidationError.of('points', 'max', `at most ${MAX_POINTS_PER_CALL} points per call, got ${points.length}`);
    const seen = new Set<number>();
    points.forEach((p, i) => {
      if (seen.has(p.step)) throw ValidationError.of(`points.${i}.step`, 'unique', `step ${p.step} appears twice in this call`);
      seen.add(p.step);
    });

    return this.db.writes.run(async (tx) => {
      await lockGuarded(tx.em, this.db.kind, runId, guard);
      const pointsRepo = tx.em.getRepository(MetricPointEntity);
      const steps = points.map((p) => p.step);
      if (steps.length > 0) {
        const clash = await pointsRepo.createQueryBuilder('m').where('m.run_id = :runId AND m.step IN (:...steps)', { runId, steps }).getOne();
        if (clash) throw new ConflictError(`step ${clash.step} of this run already has a history point; recorded metrics are never overwritten`);
      }
      const stats = await rewardStatsBySteps(tx.em, runId, steps);
      const now = nowStored();
      const rows = points.map((p) => {
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
      if (saved.length) tx.afterCommit(() => this.events.publish('metricsRecorded', { runId, steps }));
      return saved.map(metricPointFromRow);
    });
  }

  /** The run's history, one point per step; with maxPoints, buckets that keep each series' min, max and last value. */
  /** Stores one gradient step the trainer streamed, while the run is TRAINING. */
  async recordGradientStep(runId: number, step: number, gradientStep: number, values: Record<string, number>, guard: WriteGuard): Promise<void> {
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

  /** The points of the given steps, each its own bucket. */
  async pointsAt(runId: number, steps: number[]): Promise<HistoryBucket[]> {
    return steps.length ? toBuckets((await this.repo.pointsAt(runId, steps)).map(metricPointFromRow), null) : [];
  }

  async history(runId: number, maxPoints: number | null): Promise<HistoryBucket[]> {
    return toBuckets((await this.repo.history(runId)).map(metricPointFromRow), maxPoints);
  }
}
