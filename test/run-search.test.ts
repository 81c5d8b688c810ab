// Finding runs as W&B and MLflow users do, through the API on a real server, on SQLite and on
// PostgreSQL: a run's name, notes, tags and group (set at creation, changed by updateRun with the
// write scope), its summary metrics (last, min, max per split, kept as history arrives), the search
// language of runs(filter: { query }) with its refusals, and ordering by a metric across pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { graphql } from './gql';
import { createRun, recordTrajectories, trajectory } from './helpers/builders';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { bearer, startServer, useTestServer, type TestServer } from './helpers/server';

const UpdateRun = graphql(`
  mutation SearchUpdateRun($id: ID!, $name: String, $notes: String, $tags: [String!], $group: String) {
    updateRun(id: $id, name: $name, notes: $notes, tags: $tags, group: $group) {
      __typename
      ... on UpdateRunPayload { run { id name notes tags group } }
      ... on ValidationError { issues { field rule message } }
      ... on Error { message }
    }
  }
`);

const RunIdentity = graphql(`
  query SearchRunIdentity($id: ID!) {
    run(id: $id) { id name notes tags group trainedModelName }
  }
`);

const RecordSplit = graphql(`
  mutation SearchRecordSplit($runId: ID!, $split: String!, $points: [MetricPointInput!]!) {
    recordMetrics(runId: $runId, split: $split, points: $points) {
      __typename
      ... on Error { message }
    }
  }
`);

const Summary = graphql(`
  query SearchSummary($id: ID!, $split: String) {
    run(id: $id) { summary(split: $split) { split name last min max step } }
  }
`);

