// The runs list reads only the columns its selection needs (runs.graphql.ts): whatever a client asks
// for, through fragments, inline fragments, aliases, fields other modules add to TrainingRun, or the
// dashboard's own query, each run in the list answers exactly what run(id:) answers for it. On SQLite
// and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RUNS, RUNS_SEARCH } from '../web/src/queries';
import { advanceTo, createRun, recordTrajectories, trajectory } from './helpers/builders';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { useTestServer, type ServerOptions, type TestServer } from './helpers/server';

const EVERY_FIELD = `id databaseId uuid name notes tags group status modelName projectName trainedModelName taskDescription numExamples
  rolloutsPerGroup learningRate numEpochs maxSteps systemPrompt createdAt startedAt completedAt
  metrics { step epoch totalTrajectories avgReward minReward maxReward trainingLoss } error config mode currentStep
  totalSteps backend leaseOwner leaseExpiresAt queuePosition statusHistory { from to reason } taskInputs { inputText step }`;

function suite(options: () => ServerOptions) {
  const s: TestServer = useTestServer(options);

  async function data(query: string, variables: Record<string, unknown> = {}): Promise<any> {
    const res = await s.request(query, variables);
    expect(res.errors).toBeUndefined();
    return res.data;
  }

  /** The list's nodes, each next to run(id:)'s answer to the same selection. */
  async function listAndSingles(selection: string, fragments = '') {
    const list = await data(`query { runs(first: 50) { edges { node { ${selection} } } } } ${fragments}`);
    const nodes = list.runs.edges.map((e: { node: unknown }) => e.node);
    const ids = (await data('{ runs(first: 50) { edges { node { id } } } }')).runs.edges.map(
      (e: { node: { id: string } }) => e.node.id,
    );
    const singles = [];
    for (const id of ids)
      singles.push((await data(`query($id: ID!) { run(id: $id) { ${selection} } } ${fragments}`, { id })).run);
    return { nodes, singles };
  }

  beforeAll(async () => {
    const plain = await createRun(s, { projectName: 'sel-a', taskDescription: 'plain' });
    const rich = await createRun(s, {
      projectName: 'sel-b',
      maxSteps: 7,
      numEpochs: 3,
      systemPrompt: 'be brief',
      trainedModelName: 'sel-model',
      config: { team: 'rl', nested: { k: [1, 2] } },
    });
    await advanceTo(s, rich.id, 'TRAINING');
    await recordTrajectories(s, rich.id, [trajectory(0, 0.25), trajectory(0, 0.75)]);
    const named = await data(
      `mutation($id: ID!) { updateRun(id: $id, name: "named", tags: ["b", "a"], group: "g1", notes: "n") { __typename } }`,
      { id: rich.id },
    );
    expect(named.updateRun.__typename).toBe('UpdateRunPayload');
    const metrics = await data(
      `mutation($id: ID!) { recordMetrics(runId: $id, points: [{ step: 0, values: [{ name: "train/reward", value: 0.5 }] }]) { __typename } }`,
      { id: rich.id },
    );
    expect(metrics.recordMetrics.__typename).toBe('RecordMetricsPayload');
    const failed = await createRun(s, { projectName: 'sel-c' });
    await advanceTo(s, failed.id, 'FAILED');
    expect(plain.id).toBeTruthy();
  });

  it("the dashboard's runs query answers what run(id:) answers, run by run", async () => {
    const res = await data(RUNS, { first: 50 });
    const summary = RUNS.slice(RUNS.indexOf('edges { node {') + 'edges { node {'.length, RUNS.lastIndexOf('} }'));
    const { singles } = await listAndSingles(summary);
    expect(res.runs.totalCount).toBe(3);
    expect(res.runs.edges.map((e: { node: unknown }) => e.node)).toEqual(singles);
    expect(singles.find((r: any) => r.projectName === 'sel-b')).toMatchObject({
      totalSteps: 7,
      status: 'TRAINING',
      metrics: { totalTrajectories: 2 },
    });
  });

  it("the dashboard's runs search (name, tags, group, summary) answers what run(id:) answers, run by run", async () => {
    const variables = { filter: {}, orderBy: { field: 'CREATED_AT', direction: 'DESC' }, first: 50, after: null };
    const res = await data(RUNS_SEARCH, variables);
    const inner = RUNS_SEARCH.slice(
      RUNS_SEARCH.indexOf('edges { node {') + 'edges { node {'.length,
      RUNS_SEARCH.lastIndexOf('} }'),
    );
    const { singles } = await listAndSingles(inner);
    expect(res.runs.edges.map((e: { node: unknown }) => e.node)).toEqual(singles);
    expect(singles.find((r: any) => r.projectName === 'sel-b')).toMatchObject({
      name: 'named',
      tags: ['a', 'b'],
      group: 'g1',
      summary: [{ split: 'train', name: 'train/reward', last: 0.5 }],
    });
    expect(singles.find((r: any) => r.projectName === 'sel-a')).toMatchObject({ name: null, tags: [], group: null });
  });

  it('every field of TrainingRun, asked for at once', async () => {
    const { nodes, singles } = await listAndSingles(EVERY_FIELD);
    expect(nodes).toEqual(singles);
    expect(nodes.find((r: any) => r.projectName === 'sel-b')).toMatchObject({
      maxSteps: 7,
      systemPrompt: 'be brief',
      trainedModelName: 'sel-model',
      config: { team: 'rl', nested: { k: [1, 2] } },
    });
  });

  it('through fragments, inline fragments and aliases', async () => {
    const selection = `...A ... on TrainingRun { name: projectName when: createdAt } ... on Node { id } __typename`;
    const fragments = `fragment A on TrainingRun { ...B steps: totalSteps } fragment B on TrainingRun { status maxSteps numEpochs metrics { avgReward } }`;
    const { nodes, singles } = await listAndSingles(selection, fragments);
    expect(nodes).toEqual(singles);
    expect(nodes.every((n: any) => n.__typename === 'TrainingRun' && n.name && n.when && n.status)).toBe(true);
  });

  it('with fields other modules add to TrainingRun (metric history, trajectories)', async () => {
    const selection = `projectName metricHistory(maxPoints: 10) { step avgReward } trajectories(first: 5) { totalCount edges { node { reward } } }`;
    const { nodes, singles } = await listAndSingles(selection);
    expect(nodes).toEqual(singles);
    expect(nodes.find((r: any) => r.projectName === 'sel-b').trajectories.totalCount).toBe(2);
  });

  it('with @include and @skip, either way', async () => {
    for (const flag of [true, false]) {
      const query = `query($f: Boolean!) { runs(first: 50) { edges { node { projectName maxSteps @include(if: $f) config @skip(if: $f) } } } }`;
      const nodes = (await data(query, { f: flag })).runs.edges.map((e: { node: any }) => e.node);
      const rich = nodes.find((n: any) => n.projectName === 'sel-b');
      expect(rich).toEqual(
        flag
          ? { projectName: 'sel-b', maxSteps: 7 }
          : { projectName: 'sel-b', config: { team: 'rl', nested: { k: [1, 2] } } },
      );
    }
  });
}

describe('runs list selections on SQLite', () => suite(() => ({})));

describe.skipIf(!postgresUrl)(postgresSuiteTitle('runs list selections on PostgreSQL'), () => {
  let db: FreshPostgresDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
  });
  afterAll(() => db?.drop());
  suite(() => ({ databaseUrl: db.url }));
});
