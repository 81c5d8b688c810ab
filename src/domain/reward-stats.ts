// Summary statistics of a set of rewards: what a metric point and the run's snapshot report.
// Rewards may be any finite double, so nothing here squares or sums raw values: they are scaled by
// the largest magnitude first (into [-1, 1]), and Welford's update keeps the variance stable.

export interface RewardStats {
  count: number;
  mean: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
}

/** Population standard deviation, as GRPO's advantage uses; null (and non-finite) rewards are ignored. */
export function rewardStats(rewards: Iterable<number | null>): RewardStats {
  const values: number[] = [];
  let min = Infinity;
  let max = -Infinity;
  for (const r of rewards) {
    if (r === null || !Number.isFinite(r)) continue;
    values.push(r);
    if (r < min) min = r;
    if (r > max) max = r;
  }
  if (values.length === 0) return { count: 0, mean: null, std: null, min: null, max: null };
  if (min === max) return { count: values.length, mean: min, std: 0, min, max };
  const scale = Math.max(Math.abs(min), Math.abs(max));
  let mean = 0;
  let m2 = 0;
  values.forEach((r, i) => {
    const x = r / scale;
    const delta = x - mean;
    mean += delta / (i + 1);
    m2 += delta * (x - mean);
  });
  // The mean of values within [min, max] lies there too: rounding must not push it outside.
  const scaledMean = Math.min(max, Math.max(min, mean * scale));
  return { count: values.length, mean: scaledMean, std: Math.sqrt(Math.max(0, m2 / values.length)) * scale, min, max };
}
