// One point of a run's metric history, as the rest of Atelier sees it.
import type { MetricPointRow } from '../db/entities';
import { parseDate } from '../db/timestamps';

export interface MetricPoint {
  runId: number;
  split: string;
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

/** A stored point with its named values (rows of metric_values). */
export function metricPointFromRow(row: MetricPointRow, values: Record<string, number> = {}): MetricPoint {
  return {
    runId: row.runId,
    split: row.split,
    step: row.step,
    epoch: row.epoch,
    totalTrajectories: row.totalTrajectories,
    avgReward: row.avgReward,
    minReward: row.minReward,
    maxReward: row.maxReward,
    rewardStd: row.rewardStd,
    trainingLoss: row.trainingLoss,
    values,
    recordedAt: parseDate(row.recordedAt),
  };
}
