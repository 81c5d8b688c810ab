// Pure rules: the status state machine, downsampling, reward statistics and ART's dataset iteration.
import { describe, expect, it } from 'vitest';

import { iterateDataset, shuffleForEpoch, stepsPerEpoch } from '../src/domain/dataset';
import { downsample } from '../src/domain/downsample';
import { rewardStats } from '../src/domain/reward-stats';
import { canTransition, TRAINING_STATUSES } from '../src/domain/status-machine';

describe('status machine', () => {
  it('allows exactly the documented transitions', () => {
    const allowed = TRAINING_STATUSES.flatMap((from) =>
      TRAINING_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}>${to}`),
    );
    const forward = [
      'pending>generating',
      'generating>collecting',
      'collecting>scoring',
      'scoring>training',
      'training>collecting',
      'training>completed',
    ];
    const stops = ['pending', 'generating', 'collecting', 'scoring', 'training'].flatMap((s) => [
      `${s}>failed`,
      `${s}>cancelled`,
    ]);
    expect(allowed.sort()).toEqual([...forward, ...stops].sort());
  });

  it('lets a TRACKED run move forward past stages it does not have, or start a new step, and never back', () => {
    const allowed = (from: (typeof TRAINING_STATUSES)[number]) =>
      TRAINING_STATUSES.filter((to) => canTransition(from, to, 'tracked'));
    expect(allowed('pending')).toEqual([
      'generating',
      'collecting',
      'scoring',
      'training',
      'completed',
      'failed',
      'cancelled',
    ]);
    expect(allowed('collecting')).toEqual(['scoring', 'training', 'completed', 'failed', 'cancelled']);
    expect(allowed('scoring')).toEqual(['collecting', 'training', 'completed', 'failed', 'cancelled']);
    expect(allowed('training')).toEqual(['collecting', 'completed', 'failed', 'cancelled']);
    for (const final of ['completed', 'failed', 'cancelled'] as const) expect(allowed(final)).toEqual([]);
  });
});

describe('downsample', () => {
  it('returns every point as its own bucket when there is room', () => {
    const pts = [0, 1, 2].map((step) => ({ step, series: { loss: step } }));
    expect(downsample(pts, 10).map((b) => [b.firstStep, b.lastStep, b.min.loss, b.max.loss])).toEqual([
      [0, 0, 0, 0],
      [1, 1, 1, 1],
      [2, 2, 2, 2],
    ]);
  });
  it('keeps min and max exact, ignores nulls, and ends on the last point', () => {
    const pts = Array.from({ length: 1001 }, (_, step) => ({
      step,
      series: { loss: step === 500 ? 1e6 : step % 3 === 0 ? null : step },
    }));
    const b = downsample(pts, 10);
    expect(b.length).toBeLessThanOrEqual(10);
    expect(b.at(-1)!.last.step).toBe(1000);
    expect(Math.max(...b.map((x) => x.max.loss ?? -Infinity))).toBe(1e6);
    expect(b.reduce((n, x) => n + x.count, 0)).toBe(1001);
  });
});

describe('rewardStats', () => {
  it('computes mean, population std, min and max over non-null rewards', () => {
    expect(rewardStats([1, 0, null])).toEqual({ count: 2, mean: 0.5, std: 0.5, min: 0, max: 1 });
    expect(rewardStats([])).toEqual({ count: 0, mean: null, std: null, min: null, max: null });
  });
});

describe('iterateDataset', () => {
  const items = Array.from({ length: 5 }, (_, i) => i);
  it('follows ART: ceil(len / groups) steps per epoch, consecutive slices, step = epoch * perEpoch + epochStep', () => {
    const batches = [...iterateDataset(items, { groupsPerStep: 2, numEpochs: 2 })];
    expect(stepsPerEpoch(5, 2)).toBe(3);
    expect(batches.map((b) => [b.step, b.epoch, b.epochStep, b.items.length])).toEqual([
      [0, 0, 0, 2],
      [1, 0, 1, 2],
      [2, 0, 2, 1],
      [3, 1, 0, 2],
      [4, 1, 1, 2],
      [5, 1, 2, 1],
    ]);
    for (const epoch of [0, 1]) {
      const seen = batches.filter((b) => b.epoch === epoch).flatMap((b) => b.items);
      expect([...seen].sort()).toEqual(items);
      expect(seen).toEqual(shuffleForEpoch(items, epoch));
    }
  });
  it('shuffles deterministically per epoch, resumes from initialStep and stops at maxSteps', () => {
    expect(shuffleForEpoch(items, 3)).toEqual(shuffleForEpoch(items, 3));
    expect(shuffleForEpoch(items, 0)).not.toEqual(shuffleForEpoch(items, 1));
    expect([...iterateDataset(items, { groupsPerStep: 2, numEpochs: 2, initialStep: 4 })].map((b) => b.step)).toEqual([
      4, 5,
    ]);
    expect([...iterateDataset(items, { groupsPerStep: 2, numEpochs: 2, maxSteps: 4 })].map((b) => b.step)).toEqual([
      0, 1, 2, 3,
    ]);
  });
});
