// The hand-written migrations against the entities, on SQLite and on PostgreSQL: openDatabase()
// migrates a fresh database, the migrated schema is exactly what the entities describe (TypeORM's
// schema builder has nothing left to do), migrations are recorded and never run twice, data
// survives a reopen, SQLite runs in WAL mode, and every index the queries rely on exists with the
// right columns. On PostgreSQL a whole server also runs the main flow end to end.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DatabaseConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db/data-source';
import { TrainingRunEntity } from '../src/db/entities';
import { migrations } from '../src/db/migrations';
import type { ListTrajectoriesQuery } from './gql/graphql';
import { createRun, recordTrajectories, trajectory, transition } from './helpers/builders';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { useTestServer, type TestServer } from './helpers/server';
import { GetRun, ListRuns, ListTrajectories, RecordMetrics, TransitionRun } from './operations';

/** The indexes the queries in src/ use (runs.repo, trajectories.repo, metrics.repo, keyset pages, the pipeline), as named in the migrations. */
const API_INDEXES: Record<string, Array<{ name: string; columns: string[]; unique: boolean }>> = {
  training_runs: [
    { name: 'IDX_training_runs_created', columns: ['created_at', 'id'], unique: false },
    { name: 'IDX_training_runs_avg_reward', columns: ['avg_reward', 'id'], unique: false },
    { name: 'IDX_training_runs_status', columns: ['status', 'created_at'], unique: false },
    { name: 'IDX_training_runs_project', columns: ['project_name', 'created_at'], unique: false },
    { name: 'IDX_training_runs_model', columns: ['model_name', 'created_at'], unique: false },
    { name: 'IDX_training_runs_mode_status', columns: ['mode', 'status', 'id'], unique: false },
    { name: 'IDX_training_runs_group', columns: ['group_name', 'created_at'], unique: false },
  ],
  run_tags: [{ name: 'IDX_run_tags_tag', columns: ['tag', 'run_id'], unique: false }],
  run_summaries: [
    { name: 'UQ_run_summaries_run_name', columns: ['run_id', 'name'], unique: true },
    { name: 'IDX_run_summaries_name_last', columns: ['name', 'last', 'run_id'], unique: false },
  ],
  run_costs: [{ name: 'UQ_run_costs_run_name_step', columns: ['run_id', 'name', 'step'], unique: true }],
  trajectories: [
    { name: 'IDX_trajectories_run_created', columns: ['run_id', 'created_at', 'id'], unique: false },
    { name: 'IDX_trajectories_run_reward', columns: ['run_id', 'reward', 'id'], unique: false },
    { name: 'IDX_trajectories_run_step', columns: ['run_id', 'step', 'id'], unique: false },
    { name: 'IDX_trajectories_run_split_step', columns: ['run_id', 'split', 'step', 'id'], unique: false },
    { name: 'IDX_trajectories_group', columns: ['group_id', 'id'], unique: false },
    { name: 'IDX_trajectories_run_id', columns: ['run_id', 'id'], unique: false },
  ],
  trajectory_groups: [
    {
      name: 'UQ_trajectory_groups_run_split_step_index',
      columns: ['run_id', 'split', 'step', 'group_index'],
      unique: true,
    },
  ],
  metric_values: [
    { name: 'UQ_metric_values_run_split_name_step', columns: ['run_id', 'split', 'name', 'step'], unique: true },
  ],
  checkpoints: [{ name: 'UQ_checkpoints_run_step', columns: ['run_id', 'step'], unique: true }],
  art_import_files: [{ name: 'UQ_art_import_files_run_path', columns: ['run_id', 'path'], unique: true }],
  status_transitions: [{ name: 'IDX_status_transitions_run', columns: ['run_id', 'id'], unique: false }],
  metric_points: [{ name: 'UQ_metric_points_run_split_step', columns: ['run_id', 'split', 'step'], unique: true }],
  task_inputs: [{ name: 'UQ_task_inputs_run_position', columns: ['run_id', 'position'], unique: true }],
  datasets: [
    { name: 'UQ_datasets_uuid', columns: ['uuid'], unique: true },
    { name: 'IDX_datasets_created', columns: ['created_at', 'id'], unique: false },
  ],
  dataset_items: [{ name: 'UQ_dataset_items_dataset_position', columns: ['dataset_id', 'position'], unique: true }],
  gradient_steps: [{ name: 'UQ_gradient_steps_run_step', columns: ['run_id', 'step', 'gradient_step'], unique: true }],
};

/** Tables whose uuid column must be unique (lookups by uuid, idempotent recording). */
const UNIQUE_UUID_TABLES = ['training_runs', 'trajectories'];

