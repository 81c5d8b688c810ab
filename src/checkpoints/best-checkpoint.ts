// The best checkpoint by a metric, by ART's rule (`Model.delete_checkpoints`, src/art/model.py at
// PeterWofford/ART 679b236e, ART 0.5.17): read the history, drop rows without the metric, average it
// per step, and take the step with the highest average. Polars' sort there leaves ties in no defined
// order; Atelier breaks them towards the latest step. ART keeps that step and the latest one.
import type { StepValue } from './checkpoints.repo';

export function bestStep(values: StepValue[]): { step: number; value: number } | null {
  const sums = new Map<number, { total: number; n: number }>();
  for (const v of values) {
    if (!Number.isFinite(v.value)) continue;
    const s = sums.get(v.step) ?? { total: 0, n: 0 };
    s.total += v.value;
    s.n += 1;
    sums.set(v.step, s);
  }
  let best: { step: number; value: number } | null = null;
  for (const [step, s] of sums) {
    const value = s.total / s.n;
    if (!best || value > best.value || (value === best.value && step > best.step)) best = { step, value };
  }
  return best;
}
