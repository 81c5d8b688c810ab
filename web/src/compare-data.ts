// The compare view's pure parts: W&B's exponential moving average, a metric's series out of a
// history, histories aligned on one x axis (step or wall time), and the config diff. No DOM here,
// so the tests run them directly.
import type { ComparedPoint, ComparedRun } from './queries';

/**
 * W&B's "Exponential moving average" smoothing, which matches TensorBoard's: the running average
 * `last = last * w + (1 - w) * y`, divided by the debiasing term `1 - w^n` (n: points so far), so
 * the first points are not pulled towards zero. w in [0, 1); 0 leaves the series as it is. Gaps
 * (null) stay gaps and leave the average untouched. Computed in the browser, on the points the
 * server sent (downsampled to at most 500 per run, each the last value of its bucket).
 */
export function ema(values: readonly (number | null)[], weight: number): (number | null)[] {
  const w = Math.min(Math.max(weight, 0), 0.999);
  if (w === 0) return [...values];
  let last = 0;
  let n = 0;
  return values.map((y) => {
    if (y == null || !Number.isFinite(y)) return null;
    last = last * w + (1 - w) * y;
    n++;
    return last / (1 - Math.pow(w, n));
  });
}

/** How a summary name `<split>/<name>` reads from a history point of that split. */
export function metricOf(summaryName: string): { split: string; name: string } {
  const slash = summaryName.indexOf('/');
  return { split: summaryName.slice(0, slash), name: summaryName.slice(slash + 1) };
}

/** The value of metric `name` of `split` at a point: a logged value first, else the point's own statistics. */
export function pointValue(p: ComparedPoint, split: string, name: string): number | null {
  const logged = p.values.find((v) => v.name === name || v.name === `${split}/${name}`);
  if (logged) return logged.value;
  if (name === 'reward') return p.avgReward;
  if (name === 'reward_std_dev') return p.rewardStd;
  if (name === 'loss') return p.trainingLoss;
  return null;
}

export type XAxis = 'step' | 'time';

/**
 * Several runs' series on one x axis: steps, or seconds since each run started (wall time, as W&B's
 * "Relative Time (Wall)"). A run without a point at some x has a gap there. With `log`, values that
 * are not positive become gaps (a log axis has no place for them).
 */
export function align(
  runs: Array<{ startedAt: string | null; points: ComparedPoint[]; ys: (number | null)[] }>,
  x: XAxis,
  log: boolean,
): (number | null)[][] {
  const xsOf = (r: (typeof runs)[number]) => {
    if (x === 'step') return r.points.map((p) => p.step);
    const t0 = Date.parse(r.startedAt ?? r.points[0]?.recordedAt ?? '');
    return r.points.map((p) => Math.round((Date.parse(p.recordedAt) - t0) / 100) / 10);
  };
  const perRun = runs.map(xsOf);
  const xs = [...new Set(perRun.flat())].sort((a, b) => a - b);
  const index = new Map(xs.map((v, i) => [v, i]));
  const series = runs.map((r, k) => {
    const ys: (number | null)[] = new Array(xs.length).fill(null);
    perRun[k].forEach((xv, i) => {
      const y = r.ys[i];
      ys[index.get(xv)!] = y == null || (log && y <= 0) ? null : y;
    });
    return ys;
  });
  return [xs, ...series];
}

/** A run's settings and config flattened to dotted keys (`pipeline.temperature`), as the search's config.<key> names them. */
export function flatConfig(run: ComparedRun): Record<string, string> {
  const out: Record<string, string> = {
    learning_rate: String(run.learningRate),
    num_examples: String(run.numExamples),
    rollouts_per_group: String(run.rolloutsPerGroup),
    num_epochs: String(run.numEpochs),
    max_steps: run.maxSteps == null ? '–' : String(run.maxSteps),
    model_name: run.modelName,
  };
  const walk = (value: unknown, prefix: string) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, prefix ? `${prefix}.${k}` : k);
    } else if (prefix) out[prefix] = typeof value === 'string' ? value : JSON.stringify(value);
  };
  walk(run.config, '');
  return out;
}

/** The keys whose values differ between the runs (a key some runs lack differs), sorted. */
export function configDiff(runs: ComparedRun[]): Array<{ key: string; values: string[] }> {
  const flat = runs.map(flatConfig);
  const keys = [...new Set(flat.flatMap((f) => Object.keys(f)))].sort();
  return keys
    .map((key) => ({ key, values: flat.map((f) => f[key] ?? '–') }))
    .filter((row) => new Set(row.values).size > 1);
}
