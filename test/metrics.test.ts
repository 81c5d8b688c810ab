// Metric history through the public API: points computed from stored trajectories, the run's
// snapshot, duplicates refused, and downsampling that keeps spikes and the final step exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { downsample } from '../src/domain/downsample';
import { createRun, recordTrajectories, trajectory } from './helpers/builders';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { useTestServer, type TestServer } from './helpers/server';
import { MetricHistory, RecordMetrics, RecordSplitMetrics, SplitHistory } from './operations';

const s = useTestServer();

describe('recordMetrics', () => {
  it("computes reward statistics from the step's stored trajectories and updates the snapshot", async () => {
    const run = await createRun(s);
    await recordTrajectories(s, run.id, [
      trajectory(0, 0.2),
      trajectory(0, 0.4),
      trajectory(0, null),
      trajectory(1, 1),
      trajectory(1, 0),
    ]);
    const res = await s.gql(RecordMetrics, {
      runId: run.id,
      points: [
        {
          step: 0,
          epoch: 0,
          trainingLoss: 0.5,
          values: [
            { name: 'grad_norm', value: 1.5 },
            { name: 'trainable_groups', value: 2 },
          ],
        },
        { step: 1, epoch: 0, trainingLoss: 0.25 },
      ],
    });
    expectResult(res.recordMetrics, 'RecordMetricsPayload');
    const h = await s.gql(MetricHistory, { id: run.id });
    const [p0, p1] = h.run!.metricHistory;
    expect(p0).toMatchObject({
      step: 0,
      epoch: 0,
      totalTrajectories: 3,
      minReward: 0.2,
      maxReward: 0.4,
      trainingLoss: 0.5,
    });
    expect(p0.avgReward).toBeCloseTo(0.3, 12);
    expect(p0.rewardStd).toBeCloseTo(0.1, 12);
    expect(p0.values).toEqual([
      { name: 'grad_norm', value: 1.5 },
      { name: 'trainable_groups', value: 2 },
    ]);
    expect(p1).toMatchObject({
      step: 1,
      totalTrajectories: 2,
      avgReward: 0.5,
      minReward: 0,
      maxReward: 1,
      rewardStd: 0.5,
      trainingLoss: 0.25,
    });
    expect(h.run!.metrics).toEqual({
      totalTrajectories: 5,
      avgReward: 0.5,
      minReward: 0,
      maxReward: 1,
      trainingLoss: 0.25,
      epoch: 0,
      step: 1,
    });
  });

  it('refuses a step that already has a point, and duplicate names, changing nothing', async () => {
    const run = await createRun(s);
    await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 0, epoch: 0, trainingLoss: 1 }] });
    const again = await s.gql(RecordMetrics, {
      runId: run.id,
      points: [
        { step: 1, epoch: 0 },
        { step: 0, epoch: 0, trainingLoss: 2 },
      ],
    });
    expectResult(again.recordMetrics, 'ConflictError');
    const dupNames = await s.gql(RecordMetrics, {
      runId: run.id,
      points: [
        {
          step: 2,
          epoch: 0,
          values: [
            { name: 'a', value: 1 },
            { name: 'a', value: 2 },
          ],
        },
      ],
    });
    expectResult(dupNames.recordMetrics, 'ValidationError');
    const dupSteps = await s.gql(RecordMetrics, {
      runId: run.id,
      points: [
        { step: 3, epoch: 0 },
        { step: 3, epoch: 0 },
      ],
    });
    expectResult(dupSteps.recordMetrics, 'ValidationError');
    const negative = await s.gql(RecordMetrics, { runId: run.id, points: [{ step: -1, epoch: 0 }] });
    expectResult(negative.recordMetrics, 'ValidationError');
    const h = await s.gql(MetricHistory, { id: run.id });
    expect(h.run!.metricHistory.map((p) => [p.step, p.trainingLoss])).toEqual([[0, 1]]);
    expect(h.run!.metrics?.step).toBe(0);
  });
});

