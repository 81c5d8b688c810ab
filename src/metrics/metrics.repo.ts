// Queries over metric history and the reward statistics it is computed from.
import { In, type DataSource, type EntityManager } from 'typeorm';
import { GradientStepEntity, MetricPointEntity, TrajectoryEntity, type GradientStepRow, type MetricPointRow } from '../db/entities';
import type { RewardStats } from '../domain/reward-stats';

export class MetricsRepo {
  constructor(private readonly ds: DataSource) {}

  history(runId: number): Promise<MetricPointRow[]> {
    return this.ds.getRepository(MetricPointEntity).find({ where: { runId }, order: { step: 'ASC' } });
  }

  gradientSteps(runId: number, step: number | null): Promise<GradientStepRow[]> {
    return this.ds.getRepository(GradientStepEntity).find({
      where: step === null ? { runId } : { runId, step },
      order: { step: 'ASC', gradientStep: 'ASC' },
    });
  }

  pointsAt(runId: number, steps: number[]): Promise<MetricPointRow[]> {
    return this.ds.getRepository(MetricPointEntity).find({ where: { runId, step: In(steps) }, order: { step: 'ASC' } });
  }

  historyForRuns(runIds: readonly number[]): Promise<MetricPointRow[]> {
    return this.ds.getRepository(MetricPointEntity).find({ where: { runId: In([...runIds]) }, order: { runId: 'ASC', step: 'ASC' } });
  }
}

/** Reward statistics of the stored trajectories of each given step, computed in the database. */
export async function rewardStatsBySteps(em: EntityManager, runId: number, steps: number[]): Promise<Map<number, RewardStats>> {
  const out = new Map<number, RewardStats>();
  if (steps.length === 0) return out;
  const rows: Array<{ step: number; n: string | number; rn: string | number; mean: number | null; lo: number | null; hi: number | null; sq: number | null }> = await em
    .getRepository(TrajectoryEntity)
    .createQueryBuilder('t')
    .select('t.step', 'step')
    .addSelect('COUNT(*)', 'n')
    .addSelect('COUNT(t.reward)', 'rn')
    .addSelect('AVG(t.reward)', 'mean')
    .addSelect('MIN(t.reward)', 'lo')
    .addSelect('MAX(t.reward)', 'hi')
    .addSelect('SUM(t.reward * t.reward)', 'sq')
    .where('t.run_id = :runId', { runId })
    .andWhere('t.step IN (:...steps)', { steps })
    .groupBy('t.step')
    .getRawMany();
  for (const r of rows) {
    const rn = Number(r.rn);
    const mean = r.mean === null ? null : Number(r.mean);
    const std = rn > 0 && mean !== null ? Math.sqrt(Math.max(0, Number(r.sq) / rn - mean * mean)) : null;
    out.set(Number(r.step), { count: Number(r.n), mean, std, min: r.lo === null ? null : Number(r.lo), max: r.hi === null ? null : Number(r.hi) });
  }
  return out;
}