interface IndexInfo {
  name: string;
  columns: string[];
  unique: boolean;
}

async function indexesOf(db: Database, table: string): Promise<IndexInfo[]> {
  if (db.kind === 'sqlite') {
    const list: Array<{ name: string; unique: number }> = await db.reader.query(`PRAGMA index_list("${table}")`);
    const out: IndexInfo[] = [];
    for (const idx of list) {
      const cols: Array<{ seqno: number; name: string }> = await db.reader.query(`PRAGMA index_info("${idx.name}")`);
      out.push({
        name: idx.name,
        unique: idx.unique === 1,
        columns: cols.sort((a, b) => a.seqno - b.seqno).map((c) => c.name),
      });
    }
    return out;
  }
  const rows: Array<{ name: string; unique: boolean; columns: string[] }> = await db.reader.query(
    `SELECT i.relname AS name, ix.indisunique AS unique,
            array_agg(a.attname::text ORDER BY k.ord) AS columns
       FROM pg_index ix
       JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_class t ON t.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
       CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE t.relname = $1
      GROUP BY i.relname, ix.indisunique`,
    [table],
  );
  return rows;
}

async function pendingSchemaChanges(db: Database): Promise<string[]> {
  const log = await db.writer.driver.createSchemaBuilder().log();
  return log.upQueries.map((q) => q.query);
}

async function recordedMigrations(db: Database): Promise<Array<{ id: number; timestamp: number; name: string }>> {
  const rows: Array<{ id: number | string; timestamp: number | string; name: string }> = await db.reader.query(
    'SELECT id, timestamp, name FROM migrations ORDER BY id',
  );
  return rows.map((r) => ({ id: Number(r.id), timestamp: Number(r.timestamp), name: r.name }));
}

const expectedMigrationNames = migrations.map((M) => new M().name);

/** The checks every backend must pass; `target()` gives a config for one fresh, empty database. */
function migrationChecks(kind: Database['kind'], target: () => DatabaseConfig) {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase(target());
  });
  afterAll(async () => {
    await db?.close();
  });

  it('openDatabase() migrated the fresh database and recorded each migration once', async () => {
    expect(db.kind).toBe(kind);
    expect(expectedMigrationNames.length).toBeGreaterThan(0);
    const recorded = await recordedMigrations(db);
    expect(recorded.map((r) => r.name)).toEqual(expectedMigrationNames);
    // The timestamp TypeORM records is the one at the end of the class name.
    expect(recorded.map((r) => r.timestamp)).toEqual(
      expectedMigrationNames.map((n) => Number(/(\d{13})$/.exec(n)?.[1])),
    );
    expect(await db.writer.showMigrations()).toBe(false);
  });

  it('has exactly the schema the entities describe (the schema builder has no queries to run)', async () => {
    const pending = await pendingSchemaChanges(db);
    expect(
      pending,
      `the entities and the migrated ${kind} schema disagree; the schema builder would run:\n${pending.join(';\n')}`,
    ).toEqual([]);
  });

  it('has every index the queries rely on, with the migration names and columns', async () => {
    for (const [table, wanted] of Object.entries(API_INDEXES)) {
      const actual = await indexesOf(db, table);
      for (const w of wanted) {
        const found = actual.find((a) => a.name === w.name);
        expect(
          found,
          `${kind}: index ${w.name} on ${table} is missing; ${table} has ${JSON.stringify(actual)}`,
        ).toBeDefined();
        expect({ columns: found!.columns, unique: found!.unique }, `${kind}: index ${w.name}`).toEqual({
          columns: w.columns,
          unique: w.unique,
        });
      }
    }
    for (const table of UNIQUE_UUID_TABLES) {
      const actual = await indexesOf(db, table);
      expect(
        actual.some((a) => a.unique && a.columns.length === 1 && a.columns[0] === 'uuid'),
        `${kind}: ${table}.uuid has no unique index; ${table} has ${JSON.stringify(actual)}`,
      ).toBe(true);
    }
  });

  it('opening the same database again runs nothing new and keeps its data', async () => {
    const uuid = randomUUID();
    await db.writes.run((tx) =>
      tx.em.getRepository(TrainingRunEntity).insert({
        uuid,
        status: 'pending',
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'reopen',
        trainedModelName: null,
        taskDescription: 'survives a reopen',
        numExamples: 100,
        rolloutsPerGroup: 4,
        learningRate: 1e-5,
        numEpochs: 1,
        maxSteps: null,
        systemPrompt: null,
        createdAt: new Date().toISOString(),
        startedAt: null,
        completedAt: null,
        metrics: null,
        error: null,
        config: '{}',
        avgReward: null,
      }),
    );
    const before = await recordedMigrations(db);
    await db.close();

    db = await openDatabase(target());
    expect(await recordedMigrations(db)).toEqual(before);
    expect(await db.writer.showMigrations()).toBe(false);
    expect(await db.writer.runMigrations()).toEqual([]);
    const row = await db.reader.getRepository(TrainingRunEntity).findOneBy({ uuid });
    expect(row).toMatchObject({ uuid, projectName: 'reopen', taskDescription: 'survives a reopen', config: '{}' });
    expect(await pendingSchemaChanges(db)).toEqual([]);
  });
}

