// Small statistics for noisy machines: medians of rounds, and paired ratios measured side by side.

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/** "median (p25–p75)" style spread, for the report. */
export function spread(values: readonly number[], digits = 2): string {
  return `${fmt(quantile(values, 0.25), digits)}–${fmt(quantile(values, 0.75), digits)}`;
}

/** The median of per-round ratios a[i] / b[i]: each ratio compares two figures taken moments apart. */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`paired ratio over ${a.length} and ${b.length} rounds`);
  return median(a.map((x, i) => x / b[i]));
}

export function fmt(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(Math.max(0, digits - 2));
  if (abs >= 10) return value.toFixed(Math.max(0, digits - 1));
  return value.toFixed(digits);
}

/** Milliseconds since an arbitrary origin, sub-millisecond. */
export function now(): number {
  return performance.now();
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
