// recordTrajectoryGroups stores a step's groups with one multi-row insert per table, chunked under
// the databases' parameter limits: a call of more groups and trajectories than one chunk holds puts
// every trajectory in its own group, in order, on SQLite and PostgreSQL alike; the run's trajectory
// total (kept by the writes, not counted) follows records, retries and replaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ART_FIXTURE } from './helpers/art-fixture';
import { createRun } from './helpers/builders';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { useTestServer, type ServerOptions, type TestServer } from './helpers/server';
import { RecordTrajectoryGroups } from './operations';

const TEMPLATE = ART_FIXTURE.groups[0].trajectories[0];

/** `groups` groups of `size` trajectories; each trajectory says in its metadata which group and place it is. */
function groups(count: number, size: number, tag: string) {
  return Array.from({ length: count }, (_, g) => ({
    trajectories: Array.from({ length: size }, (_, p) => ({
      ...TEMPLATE,
      reward: g + p / 10,
      metadata: { tag, group: g, place: p },
    })),
    exceptions: [],
    metadata: { tag, group: g },
    metrics: {},
    logs: [],
  }));
}

const PAGE = `query Page($id: ID!, $split: String, $after: String) {
  run(id: $id) {
    metrics { totalTrajectories }
    trajectories(first: 100, after: $after, filter: { split: $split }) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { step reward metadata group { index metadata } } }
    }
  }
}`;

interface PageAnswer {
  run: {
    metrics: { totalTrajectories: number } | null;
    trajectories: {
      totalCount: number;
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      edges: Array<{
        node: {
          step: number;
          reward: number | null;
          metadata: Record<string, unknown>;
          group: { index: number; metadata: Record<string, unknown> } | null;
        };
      }>;
    };
  };
}

/** Every trajectory of a split, page by page, with the run's snapshot total. */
async function all(s: TestServer, id: string, split: string) {
  const nodes: PageAnswer['run']['trajectories']['edges'][number]['node'][] = [];
  let after: string | null = null;
  let answer: PageAnswer;
  do {
    answer = await s.gql<PageAnswer, Record<string, unknown>>(PAGE, { id, split, after });
    nodes.push(...answer.run.trajectories.edges.map((e) => e.node));
    after = answer.run.trajectories.pageInfo.endCursor;
  } while (answer.run.trajectories.pageInfo.hasNextPage);
  return { nodes, total: answer.run.metrics?.totalTrajectories, count: answer.run.trajectories.totalCount };
}

async function record(s: TestServer, runId: string, step: number, split: string, sent: unknown[], replace = false) {
  return expectResult(
    (await s.gql(RecordTrajectoryGroups, { runId, step, split, replace, groups: sent as never }))
      .recordTrajectoryGroups,
    'RecordTrajectoryGroupsPayload',
  );
}

function suite(options: () => ServerOptions) {
  const s = useTestServer(options);

  it('puts every trajectory of a many-group call in its own group, in order, and keeps the total', async () => {
    const run = await createRun(s);
    // 600 groups of one (more than a group chunk), then 250 groups of four (1,000 trajectories: more than a trajectory chunk).
    expect(await record(s, run.id, 0, 'train', groups(600, 1, 'a'))).toMatchObject({ recorded: 600, replaced: 0 });
    expect(await record(s, run.id, 0, 'val', groups(250, 4, 'b'))).toMatchObject({ recorded: 1000, replaced: 0 });

    const train = await all(s, run.id, 'train');
    expect(train.count).toBe(600);
    expect(train.nodes.map((n) => [n.group?.index, n.group?.metadata.group, n.metadata.group, n.reward])).toEqual(
      Array.from({ length: 600 }, (_, g) => [g, g, g, g]),
    );
    const val = await all(s, run.id, 'val');
    expect(val.nodes.map((n) => [n.group?.index, n.group?.metadata.group, n.metadata.group, n.metadata.place])).toEqual(
      Array.from({ length: 1000 }, (_, i) => [Math.floor(i / 4), Math.floor(i / 4), Math.floor(i / 4), i % 4]),
    );
    expect(val.total).toBe(1600);

    // A retry adds nothing; new groups of a stored step are added alone.
    expect(await record(s, run.id, 0, 'train', groups(600, 1, 'a'))).toMatchObject({ recorded: 0, duplicates: 600 });
    expect((await all(s, run.id, 'train')).total).toBe(1600);

    // A replace with fewer groups takes the stored ones away, and the total follows.
    expect(await record(s, run.id, 0, 'val', groups(3, 2, 'c'), true)).toMatchObject({ recorded: 6, replaced: 1000 });
    const replaced = await all(s, run.id, 'val');
    expect(replaced.count).toBe(6);
    expect(replaced.nodes.map((n) => [n.group?.index, n.metadata.tag])).toEqual([
      [0, 'c'],
      [0, 'c'],
      [1, 'c'],
      [1, 'c'],
      [2, 'c'],
      [2, 'c'],
    ]);
    expect(replaced.total).toBe(606);
  });
}

describe('recordTrajectoryGroups in batches on SQLite', () => suite(() => ({})));

describe.skipIf(!postgresUrl)(postgresSuiteTitle('recordTrajectoryGroups in batches on PostgreSQL'), () => {
  let db: FreshPostgresDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
  });
  afterAll(() => db?.drop());
  suite(() => ({ databaseUrl: db.url }));
});