describe('recordMetrics retried after a lost answer', () => {
  it('accepts the same points again as a no-op, and still refuses a different point for a stored step', async () => {
    const run = await createRun(s);
    await recordTrajectories(s, run.id, [trajectory(0, 0.25), trajectory(0, 0.75)]);
    const points = [
      {
        step: 0,
        epoch: 0,
        trainingLoss: 0.5,
        values: [
          { name: 'loss/grad_norm', value: 1.5 },
          { name: 'lr', value: 1e-5 },
        ],
      },
      { step: 1, epoch: 0 },
    ];
    const first = expectResult(
      (await s.gql(RecordMetrics, { runId: run.id, points })).recordMetrics,
      'RecordMetricsPayload',
    );
    // The answer was lost; the script sends the very same call again (values in another order).
    const again = expectResult(
      (
        await s.gql(RecordMetrics, {
          runId: run.id,
          points: [{ ...points[0], values: [...(points[0].values ?? [])].reverse() }, points[1]],
        })
      ).recordMetrics,
      'RecordMetricsPayload',
    );
    expect(again.points).toEqual(first.points);
    // A retry that also brings a new step stores just the new one.
    const more = expectResult(
      (await s.gql(RecordMetrics, { runId: run.id, points: [points[1], { step: 2, epoch: 1, trainingLoss: 0.1 }] }))
        .recordMetrics,
      'RecordMetricsPayload',
    );
    expect(more.points.map((p) => p.step)).toEqual([1, 2]);
    const changed = await s.gql(RecordMetrics, { runId: run.id, points: [{ ...points[0], trainingLoss: 0.6 }] });
    expect(expectResult(changed.recordMetrics, 'ConflictError').message).toMatch(/step 0 .* different history point/);
    const { run: stored } = await s.gql(MetricHistory, { id: run.id });
    expect(stored!.metricHistory.map((p) => [p.step, p.trainingLoss])).toEqual([
      [0, 0.5],
      [1, null],
      [2, 0.1],
    ]);
    expect(stored!.metrics).toMatchObject({ step: 2, trainingLoss: 0.1, totalTrajectories: 2 });
  });
});

describe('metricHistory(maxPoints)', () => {
  it('keeps every spike exact and always ends on the final step', async () => {
    const run = await createRun(s);
    const steps = 20_000;
    const spikes = new Map([
      [1234, 50],
      [15_001, -40],
      [19_998, 99],
    ]);
    const loss = (step: number) => spikes.get(step) ?? 1 + Math.sin(step / 100) * 0.1;
    for (let i = 0; i < steps; i += 1000) {
      const points = Array.from({ length: 1000 }, (_, j) => ({
        step: i + j,
        epoch: Math.floor((i + j) / 10_000),
        trainingLoss: loss(i + j),
      }));
      const res = await s.gql(RecordMetrics, { runId: run.id, points });
      expectResult(res.recordMetrics, 'RecordMetricsPayload');
    }
    const full = await s.gql(MetricHistory, { id: run.id });
    expect(full.run!.metricHistory).toHaveLength(steps);

    const maxPoints = 300;
    const h = (await s.gql(MetricHistory, { id: run.id, maxPoints })).run!.metricHistory;
    expect(h.length).toBeLessThanOrEqual(maxPoints);
    expect(h.at(-1)!.step).toBe(steps - 1);
    expect(h.at(-1)!.trainingLoss).toBeCloseTo(loss(steps - 1), 12);
    const maxOf = (p: (typeof h)[number]) => p.bucket.max.find((v) => v.name === 'trainingLoss')!.value!;
    const minOf = (p: (typeof h)[number]) => p.bucket.min.find((v) => v.name === 'trainingLoss')!.value!;
    expect(Math.max(...h.map(maxOf))).toBe(99);
    expect(Math.min(...h.map(minOf))).toBe(-40);
    const spikeBucket = h.find((p) => p.bucket.firstStep <= 1234 && p.bucket.lastStep >= 1234)!;
    expect(maxOf(spikeBucket)).toBe(50);
    // Buckets tile the steps: no step lost, none counted twice.
    expect(h.reduce((n, p) => n + p.bucket.count, 0)).toBe(steps);
    h.slice(1).forEach((p, i) => expect(p.bucket.firstStep).toBe(h[i].bucket.lastStep + 1));

    const bad = await s.request(MetricHistory, { id: run.id, maxPoints: 0 });
    expect(bad.errors?.[0].message).toMatch(/maxPoints/);
  }, 60_000);
});

