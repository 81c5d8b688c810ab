// run.bestCheckpoint over GraphQL on both databases: the step with the highest val/reward, whether a
// script logged it as `val/reward` or as `reward` in split val, with its checkpoint; another metric
// by name; null when no step has the metric. (On SQLite the run id was once bound to the metric's
// positional placeholder, so the answer was always null there.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { advanceTo, createRun } from './helpers/builders';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { startServer, type TestServer } from './helpers/server';

const RECORD = `mutation($r: ID!, $split: String!, $points: [MetricPointInput!]!) {
  recordMetrics(runId: $r, split: $split, points: $points) { __typename ... on Error { message } }
}`;
const CHECKPOINT = `mutation($r: ID!, $step: Int!) {
  recordCheckpoint(runId: $r, step: $step, name: "agent", uri: null) { __typename ... on Error { message } }
}`;
const BEST = `query($id: ID!) { run(id: $id) {
  val: bestCheckpoint { step value checkpoint { step name } }
  loss: bestCheckpoint(metric: "loss/train") { step value checkpoint { step } }
  none: bestCheckpoint(metric: "val/nothing") { step }
} }`;

type Best = { step: number; value: number; checkpoint: { step: number; name?: string } | null } | null;

function bestCheckpointSuite(server: () => TestServer) {
  it('is the step with the highest val/reward, as `val/reward` or as `reward` in split val, with its checkpoint', async () => {
    const s = server();
    const ok = (res: unknown) => expect(JSON.stringify(res)).not.toContain('Error');
    const logged = await createRun(s, { projectName: 'best' });
    const plain = await createRun(s, { projectName: 'best' });
    for (const run of [logged, plain]) {
      await advanceTo(s, run.id, 'TRAINING');
      const name = run === logged ? 'val/reward' : 'reward';
      ok(
        await s.gql(RECORD, {
          r: run.id,
          split: 'val',
          points: [0.4, 0.9, 0.6].map((value, step) => ({ step, values: [{ name, value }] })),
        }),
      );
      ok(
        await s.gql(RECORD, {
          r: run.id,
          split: 'train',
          points: [0.3, 0.2, 0.5].map((value, step) => ({ step, values: [{ name: 'loss/train', value }] })),
        }),
      );
      for (const step of [0, 1, 2]) ok(await s.gql(CHECKPOINT, { r: run.id, step }));
      const { run: r } = await s.gql<{ run: { val: Best; loss: Best; none: Best } }, unknown>(BEST, { id: run.id });
      expect(r.val, name).toEqual({ step: 1, value: 0.9, checkpoint: { step: 1, name: 'agent' } });
      expect(r.loss).toEqual({ step: 2, value: 0.5, checkpoint: { step: 2 } });
      expect(r.none).toBeNull();
    }
  });
}

describe('bestCheckpoint on SQLite', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.stop());
  bestCheckpointSuite(() => s);
});

describe.skipIf(!postgresUrl)(postgresSuiteTitle('bestCheckpoint on PostgreSQL'), () => {
  let s: TestServer;
  let fresh: FreshPostgresDatabase;
  beforeAll(async () => {
    fresh = await createPostgresDatabase();
    s = await startServer({ databaseUrl: fresh.url });
  });
  afterAll(async () => {
    await s?.stop();
    await fresh?.drop();
  });
  bestCheckpointSuite(() => s);
});
