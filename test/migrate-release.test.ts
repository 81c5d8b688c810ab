// A database made by the previous release (every migration before ArtRecords1796065000000, with rows
// in its layout: history points carrying their values as JSON, trajectories without a split) is
// migrated by a server starting on it, on SQLite and PostgreSQL, and nothing is lost: every point
// keeps its values (now rows of metric_values, split train), every trajectory is a train
// trajectory, the snapshot stays, and the run goes on being recorded into.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DataSource, type DataSourceOptions } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { migrations } from '../src/db/migrations';
import { ArtRecords1796065000000 } from '../src/db/migrations/1796065000000-art-records';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { startServer, type TestServer } from './helpers/server';
import { ArtTrajectories, GetRun, ListRuns, RecordSplitMetrics, SplitHistory } from './operations';

const released = migrations.slice(0, migrations.indexOf(ArtRecords1796065000000));

/** Writes a run with trajectories and a three-point history in the previous release's layout. */
async function makeReleaseDatabase(options: DataSourceOptions): Promise<string> {
  const ds = await new DataSource({ ...options, entities: [], migrations: released, synchronize: false }).initialize();
  try {
    await ds.runMigrations({ transaction: 'all' });
    const pg = options.type === 'postgres';
    const ph = (n: number) => Array.from({ length: n }, (_, i) => (pg ? `$${i + 1}` : '?')).join(', ');
    const uuid = randomUUID();
    const now = new Date().toISOString();
    const metrics = JSON.stringify({
      total_trajectories: 2,
      avg_reward: 0.5,
      min_reward: 0.25,
      max_reward: 0.75,
      training_loss: 0.1,
      epoch: 0,
      step: 2,
    });
    await ds.query(
      `INSERT INTO training_runs (uuid, status, model_name, project_name, task_description, num_examples, rollouts_per_group, learning_rate, num_epochs, created_at, metrics, config, avg_reward, mode) VALUES (${ph(14)})`,
      [
        uuid,
        'training',
        'Qwen/Qwen2.5-1.5B-Instruct',
        'released',
        'made by the previous release',
        10,
        2,
        1e-5,
        1,
        now,
        metrics,
        '{"k": 1}',
        0.5,
        'tracked',
      ],
    );
    const [{ id }] = await ds.query(`SELECT id FROM training_runs WHERE uuid = ${ph(1)}`, [uuid]);
    for (const [i, reward] of [0.25, 0.75].entries())
      await ds.query(
        `INSERT INTO trajectories (uuid, run_id, task_input, messages, reward, metadata, created_at, step) VALUES (${ph(8)})`,
        [
          randomUUID(),
          id,
          JSON.stringify({ step: 2, input_text: `q${i}`, context: null }),
          JSON.stringify([{ role: 'user', content: `q${i}` }]),
          reward,
          '{}',
          now,
          2,
        ],
      );
    for (const step of [0, 1, 2])
      await ds.query(
        `INSERT INTO metric_points (run_id, step, epoch, total_trajectories, avg_reward, min_reward, max_reward, reward_std, training_loss, ${pg ? '"values"' : '"values"'}, recorded_at) VALUES (${ph(11)})`,
        [
          id,
          step,
          0,
          step === 2 ? 2 : 0,
          step === 2 ? 0.5 : null,
          step === 2 ? 0.25 : null,
          step === 2 ? 0.75 : null,
          step === 2 ? 0.25 : null,
          0.1 * (3 - step),
          JSON.stringify({ 'loss/grad_norm': step + 0.5, lr: 1e-5 }),
          now,
        ],
      );
    return uuid;
  } finally {
    await ds.destroy();
  }
}

function releaseChecks(open: () => { options: DataSourceOptions; databaseUrl: string }) {
  let s: TestServer;
  let runId: string;
  beforeAll(async () => {
    const { options, databaseUrl } = open();
    const uuid = await makeReleaseDatabase(options);
    s = await startServer({ databaseUrl });
    const { runs } = await s.gql(ListRuns, { filter: { projectName: 'released' } });
    expect(runs.edges).toHaveLength(1);
    runId = runs.edges[0].node.id;
    expect((await s.gql(GetRun, { id: runId })).run!.uuid).toBe(uuid);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('keeps every history point with its values, now in split train', async () => {
    const { run } = await s.gql(SplitHistory, { id: runId, split: 'train' });
    expect(run!.metricHistory.map((p) => [p.split, p.step, p.trainingLoss, p.avgReward, p.totalTrajectories])).toEqual([
      ['train', 0, expect.closeTo(0.3, 12), null, 0],
      ['train', 1, expect.closeTo(0.2, 12), null, 0],
      ['train', 2, expect.closeTo(0.1, 12), 0.5, 2],
    ]);
    expect(run!.metricHistory.map((p) => Object.fromEntries(p.values.map((v) => [v.name, v.value])))).toEqual([
      { 'loss/grad_norm': 0.5, lr: 1e-5 },
      { 'loss/grad_norm': 1.5, lr: 1e-5 },
      { 'loss/grad_norm': 2.5, lr: 1e-5 },
    ]);
    expect(run!.metricNames).toEqual([
      { split: 'train', name: null },
      { split: 'train', name: 'loss/grad_norm' },
      { split: 'train', name: 'lr' },
    ]);
  });

  it('keeps every trajectory, now in split train, and the snapshot', async () => {
    const { run } = await s.gql(ArtTrajectories, { id: runId, first: 10 });
    expect(run!.metrics).toMatchObject({ totalTrajectories: 2, avgReward: 0.5, step: 2 });
    expect(run!.trajectories.edges.map((e) => [e.node.split, e.node.step, e.node.reward, e.node.group])).toEqual([
      ['train', 2, 0.25, null],
      ['train', 2, 0.75, null],
    ]);
  });

  it('goes on recording: a val point beside the migrated train one', async () => {
    const res = await s.gql(RecordSplitMetrics, {
      runId,
      split: 'val',
      points: [{ step: 2, values: [{ name: 'val/reward', value: 0.9 }] }],
    });
    expectResult(res.recordMetrics, 'RecordMetricsPayload');
    const { run } = await s.gql(SplitHistory, { id: runId, split: 'val' });
    expect(run!.metricHistory.map((p) => [p.step, p.values])).toEqual([[2, [{ name: 'val/reward', value: 0.9 }]]]);
  });
}

describe('a database made by the previous release, on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-release-'));
  const path = join(dir, 'atelier.sqlite');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  releaseChecks(() => ({ options: { type: 'better-sqlite3', database: path }, databaseUrl: `sqlite:${path}` }));
});

describe.skipIf(!postgresUrl)(postgresSuiteTitle('a database made by the previous release, on PostgreSQL'), () => {
  let fresh: FreshPostgresDatabase;
  beforeAll(async () => {
    fresh = await createPostgresDatabase();
  });
  afterAll(async () => {
    await fresh?.drop();
  });
  releaseChecks(() => ({ options: { type: 'postgres', url: fresh.url }, databaseUrl: fresh.url }));
});
