// Reward statistics of a history point are those of the stored trajectories of its split and step,
// whichever arrived first: recording trajectories refreshes the points of their steps, recording a
// point computes its own. The run's `metrics` snapshot follows the latest train step and carries
// the latest reward that exists, and the run's summaries of the split follow its points. Runs inside
// the caller's write transaction.
import { In, type EntityManager } from 'typeorm';

import { MetricPointEntity, TrajectoryEntity, type MetricPointRow, type TrainingRunRow } from '../db/entities';
import { nowStored } from '../db/timestamps';
import { rewardStats, type RewardStats } from '../domain/reward-stats';
import type { TrainingMetrics } from '../domain/training-metrics';
import { refreshSummaries } from '../runs/run-summaries';
import { metricsFromJson, metricsToJson } from '../runs/run.model';
import { addToTrajectoryTotal, writeMetricsSnapshot } from '../runs/runs.repo';

export interface StepKey {
  split: string;
  step: number;
}

const keyOf = (k: StepKey) => `${k.split}\u0000${k.step}`;

/** Adds the value to its key's list: pushed, not spread into a new list, so n values cost n, not n². */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
const LOOKUP_CHUNK = 500;
const INSERT_CHUNK = 100;

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
  for (const k of keys) pushTo(bySplit, k.split, k.step);
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
    for (const r of rows) pushTo(byStep, Number(r.step), r.reward === null ? null : Number(r.reward));
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
 * for every log of trajectories. Then refreshes the run's snapshot, its trajectory total moved by
 * `totalDelta` (what this write added or removed), in the same write. Returns the keys whose point
 * was created or changed. `run` is the row the transaction locked; its metrics follow the write.
 */
export async function refreshStepStats(
  em: EntityManager,
  run: TrainingRunRow,
  keys: StepKey[],
  options: { create?: boolean; totalDelta?: number } = {},
): Promise<StepKey[]> {
  const runId = run.id;
  const unique = [...new Map(keys.map((k) => [keyOf(k), k])).values()];
  if (unique.length === 0) {
    if (options.totalDelta) await refreshSnapshot(em, run, options.totalDelta);
    return [];
  }
  const stats = await rewardStatsOf(em, runId, unique);
  const repo = em.getRepository(MetricPointEntity);
  // Every point of these (split, step)s in one read.
  const wanted = new Set(unique.map(keyOf));
  const stored = new Map<string, MetricPointRow>();
  for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) {
    const chunk = unique.slice(i, i + LOOKUP_CHUNK);
    const rows = await repo.findBy({
      runId,
      split: In([...new Set(chunk.map((k) => k.split))]),
      step: In([...new Set(chunk.map((k) => k.step))]),
    });
    for (const row of rows) if (wanted.has(keyOf(row))) stored.set(keyOf(row), row);
  }
  const changed: StepKey[] = [];
  const created: MetricPointRow[] = [];
  const now = nowStored();
  for (const key of unique) {
    const next = pointStats(stats, key);
    const point = stored.get(keyOf(key));
    if (!point) {
      if (!options.create) continue;
      created.push({
        runId,
        split: key.split,
        step: key.step,
        epoch: 0,
        trainingLoss: null,
        recordedAt: now,
        ...next,
      } as MetricPointRow);
      changed.push(key);
      continue;
    }
    const same = (Object.keys(next) as Array<keyof typeof next>).every((k) => point[k] === next[k]);
    if (same) continue;
    await repo.update({ id: point.id }, next);
    changed.push(key);
  }
  for (let i = 0; i < created.length; i += INSERT_CHUNK)
    await repo
      .createQueryBuilder()
      .insert()
      .values(created.slice(i, i + INSERT_CHUNK))
      .updateEntity(false)
      .execute();
  for (const split of new Set(changed.map((k) => k.split))) await refreshSummaries(em, runId, split, []);
  await refreshSnapshot(em, run, options.totalDelta ?? 0);
  return changed;
}

/**
 * The run's `metrics` (the seed's TrainingMetrics): step, epoch and loss of its latest train point,
 * the reward statistics of the latest train point that has rewards, and its trajectory total: the
 * stored total (kept by every write that adds or removes trajectories) plus `totalDelta`, never a
 * COUNT over the run's rows. A run without train points keeps the snapshot it has, its total moved.
 */
export async function refreshSnapshot(em: EntityManager, run: TrainingRunRow, totalDelta = 0): Promise<void> {
  const runId = run.id;
  const repo = em.getRepository(MetricPointEntity);
  const latest = await repo.findOne({ where: { runId, split: 'train' }, order: { step: 'DESC' } });
  if (!latest) {
    if (totalDelta !== 0) await addToTrajectoryTotal(em, run, totalDelta);
    return;
  }
  const rewarded =
    latest.avgReward !== null
      ? latest
      : await repo
          .createQueryBuilder('m')
          .where("m.run_id = :runId AND m.split = 'train' AND m.avg_reward IS NOT NULL", { runId })
          .orderBy('m.step', 'DESC')
          .limit(1)
          .getOne();
  // The total is the one the writes keep (addToTrajectoryTotal's rule), not a COUNT over the run's rows.
  const total = Math.max(0, (metricsFromJson(run.metrics)?.totalTrajectories ?? 0) + totalDelta);
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
  run.metrics = metricsToJson(snapshot);
}
