// Reward statistics of a history point are those of the stored trajectories of its split and step,
// whichever arrived first: recording trajectories refreshes the points of their steps, recording a
// point computes its own. The run's `metrics` snapshot follows the latest train step and carries
// the latest reward that exists, and the run's summaries of the split follow its points. Runs inside
// the caller's write transaction.
import type { EntityManager } from 'typeorm';

import { MetricPointEntity, TrajectoryEntity } from '../db/entities';
import { nowStored } from '../db/timestamps';
import { rewardStats, type RewardStats } from '../domain/reward-stats';
import type { TrainingMetrics } from '../domain/training-metrics';
import { refreshSummaries } from '../runs/run-summaries';
import { writeMetricsSnapshot } from '../runs/runs.repo';

export interface StepKey {
  split: string;
  step: number;
}

const keyOf = (k: StepKey) => `${k.split}\u0000${k.step}`;

/**
 * Reward statistics of the stored trajectories of each (split, step). The rewards are read and
 * summed here rather than with SQL's AVG and SUM(r * r), which overflow (Infinity on SQLite, an error
 * on PostgreSQL) for rewards a script may legitimately report; a step holds a bounded number of rows.
 */
export async function rewardStatsOf(
  em: EntityManager,
  runId: number,
  keys: StepKey[],
): Promise<Map<string, RewardStats>> {
  const out = new Map<string, RewardStats>();
  const bySplit = new Map<string, number[]>();
  for (const k of keys) bySplit.set(k.split, [...(bySplit.get(k.split) ?? []), k.step]);
  for (const [split, steps] of bySplit) {
    const rows: Array<{ step: number | string; reward: number | string | null }> = await em
      .getRepository(TrajectoryEntity)
      .createQueryBuilder('t')
      .select('t.step', 'step')
      .addSelect('t.reward', 'reward')
      .where('t.run_id = :runId AND t.split = :split', { runId, split })
      .andWhere('t.step IN (:...steps)', { steps: [...new Set(steps)] })
      .getRawMany();
    const byStep = new Map<number, Array<number | null>>();
    for (const r of rows) {
      const step = Number(r.step);
      byStep.set(step, [...(byStep.get(step) ?? []), r.reward === null ? null : Number(r.reward)]);
    }
    // count is every stored trajectory of the step; the statistics are over those with a reward.
    for (const [step, rewards] of byStep)
      out.set(keyOf({ split, step }), { ...rewardStats(rewards), count: rewards.length });
  }
  return out;
}

/** The statistics a point of (split, step) holds, from `stats` (none stored: zero trajectories). */
export function pointStats(stats: Map<string, RewardStats>, key: StepKey) {
  const s = stats.get(keyOf(key));
  return {
    totalTrajectories: s?.count ?? 0,
    avgReward: s?.mean ?? null,
    minReward: s?.min ?? null,
    maxReward: s?.max ?? null,
    rewardStd: s?.std ?? null,
  };
}

/**
 * Recomputes the reward statistics of the points of these (split, step)s from their trajectories.
 * With `create`, a (split, step) without a point gets one, as ART's model.log writes a history row
 * for every log of trajectories. Then refreshes the run's snapshot. Returns the keys whose point
 * was created or changed.
 */
export async function refreshStepStats(
  em: EntityManager,
  runId: number,
  keys: StepKey[],
  options: { create?: boolean } = {},
): Promise<StepKey[]> {
  const unique = [...new Map(keys.map((k) => [keyOf(k), k])).values()];
  if (unique.length === 0) return [];
  const stats = await rewardStatsOf(em, runId, unique);
  const repo = em.getRepository(MetricPointEntity);
  const changed: StepKey[] = [];
  for (const key of unique) {
    const next = pointStats(stats, key);
    const point = await repo.findOneBy({ runId, split: key.split, step: key.step });
    if (!point) {
      if (!options.create) continue;
      await repo.insert({
        runId,
        split: key.split,
        step: key.step,
        epoch: 0,
        trainingLoss: null,
        recordedAt: nowStored(),
        ...next,
      });
      changed.push(key);
      continue;
    }
    const same = (Object.keys(next) as Array<keyof typeof next>).every((k) => point[k] === next[k]);
    if (same) continue;
    await repo.update({ id: point.id }, next);
    changed.push(key);
  }
  for (const split of new Set(changed.map((k) => k.split))) await refreshSummaries(em, runId, split, []);
  await refreshSnapshot(em, runId);
  return changed;
}

/**
 * The run's `metrics` (the seed's TrainingMetrics): step, epoch and loss of its latest train point,
 * the reward statistics of the latest train point that has rewards, and its trajectory total.
 * A run without train points keeps the snapshot it has.
 */
export async function refreshSnapshot(em: EntityManager, runId: number): Promise<void> {
  const repo = em.getRepository(MetricPointEntity);
  const latest = await repo.findOne({ where: { runId, split: 'train' }, order: { step: 'DESC' } });
  if (!latest) return;
  const rewarded =
    latest.avgReward !== null
      ? latest
      : await repo
          .createQueryBuilder('m')
          .where("m.run_id = :runId AND m.split = 'train' AND m.avg_reward IS NOT NULL", { runId })
          .orderBy('m.step', 'DESC')
          .limit(1)
          .getOne();
  const total = await em.getRepository(TrajectoryEntity).countBy({ runId });
  const snapshot: TrainingMetrics = {
    totalTrajectories: total,
    avgReward: rewarded?.avgReward ?? null,
    minReward: rewarded?.minReward ?? null,
    maxReward: rewarded?.maxReward ?? null,
    trainingLoss: latest.trainingLoss,
    epoch: latest.epoch,
    step: latest.step,
  };
  await writeMetricsSnapshot(em, runId, snapshot);
}