const Search = graphql(`
  query SearchRuns($query: String, $first: Int, $after: String, $orderBy: TrainingRunOrder) {
    runs(filter: { query: $query }, first: $first, after: $after, orderBy: $orderBy) {
      totalCount
      edges { node { id name } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

type Server = TestServer;

async function record(
  s: Server,
  runId: string,
  split: string,
  points: Array<{ step: number; values: Record<string, number> }>,
) {
  const res = await s.gql(RecordSplit, {
    runId,
    split,
    points: points.map((p) => ({
      step: p.step,
      values: Object.entries(p.values).map(([name, value]) => ({ name, value })),
    })),
  });
  expect(res.recordMetrics.__typename).toBe('RecordMetricsPayload');
}

async function names(s: Server, query: string, extra: { orderBy?: unknown; first?: number } = {}) {
  const res = await s.request(Search, { query, first: extra.first ?? 100, orderBy: extra.orderBy as never });
  if (res.errors?.length) throw new Error(JSON.stringify(res.errors));
  return res.data!.runs.edges.map((e) => e.node.name).sort();
}

function searchSuite(title: string, server: () => Server) {
  describe(title, () => {
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      const s = server();
      // Five runs: configs, tags and groups differ; val/reward ends where `val` says.
      const specs: Array<{
        name: string;
        tags: string[];
        group: string | null;
        lr: number;
        val: number[];
        project: string;
        notes: string | null;
      }> = [
        {
          name: 'alpha',
          tags: ['baseline'],
          group: 'sweep-1',
          lr: 1e-5,
          val: [0.5, 0.7],
          project: 'support',
          notes: 'The **first** try',
        },
        {
          name: 'beta',
          tags: ['baseline', 'lora'],
          group: 'sweep-1',
          lr: 5e-6,
          val: [0.8, 0.9],
          project: 'support',
          notes: null,
        },
        {
          name: 'gamma',
          tags: ['lora'],
          group: 'sweep-2',
          lr: 2e-5,
          val: [0.9, 0.4],
          project: 'ranking',
          notes: 'uses a bigger judge',
        },
        { name: 'delta', tags: [], group: null, lr: 3e-5, val: [], project: 'ranking', notes: null },
        {
          name: 'epsilon',
          tags: ['baseline'],
          group: 'sweep-2',
          lr: 1e-4,
          val: [0.65],
          project: 'support',
          notes: null,
        },
      ];
      for (const spec of specs) {
        const run = await createRun(s, {
          name: spec.name,
          tags: spec.tags,
          group: spec.group,
          notes: spec.notes,
          learningRate: spec.lr,
          projectName: spec.project,
          config: {
            optimizer: spec.name === 'gamma' ? 'sgd' : 'adamw',
            batch: spec.name === 'alpha' ? 8 : 16,
            lora: { rank: spec.tags.includes('lora') ? 8 : 0 },
          },
        });
        ids[spec.name] = run.id;
        if (spec.val.length)
          await record(
            s,
            run.id,
            'val',
            spec.val.map((v, step) => ({ step, values: { 'val/reward': v } })),
          );
      }
    });

    it('sets name, notes, tags and group at creation; the name defaults to trainedModelName', async () => {
      const s = server();
      const res = await s.gql(RunIdentity, { id: ids.alpha });
      expect(res.run).toMatchObject({
        name: 'alpha',
        notes: 'The **first** try',
        tags: ['baseline'],
        group: 'sweep-1',
      });
      const unnamed = await createRun(s, { trainedModelName: 'agent-007', projectName: 'unnamed' });
      expect((await s.gql(RunIdentity, { id: unnamed.id })).run).toMatchObject({
        name: 'agent-007',
        tags: [],
        group: null,
      });
    });

    it('updateRun changes only what it is given; null clears; tags replace', async () => {
      const s = server();
      const run = await createRun(s, { name: 'before', tags: ['a', 'b'], group: 'g', notes: 'n', projectName: 'edit' });
      const renamed = await s.gql(UpdateRun, { id: run.id, name: 'after', tags: ['c', 'c', 'a'] });
      expect(expectResult(renamed.updateRun, 'UpdateRunPayload').run).toMatchObject({
        name: 'after',
        notes: 'n',
        group: 'g',
        tags: ['a', 'c'],
      });
      const cleared = await s.gql(UpdateRun, { id: run.id, notes: null, group: null, tags: [] });
      expect(expectResult(cleared.updateRun, 'UpdateRunPayload').run).toMatchObject({
        name: 'after',
        notes: null,
        group: null,
        tags: [],
      });
      const bad = await s.gql(UpdateRun, { id: run.id, tags: ['has space'] });
      const issues = expectResult(bad.updateRun, 'ValidationError').issues;
      expect(issues[0].field).toMatch(/^tags/);
      expect((await s.gql(RunIdentity, { id: run.id })).run?.tags).toEqual([]);
      expect(await names(s, 'after')).toEqual(['after']);
    });

    it('keeps last, min and max of every metric per split as points arrive, rewards of trajectories included', async () => {
      const s = server();
      const summary = async (split?: string) => (await s.gql(Summary, { id: ids.gamma, split })).run!.summary;
      expect(await summary('val')).toEqual([
        { split: 'val', name: 'val/reward', last: 0.4, min: 0.4, max: 0.9, step: 1 },
      ]);
      // An older step arriving late changes min/max but not last.
      await record(s, ids.gamma, 'val', [{ step: 5, values: { 'val/reward': 0.1, accuracy: 0.5 } }]);
      expect(await summary('val')).toEqual([
        { split: 'val', name: 'val/accuracy', last: 0.5, min: 0.5, max: 0.5, step: 5 },
        { split: 'val', name: 'val/reward', last: 0.1, min: 0.1, max: 0.9, step: 5 },
      ]);
      // Train rewards come from the stored trajectories, whichever arrives first.
      await recordTrajectories(s, ids.gamma, [trajectory(0, 0.2), trajectory(0, 0.4), trajectory(1, 0.9)]);
      await record(s, ids.gamma, 'train', [
        { step: 0, values: {} },
        { step: 1, values: {} },
      ]);
      const train = await summary('train');
      expect(train.find((m) => m.name === 'train/reward')).toMatchObject({ last: 0.9, max: 0.9, step: 1 });
      expect(train.find((m) => m.name === 'train/reward')!.min).toBeCloseTo(0.3, 10);
      expect(train.map((m) => m.name)).toContain('train/reward_std_dev');
      // A trajectory arriving after its point changes the point's rewards, and the summary with them.
      await recordTrajectories(s, ids.gamma, [trajectory(1, 0.1)]);
      expect((await summary('train')).find((m) => m.name === 'train/reward')).toMatchObject({ last: 0.5, max: 0.5 });
    });

    it('finds runs by tag, config and metric, as the issue asks', async () => {
      const s = server();
      expect(await names(s, 'tag = baseline AND config.learning_rate >= 1e-5 AND metrics.val/reward > 0.6')).toEqual([
        'alpha',
        'epsilon',
      ]);
      expect(await names(s, 'tag=baseline config.learning_rate>=1e-5 metrics.val/reward>0.6')).toEqual([
        'alpha',
        'epsilon',
      ]);
    });

    it('searches status, project, group, free text, config JSON, OR, IN, NOT and parentheses', async () => {
      const s = server();
      const all = ['alpha', 'beta', 'delta', 'epsilon', 'gamma'];
      expect((await names(s, 'status = pending')).filter((n) => all.includes(n!))).toEqual(all);
      expect(await names(s, 'project ~ supp AND status = PENDING')).toEqual(['alpha', 'beta', 'epsilon']);
      expect(await names(s, 'group = sweep-2')).toEqual(['epsilon', 'gamma']);
      expect(await names(s, 'group IN (sweep-1, "sweep-2") AND tag = lora')).toEqual(['beta', 'gamma']);
      expect(await names(s, 'tag != baseline AND project IN (support, ranking)')).toEqual(['delta', 'gamma']);
      expect(await names(s, 'first')).toEqual(['alpha']); // notes
      expect(await names(s, '"BIGGER judge"')).toEqual(['gamma']);
      expect(await names(s, 'config.optimizer = sgd')).toEqual(['gamma']);
      expect(await names(s, "config.optimizer != 'sgd' AND project = ranking")).toEqual(['delta']);
      expect(await names(s, 'config.batch < 10')).toEqual(['alpha']);
      // A number is not text: "8" as a string does not equal the number 8.
      expect(await names(s, 'config.batch = "8"')).toEqual([]);
      expect(await names(s, 'config.lora.rank >= 8')).toEqual(['beta', 'gamma']);
      expect(await names(s, '(tag = lora OR group = sweep-1) AND NOT name = beta')).toEqual(['alpha', 'gamma']);
      expect(await names(s, 'metrics.val/reward >= 0.9 OR metrics.val/reward < 0.2')).toEqual(['beta', 'gamma']);
      expect(await names(s, 'NOT metrics.val/reward > 0 AND project = ranking')).toEqual(['delta']);
    });

    it('combines several tag and metric conditions with the others in any order, counts included', async () => {
      // Several tag/metric sets in one AND are compiled as one INTERSECT, moved before the other
      // terms (run-query-sql.ts): the answers, the totals and the parameters' order must not change.
      // gamma's val/reward is 0.1 by now (the summary test above).
      const s = server();
      const found = async (query: string) => {
        const res = await s.request(Search, { query, first: 100 });
        if (res.errors?.length) throw new Error(JSON.stringify(res.errors));
        const list = res.data!.runs.edges.map((e) => e.node.name).sort();
        expect(res.data!.runs.totalCount, query).toBe(list.length);
        return list;
      };
      expect(
        await found('tag = baseline AND config.optimizer = adamw AND tag = lora AND metrics.val/reward > 0.5'),
      ).toEqual(['beta']);
      expect(
        await found(
          'config.batch = 16 AND tag IN (lora, baseline) AND project = support AND metrics.val/reward != 0.7 AND tag ~ ASE',
        ),
      ).toEqual(['beta', 'epsilon']);
      expect(
        await found('tag != lora AND metrics.val/reward < 0.8 AND tag = baseline AND config.learning_rate < 1e-4'),
      ).toEqual(['alpha']);
      expect(
        await found('(tag = baseline AND metrics.val/reward > 0.6) OR (tag = lora AND metrics.val/reward < 0.2)'),
      ).toEqual(['alpha', 'beta', 'epsilon', 'gamma']);
      expect(
        await found('NOT (tag = baseline AND metrics.val/reward > 0.6) AND project IN (support, ranking)'),
      ).toEqual(['delta', 'gamma']);
      expect(await found('first tag = baseline metrics.val/reward > 0.6 tag = nothing-has-this')).toEqual([]);
    });

    it('refuses what it does not know with the position and what was expected, changing nothing', async () => {
      const s = server();
      const cases: Array<[string, string, RegExp]> = [
        ['tag = ', 'syntax', /at character 7: expected a value after '=', found the end of the query/],
        ['colour = red', 'unknown_field', /at character 1: expected a field \(status, project, tag/],
        ['metrics.reward > 1', 'unknown_field', /metrics\.<split>\/<name>/],
        ['metrics.val/reward > high', 'invalid_value', /expected a number/],
        ['status = running', 'invalid_value', /expected a status \(pending, generating/],
        ['(tag = a', 'syntax', /at character 9: expected '\)'/],
        ['tag = a)', 'syntax', /at character 8:/],
        ['"open', 'syntax', /at character 1: this string has no closing "/],
        ['config.lr', 'syntax', /at character 10: expected an operator/],
        ['tag > a', 'syntax', /at character 5: expected one of = != ~ or IN after tag/],
        ['a AND OR b', 'syntax', /at character 7: expected a field comparison/],
      ];
      for (const [query, rule, message] of cases) {
        const res = await s.request(Search, { query });
        expect(res.errors?.length, query).toBe(1);
        const err = res.errors![0] as {
          message: string;
          extensions?: { code?: string; issues?: Array<{ field: string; rule: string }> };
        };
        expect(err.extensions?.code, query).toBe('BAD_USER_INPUT');
        expect(err.message, query).toMatch(/^filter\.query: /);
        expect(err.message, query).toMatch(message);
        expect(err.extensions?.issues?.[0], query).toMatchObject({ field: 'filter.query', rule });
      }
      expect(await names(s, 'tag = baseline')).toEqual(['alpha', 'beta', 'epsilon']); // still serving
    });

    it('orders by a metric, runs without it last, across keyset pages', async () => {
      const s = server();
      const seen: string[] = [];
      let after: string | null | undefined;
      const orderBy = { field: 'METRIC', metric: 'val/reward', direction: 'DESC' };
      for (let page = 0; page < 10; page++) {
        const res = await s.gql(Search, {
          query: 'project IN (support, ranking)',
          first: 2,
          after,
          orderBy: orderBy as never,
        });
        seen.push(...res.runs.edges.map((e) => e.node.name!));
        if (!res.runs.pageInfo.hasNextPage) break;
        after = res.runs.pageInfo.endCursor;
      }
      // beta 0.9, alpha 0.7, epsilon 0.65, gamma 0.1 (its late step 5), then delta without one.
      expect(seen).toEqual(['beta', 'alpha', 'epsilon', 'gamma', 'delta']);
      const bad = await s.request(Search, { query: '', orderBy: { field: 'METRIC', direction: 'DESC' } as never });
      expect(bad.errors?.[0].message).toMatch(/metric/);
    });
  });
}

const sqlite = useTestServer({ keys: { writer: 'write', reader: 'read' } });

describe('on SQLite', () => {
  // The suite talks to a server that requires keys: wrap gql with the writer's key.
  const withKey = (): Server => ({
    ...sqlite,
    gql: (doc, variables) => sqlite.gql(doc, variables, bearer(sqlite.keys.writer)),
    request: (doc, variables) => sqlite.request(doc, variables, bearer(sqlite.keys.writer)),
  });
  searchSuite('run identity, summaries and search', withKey);

  it('updateRun needs the write scope', async () => {
    const run = await createRun(withKey(), { name: 'guarded', projectName: 'scopes' });
    const res = await sqlite.request(UpdateRun, { id: run.id, name: 'x' }, bearer(sqlite.keys.reader));
    expect(res.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const after = await sqlite.gql(RunIdentity, { id: run.id }, bearer(sqlite.keys.reader));
    expect(after.run?.name).toBe('guarded');
  });
});

describe.skipIf(!postgresUrl)(postgresSuiteTitle('on PostgreSQL'), () => {
  let pg: FreshPostgresDatabase;
  let server: TestServer;
  beforeAll(async () => {
    pg = await createPostgresDatabase();
    server = await startServer({ databaseUrl: pg.url });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await pg?.drop();
  });
  searchSuite('run identity, summaries and search', () => server);
});

describe('the run identity migration', () => {
  it('summarizes the history stored before it, as the running code keeps it', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { openDatabase } = await import('../src/db/data-source');
    const dir = mkdtempSync(`${tmpdir()}/atelier-summary-migration-`);
    const db = await openDatabase({ kind: 'sqlite', path: `${dir}/m.sqlite` });
    try {
      // Back to the schema before it (undoing later migrations first), with history stored there; then the migrations run again.
      for (let undone = ''; undone !== 'RunIdentity1796075000000';) {
        const [last]: Array<{ name: string }> = await db.writer.query(
          'SELECT name FROM migrations ORDER BY id DESC LIMIT 1',
        );
        await db.writer.undoLastMigration({ transaction: 'each' });
        undone = last.name;
      }
      await db.writer.query(
        `INSERT INTO training_runs (id, uuid, status, model_name, project_name, task_description, num_examples, rollouts_per_group, learning_rate, num_epochs, created_at, config, mode)
         VALUES (1, '00000000-0000-4000-8000-000000000001', 'completed', 'm', 'p', 't', 1, 2, 0.00001, 1, '2026-01-01T00:00:00+00:00', '{}', 'tracked')`,
      );
      for (const [step, reward, loss] of [
        [0, 0.2, 1.0],
        [1, 0.6, 0.5],
        [2, 0.4, null],
      ] as const)
        await db.writer.query(
          `INSERT INTO metric_points (run_id, split, step, epoch, total_trajectories, avg_reward, training_loss, recorded_at) VALUES (1, 'train', ?, 0, 2, ?, ?, '2026-01-01T00:00:00+00:00')`,
          [step, reward, loss],
        );
      for (const [step, value] of [
        [0, 0.7],
        [3, 0.9],
      ] as const)
        await db.writer.query(
          `INSERT INTO metric_values (run_id, split, step, name, value) VALUES (1, 'val', ?, 'val/reward', ?)`,
          [step, value],
        );
      await db.writer.runMigrations({ transaction: 'each' });
      const rows: Array<Record<string, unknown>> = await db.writer.query(
        'SELECT split, name, source, step, last, min, max FROM run_summaries WHERE run_id = 1 ORDER BY name',
      );
      expect(rows).toEqual([
        { split: 'train', name: 'train/loss', source: 'points', step: 1, last: 0.5, min: 0.5, max: 1 },
        { split: 'train', name: 'train/reward', source: 'points', step: 2, last: 0.4, min: 0.2, max: 0.6 },
        { split: 'val', name: 'val/reward', source: 'values', step: 3, last: 0.9, min: 0.7, max: 0.9 },
      ]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