describe('migrations on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-migrations-'));
  const path = join(dir, 'atelier.sqlite');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  migrationChecks('sqlite', () => ({ kind: 'sqlite', path }));

  it('keeps the file in WAL mode, for the writer, the reader and any other connection', async () => {
    const db = await openDatabase({ kind: 'sqlite', path });
    try {
      expect(await db.writer.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await db.reader.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      expect(await db.writer.query('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
      const other = new Sqlite(path, { readonly: true });
      try {
        expect(other.pragma('journal_mode', { simple: true })).toBe('wal');
      } finally {
        other.close();
      }
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!postgresUrl)(postgresSuiteTitle('migrations on PostgreSQL'), () => {
  let fresh: FreshPostgresDatabase;
  beforeAll(async () => {
    fresh = await createPostgresDatabase();
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  migrationChecks('postgres', () => ({ kind: 'postgres', url: fresh.url }));
});

/** The main flow through GraphQL, as any client would drive it; the same on every backend. */
async function mainFlow(s: TestServer, kind: Database['kind']) {
  expect(s.app.db.kind).toBe(kind);
  const run = await createRun(s, { projectName: 'e2e', config: { team: 'rl', nested: { a: [1, 2] } }, maxSteps: 5 });
  expect(run).toMatchObject({
    status: 'PENDING',
    config: { team: 'rl', nested: { a: [1, 2] } },
    maxSteps: 5,
    metrics: null,
  });

  await transition(s, run.id, 'GENERATING');
  const collecting = await transition(s, run.id, 'COLLECTING');
  expect(collecting.status).toBe('COLLECTING');
  expect(collecting.startedAt).not.toBeNull();

  const rewards = [0.2, null, 0.9, 0.5, null, 0.7, 0.5];
  const batch = rewards.map((r, i) => trajectory(i < 4 ? 0 : 1, r, { metadata: { i } }));
  const recorded = await recordTrajectories(s, run.id, batch);
  expect(recorded).toMatchObject({ recorded: rewards.length, duplicates: 0 });
  // Idempotent by uuid.
  expect(await recordTrajectories(s, run.id, batch)).toMatchObject({ recorded: 0, duplicates: rewards.length });

  // Reward, descending, two at a time: the non-null rewards, then the NULLs.
  const byId = new Map(batch.map((t, i) => [t.uuid!, i]));
  const seen: Array<{ i: number; reward: number | null }> = [];
  let after: string | null | undefined = undefined;
  let pages = 0;
  for (;;) {
    const res: ListTrajectoriesQuery = await s.gql(ListTrajectories, {
      runId: run.id,
      orderBy: { field: 'REWARD', direction: 'DESC' },
      first: 2,
      after,
    });
    expect(res.trajectories.totalCount).toBe(rewards.length);
    seen.push(...res.trajectories.edges.map((e) => ({ i: byId.get(e.node.uuid)!, reward: e.node.reward ?? null })));
    pages++;
    if (!res.trajectories.pageInfo.hasNextPage) break;
    after = res.trajectories.pageInfo.endCursor;
    expect(pages).toBeLessThan(10);
  }
  expect(pages).toBe(4);
  expect(seen.map((x) => x.reward)).toEqual([0.9, 0.7, 0.5, 0.5, 0.2, null, null]);
  // Ties and NULLs go by id in the direction of the sort.
  expect(seen.filter((x) => x.reward === 0.5).map((x) => x.i)).toEqual([6, 3]);
  expect(seen.filter((x) => x.reward === null).map((x) => x.i)).toEqual([4, 1]);

  // Ascending keeps the NULLs last as well; backwards from the end gives the same order.
  const asc = await s.gql(ListTrajectories, {
    runId: run.id,
    orderBy: { field: 'REWARD', direction: 'ASC' },
    first: 10,
  });
  expect(asc.trajectories.edges.map((e) => e.node.reward ?? null)).toEqual([0.2, 0.5, 0.5, 0.7, 0.9, null, null]);
  expect(asc.trajectories.edges.map((e) => byId.get(e.node.uuid))).toEqual([0, 3, 6, 5, 2, 1, 4]);
  const backwards: number[] = [];
  let before: string | null | undefined = undefined;
  for (let n = 0; n < 10; n++) {
    const res: ListTrajectoriesQuery = await s.gql(ListTrajectories, {
      runId: run.id,
      orderBy: { field: 'REWARD', direction: 'ASC' },
      last: 3,
      before,
    });
    backwards.unshift(...res.trajectories.edges.map((e) => byId.get(e.node.uuid)!));
    if (!res.trajectories.pageInfo.hasPreviousPage) break;
    before = res.trajectories.pageInfo.startCursor;
  }
  expect(backwards).toEqual([0, 3, 6, 5, 2, 1, 4]);
  const step1 = await s.gql(ListTrajectories, { runId: run.id, filter: { step: 1 } });
  expect(step1.trajectories.edges.map((e) => e.node.reward ?? null)).toEqual([null, 0.7, 0.5]);
  const first = asc.trajectories.edges[0].node;
  expect(first).toMatchObject({
    taskInput: { step: 0, inputText: 'input for step 0', context: { source: 'test' } },
    metadata: { i: 0 },
  });
  expect(first.messages).toHaveLength(3);

  // Metrics and the runs list ordered by avgReward, runs without one last.
  const metrics = await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 0, epoch: 0, trainingLoss: 0.25 }] });
  expectResult(metrics.recordMetrics, 'RecordMetricsPayload');
  const other = await createRun(s, { projectName: 'e2e' });
  const runs = await s.gql(ListRuns, {
    filter: { projectName: 'e2e' },
    orderBy: { field: 'AVG_REWARD', direction: 'DESC' },
    first: 1,
  });
  expect(runs.runs.totalCount).toBe(2);
  expect(runs.runs.edges.map((e) => e.node.id)).toEqual([run.id]);
  expect(runs.runs.edges[0].node.metrics).toMatchObject({
    avgReward: expect.closeTo((0.2 + 0.9 + 0.5) / 3, 10),
    step: 0,
  });
  const rest = await s.gql(ListRuns, {
    filter: { projectName: 'e2e' },
    orderBy: { field: 'AVG_REWARD', direction: 'DESC' },
    first: 5,
    after: runs.runs.pageInfo.endCursor,
  });
  expect(rest.runs.edges.map((e) => e.node.id)).toEqual([other.id]);

  // The rest of the lifecycle, a FAILED run with its error, and the audit trail.
  for (const to of ['SCORING', 'TRAINING', 'COMPLETED'] as const) await transition(s, run.id, to);
  await transition(s, other.id, 'GENERATING');
  const failed = await s.gql(TransitionRun, { runId: other.id, to: 'FAILED', reason: 'backend out of memory' });
  expect(failed.transitionRun).toMatchObject({
    __typename: 'TransitionRunPayload',
    run: { status: 'FAILED', error: 'backend out of memory' },
  });
  const got = (await s.gql(GetRun, { uuid: run.uuid })).run!;
  expect(got).toMatchObject({
    status: 'COMPLETED',
    metrics: { totalTrajectories: rewards.length, trainingLoss: 0.25 },
  });
  expect(got.completedAt).not.toBeNull();
  expect(got.statusHistory.map((h) => `${h.from}>${h.to}`)).toEqual([
    'null>PENDING',
    'PENDING>GENERATING',
    'GENERATING>COLLECTING',
    'COLLECTING>SCORING',
    'SCORING>TRAINING',
    'TRAINING>COMPLETED',
  ]);
  const failedRuns = await s.gql(ListRuns, { filter: { status: ['FAILED'], projectName: 'e2e' } });
  expect(failedRuns.runs.edges.map((e) => e.node.id)).toEqual([other.id]);
}

const FLOW = 'serves create → transition → record trajectories → list, with reward pages putting nulls last';

describe('the whole app on SQLite (the reference for the PostgreSQL run)', () => {
  const s = useTestServer();

  it(FLOW, () => mainFlow(s, 'sqlite'));
});

describe.skipIf(!postgresUrl)(postgresSuiteTitle('the whole app on PostgreSQL'), () => {
  let fresh: FreshPostgresDatabase;
  beforeAll(async () => {
    fresh = await createPostgresDatabase();
  });
  afterAll(() => fresh?.drop());
  const s = useTestServer(() => ({ databaseUrl: fresh.url }));

  it(FLOW, () => mainFlow(s, 'postgres'));
});
