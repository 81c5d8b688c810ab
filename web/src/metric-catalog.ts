// What a run's history can chart: every metric of every split, keyed so that train and val of one
// metric (ART logs `train/reward` and `val/reward`) land on one chart, and so that older ART names
// (`grad_norm`, `loss`) chart with their current ones (`loss/grad_norm`, `loss/train`). Pure: the
// run page turns these models into uPlot charts.
import { LEGACY_METRIC_NAMES } from '../../src/domain/train-metrics';
import type { ChartSeries } from './chart';
import type { MetricName, MetricPoint, NamedValue } from './queries';

/** The reward statistics Atelier computes from each split's trajectories (or the `<split>/reward` a script logged). */
export const REWARD = 'reward';
/** A point's trainingLoss, or ART's `loss/train`. */
export const LOSS = 'loss/train';
export const GRAD_NORM = 'loss/grad_norm';
/** Charted until the viewer picks others. */
export const DEFAULT_METRICS = [REWARD, LOSS, GRAD_NORM];
export const TRAIN = 'train';

const LABELS: Record<string, string> = {
  [REWARD]: 'avg reward',
  [LOSS]: 'training loss',
  [GRAD_NORM]: 'gradient norm',
};
const COLORS: Record<string, string> = { [REWARD]: '#2563eb', [LOSS]: '#dc2626', [GRAD_NORM]: '#7c3aed' };
const PALETTE = ['#0891b2', '#16a34a', '#d97706', '#db2777', '#4b5563', '#65a30d'];
/** Other splits than train: their own colours, dashed. */
const SPLIT_COLORS = ['#ea580c', '#059669', '#9333ea', '#0284c7', '#be123c', '#854d0e', '#4338ca', '#57534e'];

export interface MetricEntry {
  key: string;
  /** The chart's accessible name. */
  label: string;
  /** split → the stored value names that are this metric in that split. */
  names: Map<string, string[]>;
}

/** The metric a stored value name is, in its split: the split's own prefix dropped, old ART names renamed. */
export function metricKey(split: string, name: string): string {
  if (name.startsWith(`${split}/`)) return name.slice(split.length + 1);
  return LEGACY_METRIC_NAMES[name] ?? name;
}

export const labelOf = (key: string) => LABELS[key] ?? key;

/** The run's splits, train first, then by name. */
export function splitsOf(metricNames: MetricName[], histories: Record<string, MetricPoint[]>): string[] {
  const set = new Set([TRAIN, ...metricNames.map((m) => m.split), ...Object.keys(histories)]);
  return [TRAIN, ...[...set].filter((s) => s !== TRAIN).sort()];
}

/** Every metric the run has: the three of the old fixed charts first, then the others by name. */
export function catalog(metricNames: MetricName[], histories: Record<string, MetricPoint[]>): MetricEntry[] {
  const entries = new Map<string, MetricEntry>();
  const entry = (key: string) => {
    let e = entries.get(key);
    if (!e) entries.set(key, (e = { key, label: labelOf(key), names: new Map() }));
    return e;
  };
  for (const key of DEFAULT_METRICS) entry(key);
  const add = (split: string, name: string) => {
    const names = entry(metricKey(split, name)).names;
    const list = names.get(split) ?? [];
    if (!list.includes(name)) names.set(split, [...list, name]);
  };
  for (const m of metricNames) if (m.name) add(m.split, m.name);
  // Live points may bring names the last load did not know.
  for (const [split, points] of Object.entries(histories))
    for (const p of points.slice(-1)) for (const v of p.values) add(split, v.name);
  const rest = [...entries.values()].filter((e) => !DEFAULT_METRICS.includes(e.key));
  rest.sort((a, b) => a.key.localeCompare(b.key));
  return [...DEFAULT_METRICS.map((k) => entries.get(k)!), ...rest];
}

/** Every stored name the chosen metrics read, in any split: what the history queries ask for. */
export function namesFor(entries: MetricEntry[], keys: string[]): string[] {
  const out = new Set<string>(['loss/grad_norm', 'grad_norm']);
  for (const e of entries)
    if (keys.includes(e.key)) for (const list of e.names.values()) list.forEach((n) => out.add(n));
  return [...out].sort();
}

const named = (values: NamedValue[], name: string) => values.find((v) => v.name === name)?.value ?? null;

/** The metric's value at a point: Atelier's own statistic first (reward, loss), then the names it was logged under. */
export function valueAt(p: MetricPoint, key: string, names: string[]): number | null {
  if (key === REWARD && p.avgReward != null) return p.avgReward;
  if (key === LOSS && p.trainingLoss != null) return p.trainingLoss;
  for (const n of names) {
    const v = named(p.values, n);
    if (v != null) return v;
  }
  return null;
}

