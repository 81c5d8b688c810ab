// Summary statistics of a set of rewards: what a metric point and the run's snapshot report.

export interface RewardStats {
  count: number;
  mean: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
}

/** Population standard deviation, as GRPO's advantage uses; null rewards are ignored. */
export function rewardStats(rewards: Iterable<number | null>): RewardStats {
  let count = 0;
  let sum = 0;
  let sumSq = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const r of rewards) {
    if (r === null || !Number.isFinite(r)) continue;
    count++;
    sum += r;
    sumSq += r * r;
    if (r < min) min = r;
    if (r > max) max = r;
  }
  if (count === 0) return { count: 0, mean: null, std: null, min: null, max: null };
  const mean = sum / count;
  const variance = Math.max(0, sumSq / count - mean * mean);
  return { count, mean, std: Math.sqrt(variance), min, max };
}
