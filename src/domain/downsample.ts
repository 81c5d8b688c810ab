// Reduces a long metric history to at most maxPoints points for charts, keeping what matters:
// each bucket of consecutive steps reports its last values plus the exact min and max of every
// series inside it, and the final step is always the last point. A spike is never averaged away.

export type Series = Record<string, number | null>;

export interface HistoryPoint {
  step: number;
  series: Series;
}

export interface Bucket<P extends HistoryPoint> {
  /** The bucket's last point: its values are the values at `lastStep`. */
  last: P;
  firstStep: number;
  lastStep: number;
  count: number;
  min: Series;
  max: Series;
}

/** Points must be sorted by step. With maxPoints >= points.length every point is its own bucket. */
export function downsample<P extends HistoryPoint>(points: readonly P[], maxPoints: number): Bucket<P>[] {
  if (maxPoints < 1) throw new RangeError('maxPoints must be at least 1');
  const n = points.length;
  const buckets: Bucket<P>[] = [];
  const size = Math.max(1, Math.ceil(n / maxPoints));
  for (let start = 0; start < n; start += size) {
    const end = Math.min(n, start + size);
    const min: Series = {};
    const max: Series = {};
    for (let i = start; i < end; i++) {
      for (const [name, value] of Object.entries(points[i].series)) {
        if (value === null || !Number.isFinite(value)) {
          if (!(name in min)) {
            min[name] = null;
            max[name] = null;
          }
          continue;
        }
        const lo = min[name];
        const hi = max[name];
        min[name] = lo === null || lo === undefined ? value : Math.min(lo, value);
        max[name] = hi === null || hi === undefined ? value : Math.max(hi, value);
      }
    }
    buckets.push({
      last: points[end - 1],
      firstStep: points[start].step,
      lastStep: points[end - 1].step,
      count: end - start,
      min,
      max,
    });
  }
  return buckets;
}
