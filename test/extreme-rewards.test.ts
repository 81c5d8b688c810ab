// Rewards a training script may report are any finite double. Their statistics must not overflow:
// rewards of 1e155 and beyond once made recordMetrics fail for that step (SQUARE overflowed to
// Infinity and NaN on SQLite, "value out of range" on PostgreSQL). On both databases the point is
// stored with finite, correct statistics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRun, recordTrajectories, trajectory } from './helpers/builders';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { useTestServer, type ServerOptions } from './helpers/server';
import { MetricHistory, RecordMetrics } from './operations';

function suite(options: () => ServerOptions) {
  const s = useTestServer(options);

  it('records a step whose rewards are near the limits of a double, with finite statistics', async () => {
    const run = await createRun(s);
    const rewards = [1e155, 3e155, -1.7e308, 1.7e308, 1.7e308];
    await recordTrajectories(
      s,
      run.id,
      rewards.map((r) => trajectory(0, r)),
    );
    await recordTrajectories(s, run.id, [trajectory(1, 1e300), trajectory(1, 1e300)]);
    const res = await s.gql(RecordMetrics, {
      runId: run.id,
      points: [
        { step: 0, epoch: 0 },
        { step: 1, epoch: 0 },
      ],
    });
    expectResult(res.recordMetrics, 'RecordMetricsPayload');
    const { run: stored } = await s.gql(MetricHistory, { id: run.id });
    const [p0, p1] = stored!.metricHistory;
    expect(p0).toMatchObject({ totalTrajectories: 5, minReward: -1.7e308, maxReward: 1.7e308 });
    const mean = (1e155 + 3e155 + 1.7e308) / 5; // -1.7e308 and one 1.7e308 cancel
    expect(p0.avgReward! / mean).toBeCloseTo(1, 9);
    expect(Number.isFinite(p0.rewardStd)).toBe(true);
    expect(p0.rewardStd!).toBeGreaterThan(1e307);
    expect(p1).toMatchObject({
      totalTrajectories: 2,
      avgReward: 1e300,
      minReward: 1e300,
      maxReward: 1e300,
      rewardStd: 0,
    });
    expect(stored!.metrics).toMatchObject({ step: 1, avgReward: 1e300 });
  });
}

describe('extreme rewards on SQLite', () => suite(() => ({})));

describe.skipIf(!postgresUrl)(postgresSuiteTitle('extreme rewards on PostgreSQL'), () => {
  let db: FreshPostgresDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
  });
  afterAll(() => db?.drop());
  suite(() => ({ databaseUrl: db.url }));
});