/** The exact min and max of a downsampled point's bucket (for reward: the spread of the rewards themselves). */
function envelopeAt(p: MetricPoint, key: string, names: string[], side: 'min' | 'max'): number | null {
  const bucket = side === 'min' ? p.bucket.min : p.bucket.max;
  if (key === REWARD && p.avgReward != null)
    return named(bucket, side === 'min' ? 'minReward' : 'maxReward') ?? (side === 'min' ? p.minReward : p.maxReward);
  if (p.bucket.count <= 1) return valueAt(p, key, names);
  if (key === LOSS && p.trainingLoss != null) return named(bucket, 'trainingLoss') ?? p.trainingLoss;
  for (const n of names) {
    const v = named(bucket, `values.${n}`);
    if (v != null) return v;
  }
  return valueAt(p, key, names);
}

export interface ChartModel {
  key: string;
  label: string;
  data: (number | null)[][];
  series: ChartSeries[];
  band?: { upper: number; lower: number; color: string };
  /** Per split: how many points it has on this chart and its last one, [step, value] (data-series, for tests and tools). */
  summary: Record<string, { points: number; last: [number, number] | null }>;
}

/** The splits a metric is drawn for: those that have it; reward for every split; loss and gradient norm at least for train. */
export function chartSplits(entry: MetricEntry, splits: string[]): string[] {
  if (entry.key === REWARD) return splits;
  return splits.filter((s) => entry.names.has(s) || (s === TRAIN && (entry.key === LOSS || entry.key === GRAD_NORM)));
}

/**
 * One metric's chart: a series per split on one x axis (the union of their steps; a split without a
 * step there has a gap), the first split with its min–max band when it has one.
 */
export function chartOf(entry: MetricEntry, histories: Record<string, MetricPoint[]>, splits: string[]): ChartModel {
  const drawn = chartSplits(entry, splits);
  const steps = [...new Set(drawn.flatMap((s) => (histories[s] ?? []).map((p) => p.step)))].sort((a, b) => a - b);
  const index = new Map(steps.map((s, i) => [s, i]));
  const color = COLORS[entry.key] ?? PALETTE[Math.abs(hash(entry.key)) % PALETTE.length];
  const data: (number | null)[][] = [steps];
  const series: ChartSeries[] = [];
  const summary: ChartModel['summary'] = {};
  let band: ChartModel['band'];
  drawn.forEach((split, i) => {
    const names = entry.names.get(split) ?? [];
    const ys: (number | null)[] = new Array(steps.length).fill(null);
    const points = histories[split] ?? [];
    let count = 0;
    let last: [number, number] | null = null;
    for (const p of points) {
      const v = valueAt(p, entry.key, names);
      ys[index.get(p.step)!] = v;
      if (v != null) {
        count++;
        last = [p.step, v];
      }
    }
    summary[split] = { points: count, last };
    const own = i === 0 ? color : SPLIT_COLORS[(i - 1) % SPLIT_COLORS.length];
    data.push(ys);
    series.push({ label: split, color: own, width: 2, dash: split === TRAIN ? undefined : [6, 4] });
    // The band: the spread of the rewards, or the exact min and max of downsampled buckets.
    if (i === 0 && (entry.key === REWARD || points.some((p) => p.bucket.count > 1))) {
      const upper: (number | null)[] = new Array(steps.length).fill(null);
      const lower: (number | null)[] = new Array(steps.length).fill(null);
      for (const p of points) {
        upper[index.get(p.step)!] = envelopeAt(p, entry.key, names, 'max');
        lower[index.get(p.step)!] = envelopeAt(p, entry.key, names, 'min');
      }
      data.push(upper, lower);
      series.push(
        { label: `${split} max`, color: fade(own, 0.35), width: 1 },
        { label: `${split} min`, color: fade(own, 0.35), width: 1 },
      );
      band = { upper: 1, lower: 2, color: fade(own, 0.12) };
    }
  });
  return { key: entry.key, label: entry.label, data, series, band, summary };
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}

/** #rrggbb at an opacity, as rgba(). */
function fade(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`;
}

/** Adds live points to a history: a step already there is replaced, new steps are appended in order. */
export function mergePoints(history: MetricPoint[], incoming: MetricPoint[]): MetricPoint[] {
  const out = history.slice();
  for (const p of incoming) {
    const last = out[out.length - 1];
    if (!last || p.step > last.step) out.push(p);
    else {
      const i = out.findIndex((q) => q.step === p.step);
      if (i >= 0) out[i] = p;
      else {
        out.push(p);
        out.sort((a, b) => a.step - b.step);
      }
    }
  }
  return out;
}
