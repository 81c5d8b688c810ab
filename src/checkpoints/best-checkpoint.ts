// The best checkpoint by a metric, by ART's rule (`Model.delete_checkpoints`, src/art/model.py at
// PeterWofford/ART 679b236e, ART 0.5.17): read the history, drop rows without the metric, average it
// per step, and take the step with the highest average. Polars' sort there leaves ties in no defined
// order; Atelier breaks them towards the latest step. ART keeps that step and the latest one.
import type { StepValue } from './checkpoints.repo';

export function bestStep(values: StepValue[]): { step: number; value: number } | null {
  return rankedSteps(values)[0] ?? null;
}

/** Every step that has the metric, by its average, best first (ties: the latest first). */
export function rankedSteps(values: StepValue[]): Array<{ step: number; value: number }> {
  const sums = new Map<number, { total: number; n: number }>();
  for (const v of values) {
    if (!Number.isFinite(v.value)) continue;
    const s = sums.get(v.step) ?? { total: 0, n: 0 };
    s.total += v.value;
    s.n += 1;
    sums.set(v.step, s);
  }
  return [...sums]
    .map(([step, s]) => ({ step, value: s.total / s.n }))
    .sort((a, b) => b.value - a.value || b.step - a.step);
}

/**
 * The checkpoint steps a retention policy keeps: ART's delete_checkpoints keeps the latest and the
 * best; generalized, the `keepLast` latest of the live checkpoints and the `keepBest` best steps of the
 * history (as ART, ranked over the whole history: a best step without a checkpoint, the base model's
 * step 0 say, keeps nothing more), plus any step being used (an evaluation in flight).
 */
export function retainedSteps(
  values: StepValue[],
  liveSteps: number[],
  policy: { keepLast: number; keepBest: number },
  inUse: number[] = [],
): number[] {
  const latest = [...liveSteps].sort((a, b) => b - a).slice(0, Math.max(1, policy.keepLast));
  const best = rankedSteps(values)
    .slice(0, policy.keepBest)
    .map((r) => r.step);
  return [...new Set([...latest, ...best, ...inUse])].sort((a, b) => a - b);
}
