// Queries over metric history and the reward statistics it is computed from.
import { In, type DataSource, type EntityManager } from 'typeorm';

import type { DbKind } from '../db/data-source';
import {
  GradientStepEntity,
  MetricPointEntity,
  TrajectoryEntity,
  type GradientStepRow,
  type MetricPointRow,
} from '../db/entities';
import { rowReader, SqlParams, type RowReader } from '../db/rows';
import { rewardStats, type RewardStats } from '../domain/reward-stats';

export class MetricsRepo {
  private readonly points: RowReader<MetricPointRow>;

  constructor(
    private readonly ds: DataSource,
    private readonly kind: DbKind,
  ) {
    this.points = rowReader(ds, kind, MetricPointEntity);
  }

  /** A run's whole history (10,000s of rows for long runs: plain SQL, see db/rows.ts). */
  history(runId: number): Promise<MetricPointRow[]> {
    const p = new SqlParams(this.kind);
    return this.points.all(
      `SELECT ${this.points.columns('m')} FROM ${this.points.table} m WHERE m.run_id = ${p.add(runId)} ORDER BY m.step ASC`,
      p.values,
    );
  }

  /** How many history points a run has, and its last step (-1 when none): a resume checks the backend against it. */
  async recorded(runId: number): Promise<{ count: number; lastStep: number }> {
    const row: { n: string | number; last: string | number | null } | undefined = await this.ds
      .getRepository(MetricPointEntity)
      .createQueryBuilder('m')
      .select('COUNT(*)', 'n')
      .addSelect('MAX(m.step)', 'last')
      .where('m.run_id = :runId', { runId })
      .getRawOne();
    return { count: Number(row?.n ?? 0), lastStep: row?.last == null ? -1 : Number(row.last) };
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

  async historyForRuns(runIds: readonly number[]): Promise<MetricPointRow[]> {
    if (runIds.length === 0) return [];
    const p = new SqlParams(this.kind);
    return this.points.all(
      `SELECT ${this.points.columns('m')} FROM ${this.points.table} m WHERE m.run_id IN (${p.list(runIds)}) ORDER BY m.run_id ASC, m.step ASC`,
      p.values,
    );
  }
}

/**
 * Reward statistics of the stored trajectories of each given step. The rewards are read and summed
 * here rather than with SQL's AVG and SUM(r * r), which overflow (Infinity on SQLite, an error on
 * PostgreSQL) for rewards a script may legitimately report; a step holds a bounded number of rows.
 */
export async function rewardStatsBySteps(
  em: EntityManager,
  runId: number,
  steps: number[],
): Promise<Map<number, RewardStats>> {
  const out = new Map<number, RewardStats>();
  if (steps.length === 0) return out;
  const rows: Array<{ step: number | string; reward: number | string | null }> = await em
    .getRepository(TrajectoryEntity)
    .createQueryBuilder('t')
    .select('t.step', 'step')
    .addSelect('t.reward', 'reward')
    .where('t.run_id = :runId', { runId })
    .andWhere('t.step IN (:...steps)', { steps })
    .getRawMany();
  const bySteps = new Map<number, Array<number | null>>();
  for (const r of rows) {
    const step = Number(r.step);
    const list = bySteps.get(step) ?? [];
    list.push(r.reward === null ? null : Number(r.reward));
    bySteps.set(step, list);
  }
  // count is every stored trajectory of the step; the statistics are over those with a reward.
  for (const [step, rewards] of bySteps) out.set(step, { ...rewardStats(rewards), count: rewards.length });
  return out;
}