/** Bucketing by the database (metrics.repo.ts bucketed) gives what downsampling the whole history gives. */
function bucketSuite(server: () => TestServer) {
  it('gives exactly the buckets domain/downsample.ts makes from the whole history, named values and gaps included', async () => {
    const s = server();
    const run = await createRun(s);
    const steps = 1234;
    for (let i = 0; i < steps; i += 500) {
      const points = Array.from({ length: Math.min(500, steps - i) }, (_, j) => {
        const step = 2 * (i + j); // steps with gaps between them
        return {
          step,
          trainingLoss: step % 7 === 0 ? null : Math.cos(step / 13),
          // a value some points lack, one every point has, one only early steps have (most buckets lack it)
          values: [
            ...(step % 3 === 0 ? [{ name: 'loss/grad_norm', value: (step % 17) - 8 }] : []),
            { name: 'time/step_s', value: step / 10 },
            ...(step < 150 ? [{ name: 'a/early', value: -step }] : []),
          ],
        };
      });
      expectResult((await s.gql(RecordSplitMetrics, { runId: run.id, points })).recordMetrics, 'RecordMetricsPayload');
    }
    const full = (await s.gql(MetricHistory, { id: run.id })).run!.metricHistory;
    expect(full).toHaveLength(steps);
    const series = (p: (typeof full)[number]) => ({
      step: p.step,
      series: {
        trainingLoss: p.trainingLoss ?? null,
        avgReward: p.avgReward ?? null,
        ...Object.fromEntries(p.values.map((v) => [`values.${v.name}`, v.value])),
      },
    });
    const sorted = (xs: Array<{ name: string; value?: number | null }>) =>
      Object.fromEntries(
        xs
          .filter((x) => ['trainingLoss', 'avgReward'].includes(x.name) || x.name.startsWith('values.'))
          .map((x) => [x.name, x.value ?? null]),
      );
    // 1 bucket, uneven buckets, buckets of 2 (the last one short), and maxPoints at and above the count.
    for (const maxPoints of [1, 100, 617, 1233, steps, steps + 1]) {
      const h = (await s.gql(MetricHistory, { id: run.id, maxPoints })).run!.metricHistory;
      const expected = downsample(full.map(series), maxPoints);
      expect(h.map((p) => [p.bucket.firstStep, p.bucket.lastStep, p.bucket.count, p.step])).toEqual(
        expected.map((b) => [b.firstStep, b.lastStep, b.count, b.last.step]),
      );
      expect(h.map((p) => sorted(p.bucket.min))).toEqual(expected.map((b) => b.min));
      expect(h.map((p) => sorted(p.bucket.max))).toEqual(expected.map((b) => b.max));
      expect(h.map((p) => p.values)).toEqual(expected.map((b) => full.find((f) => f.step === b.last.step)!.values));
    }
    // names: only those values, in the buckets and on the points.
    const only = (await s.gql(SplitHistory, { id: run.id, names: ['time/step_s'] })).run!.metricHistory;
    expect(new Set(only.flatMap((p) => p.values.map((v) => v.name)))).toEqual(new Set(['time/step_s']));
    // names with maxPoints: the database's buckets of only those names (one of them unknown), exact.
    const names = ['time/step_s', 'a/early', 'no/such'];
    const picked: {
      run: {
        metricHistory: Array<{
          step: number;
          values: Array<{ name: string; value: number }>;
          bucket: {
            firstStep: number;
            lastStep: number;
            count: number;
            min: Array<{ name: string; value: number | null }>;
            max: Array<{ name: string; value: number | null }>;
          };
        }>;
      };
    } = await s.gql(
      `query($id: ID!, $names: [String!]) { run(id: $id) { metricHistory(maxPoints: 50, names: $names) { step values { name value } bucket { firstStep lastStep count min { name value } max { name value } } } } }`,
      { id: run.id, names },
    );
    const kept = full.map((p) => ({ ...p, values: p.values.filter((v) => names.includes(v.name)) }));
    const expected = downsample(kept.map(series), 50);
    const h = picked.run.metricHistory;
    expect(h.map((p) => [p.bucket.firstStep, p.bucket.lastStep, p.bucket.count, p.step])).toEqual(
      expected.map((b) => [b.firstStep, b.lastStep, b.count, b.last.step]),
    );
    expect(h.map((p) => sorted(p.bucket.min))).toEqual(expected.map((b) => b.min));
    expect(h.map((p) => sorted(p.bucket.max))).toEqual(expected.map((b) => b.max));
    expect(h.map((p) => p.values)).toEqual(expected.map((b) => kept.find((f) => f.step === b.last.step)!.values));
  }, 60_000);
}

describe('metricHistory(maxPoints) bucketed by the database', () => bucketSuite(() => s));

describe.skipIf(!postgresUrl)(postgresSuiteTitle('metricHistory(maxPoints) bucketed by PostgreSQL'), () => {
  let db: FreshPostgresDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
  });
  afterAll(() => db?.drop());
  const pgServer = useTestServer(() => ({ databaseUrl: db.url }));
  bucketSuite(() => pgServer);
});
