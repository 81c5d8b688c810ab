// The compare view's pure parts, as the page uses them: W&B's exponential moving average
// (TensorBoard's, debiased), metric values read from history points, alignment on steps or wall
// time with a log axis, and the config diff that keeps only what differs.
import { describe, expect, it } from 'vitest';

import { align, configDiff, ema, pointValue } from '../web/src/compare-data';
import type { ComparedPoint, ComparedRun } from '../web/src/queries';

describe('ema', () => {
  it("is W&B's documented EMA: last = last·w + (1 − w)·y, divided by 1 − wⁿ", () => {
    const w = 0.6;
    const ys = [1, 0, 1, 1];
    let last = 0;
    const expected = ys.map((y, i) => {
      last = last * w + (1 - w) * y;
      return last / (1 - w ** (i + 1));
    });
    const got = ema(ys, w);
    got.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 12));
    // Debiased: the first point is the first value, not pulled towards zero.
    expect(got[0]).toBe(1);
    expect(got[1]).toBeCloseTo(0.375, 12); // (0.4·0.6 + 0) / (1 − 0.36)
  });

  it('leaves the series alone at 0 and keeps gaps as gaps without touching the average', () => {
    expect(ema([0.2, null, 0.4], 0)).toEqual([0.2, null, 0.4]);
    const smoothed = ema([1, null, 1], 0.9);
    expect(smoothed[1]).toBeNull();
    expect(smoothed[2]).toBeCloseTo(1, 12);
  });
});

const point = (step: number, at: string, over: Partial<ComparedPoint> = {}): ComparedPoint => ({
  step,
  recordedAt: at,
  avgReward: null,
  rewardStd: null,
  trainingLoss: null,
  values: [],
  ...over,
});

describe('pointValue and align', () => {
  it("reads a logged value first, else the point's own statistics", () => {
    const p = point(0, '2026-01-01T00:00:00Z', { avgReward: 0.3, values: [{ name: 'val/reward', value: 0.8 }] });
    expect(pointValue(p, 'val', 'reward')).toBe(0.8);
    expect(pointValue(point(0, '', { avgReward: 0.3 }), 'train', 'reward')).toBe(0.3);
    expect(pointValue(point(0, '', { trainingLoss: 2 }), 'train', 'loss')).toBe(2);
  });

  it('puts runs on one axis of steps or seconds since start, with gaps; a log axis drops values ≤ 0', () => {
    const a = {
      startedAt: '2026-01-01T00:00:00Z',
      points: [point(0, '2026-01-01T00:00:10Z'), point(2, '2026-01-01T00:00:30Z')],
      ys: [0.5, 0],
    };
    const b = { startedAt: '2026-01-01T01:00:00Z', points: [point(1, '2026-01-01T01:00:10Z')], ys: [0.7] };
    expect(align([a, b], 'step', false)).toEqual([
      [0, 1, 2],
      [0.5, null, 0],
      [null, 0.7, null],
    ]);
    expect(align([a, b], 'time', true)).toEqual([
      [10, 30],
      [0.5, null],
      [0.7, null],
    ]);
  });
});

describe('configDiff', () => {
  const run = (lr: number, config: Record<string, unknown>): ComparedRun => ({
    id: String(lr),
    databaseId: 1,
    name: null,
    projectName: 'p',
    modelName: 'm',
    status: 'COMPLETED',
    startedAt: null,
    createdAt: '',
    learningRate: lr,
    numExamples: 10,
    rolloutsPerGroup: 4,
    numEpochs: 1,
    maxSteps: null,
    tags: [],
    group: null,
    config,
    summary: [],
  });

  it('keeps only the keys whose values differ, nested keys dotted, a missing key differing', () => {
    const diff = configDiff([
      run(1e-5, { optimizer: 'adamw', pipeline: { temperature: 0.7, groupsPerStep: 2 } }),
      run(1e-5, { optimizer: 'sgd', pipeline: { temperature: 0.7 } }),
    ]);
    expect(diff).toEqual([
      { key: 'optimizer', values: ['adamw', 'sgd'] },
      { key: 'pipeline.groupsPerStep', values: ['2', '–'] },
    ]);
  });
});
