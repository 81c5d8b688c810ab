// ART's dataset iteration (iterate_dataset): the seed's TrainingInputBatch(step, epoch, epoch_step, items).
// Each epoch shuffles the items deterministically by the epoch number; batches are consecutive
// slices; step = epoch * stepsPerEpoch + epochStep; steps below initialStep are skipped (resume);
// maxSteps ends early.
import { prng } from './prng';

export interface Batch<T> {
  step: number;
  epoch: number;
  epochStep: number;
  items: T[];
}

export function stepsPerEpoch(itemCount: number, groupsPerStep: number): number {
  return Math.ceil(itemCount / groupsPerStep);
}

export function totalSteps(
  itemCount: number,
  groupsPerStep: number,
  numEpochs: number,
  maxSteps: number | null,
): number {
  const all = stepsPerEpoch(itemCount, groupsPerStep) * numEpochs;
  return maxSteps === null ? all : Math.min(all, maxSteps);
}

export function shuffleForEpoch<T>(items: readonly T[], epoch: number): T[] {
  const out = items.slice();
  const rand = prng(epoch + 1);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function* iterateDataset<T>(
  items: readonly T[],
  opts: { groupsPerStep: number; numEpochs: number; initialStep?: number; maxSteps?: number | null },
): Generator<Batch<T>> {
  const perEpoch = stepsPerEpoch(items.length, opts.groupsPerStep);
  const cap = totalSteps(items.length, opts.groupsPerStep, opts.numEpochs, opts.maxSteps ?? null);
  for (let epoch = 0; epoch < opts.numEpochs; epoch++) {
    const shuffled = shuffleForEpoch(items, epoch);
    for (let epochStep = 0; epochStep < perEpoch; epochStep++) {
      const step = epoch * perEpoch + epochStep;
      if (step >= cap) return;
      if (step < (opts.initialStep ?? 0)) continue;
      yield {
        step,
        epoch,
        epochStep,
        items: shuffled.slice(epochStep * opts.groupsPerStep, (epochStep + 1) * opts.groupsPerStep),
      };
    }
  }
}

/** The batch the iteration gives for one step, or null when the dataset has no such step. */
export function batchAt<T>(
  items: readonly T[],
  opts: { groupsPerStep: number; numEpochs: number; maxSteps?: number | null },
  step: number,
): Batch<T> | null {
  for (const batch of iterateDataset(items, { ...opts, initialStep: step })) return batch.step === step ? batch : null;
  return null;
}
