// One point of a run's metric history, as the rest of Atelier sees it.
import type { MetricPointRow } from '../db/entities';
import { parseDate } from '../db/timestamps';

export interface MetricPoint {
  runId: number;
  step: number;
  epoch: number;
  totalTrajectories: number;
  avgReward: number | null;
  minReward: number | null;
  maxReward: number | null;
  rewardStd: number | null;
  trainingLoss: number | null;
  values: Record<string, number>;
  recordedAt: Date;
}

/** The numeric series of a point, by name: what charts plot and downsampling keeps extremes of. */
export const CORE_SERIES = [
  'totalTrajectories',
  'avgReward',
  'minReward',
  'maxReward',
  'rewardStd',
  'trainingLoss',
] as const;

export function metricPointFromRow(row: MetricPointRow): MetricPoint {
  return {
    runId: row.runId,
    step: row.step,
    epoch: row.epoch,
    totalTrajectories: row.totalTrajectories,
    avgReward: row.avgReward,
    minReward: row.minReward,
    maxReward: row.maxReward,
    rewardStd: row.rewardStd,
    trainingLoss: row.trainingLoss,
    values: JSON.parse(row.values) as Record<string, number>,
    recordedAt: parseDate(row.recordedAt),
  };
}
