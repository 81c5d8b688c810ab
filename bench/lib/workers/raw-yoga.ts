// Worker: the read scenario's baseline for the dashboard's runs list (web/src/queries.ts RUNS_SEARCH
// as the runs page sends it: newest first, no filter), a minimal graphql-yoga server (yoga's
// defaults, on node:http like Atelier) answering the same selection from raw better-sqlite3 prepared
// statements: no ORM, no plugins, no auth, no limits. It does the work the answer needs and nothing
// more: a keyset page (first + 1 rows, newest first) of the columns the answer needs and a count, the
// page's tags and summaries (one statement each), global ids, the status and mode enums, totalSteps,
// metrics parsed from their JSON text, dates as ISO strings, the first and last cursors.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import BetterSqlite3 from 'better-sqlite3';
import { createSchema, createYoga } from 'graphql-yoga';

import { totalSteps } from '../../../src/domain/dataset';
import { encodeGlobalId } from '../../../src/graphql/global-id';
import { cursorEncoder } from '../../../src/graphql/pagination';
import { serveWorker } from '../worker';

const typeDefs = /* GraphQL */ `
  type Query {
    runs(
      first: Int
      filter: TrainingRunFilter
      orderBy: TrainingRunOrder
      after: String
      last: Int
      before: String
    ): TrainingRunConnection!
  }
  input TrainingRunFilter {
    projectName: String
    status: [TrainingStatus!]
    query: String
  }
  enum TrainingRunOrderField {
    CREATED_AT
    AVG_REWARD
    METRIC
  }
  enum OrderDirection {
    ASC
    DESC
  }
  input TrainingRunOrder {
    field: TrainingRunOrderField!
    direction: OrderDirection!
    metric: String
  }
  type RunSummary {
    split: String!
    name: String!
    last: Float!
    min: Float!
    max: Float!
    step: Int!
  }
  type TrainingRunConnection {
    totalCount: Int!
    edges: [TrainingRunEdge!]!
    pageInfo: PageInfo!
  }
  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }
  type TrainingRunEdge {
    cursor: String!
    node: TrainingRun!
  }
  enum TrainingStatus {
    PENDING
    GENERATING
    COLLECTING
    SCORING
    TRAINING
    COMPLETED
    FAILED
    CANCELLED
  }
  enum RunMode {
    PIPELINE
    TRACKED
  }
  type TrainingRun {
    id: ID!
    databaseId: Int!
    mode: RunMode!
    currentStep: Int
    totalSteps: Int
    status: TrainingStatus!
    projectName: String!
    modelName: String!
    createdAt: String!
    startedAt: String
    metrics: TrainingMetrics
    name: String
    tags: [String!]!
    group: String
    summary(names: [String!]): [RunSummary!]!
    stalled: Boolean!
    stalledSince: String
  }
  type TrainingMetrics {
    totalTrajectories: Int!
    avgReward: Float
    minReward: Float
    maxReward: Float
    trainingLoss: Float
    epoch: Int!
    step: Int!
  }
`;

interface RunRow {
  id: number;
  mode: string;
  current_step: number | null;
  num_examples: number;
  num_epochs: number;
  max_steps: number | null;
  config: string | null;
  status: string;
  project_name: string;
  model_name: string;
  created_at: string;
  started_at: string | null;
  metrics: string | null;
  name: string | null;
  trained_model_name: string | null;
  group_name: string | null;
}
interface SummaryRow {
  run_id: number;
  split: string;
  name: string;
  last: number;
  min: number;
  max: number;
  step: number;
}

/** Atelier's cursors for the newest-first list without a filter, so the answers are the same. */
const cursor = cursorEncoder({
  order: 'runs:createdAt:desc',
  // Atelier's filter with nothing set, as an open server sees it (every project: projectNames null).
  query: { projectNames: null, query: null },
  valueKind: 'string',
});

function groupsPerStep(config: string | null): number {
  const pipeline = (config ? JSON.parse(config) : {}).pipeline as { groupsPerStep?: number } | undefined;
  return pipeline?.groupsPerStep ?? 2;
}

const num = (v: unknown) => (typeof v === 'number' ? v : null);
const iso = (text: string) => new Date(text).toISOString();

function metrics(text: string | null) {
  if (!text) return null;
  const o = JSON.parse(text) as Record<string, unknown>;
  return {
    totalTrajectories: num(o.total_trajectories) ?? 0,
    avgReward: num(o.avg_reward),
    minReward: num(o.min_reward),
    maxReward: num(o.max_reward),
    trainingLoss: num(o.training_loss),
    epoch: num(o.epoch) ?? 0,
    step: num(o.step) ?? 0,
  };
}

let db: BetterSqlite3.Database | null = null;
/** The list's statements alone (page, count, tags, summaries, activity), for the SQL's share of a request. */
let statements: ((first: number) => void) | null = null;
let server: ReturnType<typeof createServer> | null = null;
let yoga: ReturnType<typeof createYoga> | null = null;

const FINAL = new Set(['completed', 'failed', 'cancelled']);

function stall(r: RunRow, since: string | null): { stalled: boolean; stalledSince: string | null } {
  const stalled = r.mode === 'tracked' && !FINAL.has(r.status) && since !== null;
  return { stalled, stalledSince: stalled ? iso(since!) : null };
}

serveWorker({
  async start(p: { databasePath: string }) {
    db = new BetterSqlite3(p.databasePath, { readonly: true });
    const page = db.prepare(
      'SELECT id, mode, current_step, num_examples, num_epochs, max_steps, config, status, project_name, model_name, created_at, started_at, metrics, name, trained_model_name, group_name FROM training_runs ORDER BY created_at DESC, id DESC LIMIT ?',
    );
    const count = db.prepare('SELECT COUNT(1) AS n FROM training_runs');
    // The page's tags and summaries, one statement each, prepared once per page size.
    const byCount = new Map<
      number,
      { tags: BetterSqlite3.Statement; summaries: BetterSqlite3.Statement; activity: BetterSqlite3.Statement }
    >();
    const labelsOf = (ids: number[]) => {
      let st = byCount.get(ids.length);
      if (!st) {
        const list = ids.map(() => '?').join(', ');
        st = {
          tags: db!.prepare(`SELECT run_id, tag FROM run_tags WHERE run_id IN (${list}) ORDER BY run_id, tag`),
          summaries: db!.prepare(
            `SELECT run_id, split, name, last, min, max, step FROM run_summaries WHERE run_id IN (${list}) ORDER BY run_id, name`,
          ),
          // Since when each run is stalled (run_activity), as Atelier's activity loader reads it.
          activity: db!.prepare(`SELECT run_id, stalled_since FROM run_activity WHERE run_id IN (${list})`),
        };
        byCount.set(ids.length, st);
      }
      const tags = new Map<number, string[]>(ids.map((id) => [id, []]));
      for (const t of st.tags.all(...ids) as Array<{ run_id: number; tag: string }>) tags.get(t.run_id)!.push(t.tag);
      const summaries = new Map<number, SummaryRow[]>(ids.map((id) => [id, []]));
      for (const m of st.summaries.all(...ids) as SummaryRow[]) summaries.get(m.run_id)!.push(m);
      const stalledSince = new Map<number, string | null>();
      for (const a of st.activity.all(...ids) as Array<{ run_id: number; stalled_since: string | null }>)
        stalledSince.set(a.run_id, a.stalled_since);
      return { tags, summaries, stalledSince };
    };
    statements = (first) => {
      const rows = page.all(first + 1) as RunRow[];
      labelsOf(rows.slice(0, first).map((r) => r.id));
      count.get();
    };
    yoga = createYoga({
      schema: createSchema({
        typeDefs,
        resolvers: {
          TrainingStatus: {
            PENDING: 'pending',
            GENERATING: 'generating',
            COLLECTING: 'collecting',
            SCORING: 'scoring',
            TRAINING: 'training',
            COMPLETED: 'completed',
            FAILED: 'failed',
            CANCELLED: 'cancelled',
          },
          RunMode: { PIPELINE: 'pipeline', TRACKED: 'tracked' },
          TrainingRunOrderField: { CREATED_AT: 'createdAt', AVG_REWARD: 'avgReward', METRIC: 'metric' },
          OrderDirection: { ASC: 'asc', DESC: 'desc' },
          Query: {
            runs: (_root: unknown, args: { first?: number | null }) => {
              const first = args.first ?? 20;
              const rows = page.all(first + 1) as RunRow[];
              const labels = labelsOf(rows.slice(0, first).map((r) => r.id));
              const edges = rows.slice(0, first).map((r) => ({
                node: {
                  id: encodeGlobalId('TrainingRun', r.id),
                  databaseId: r.id,
                  mode: r.mode === 'pipeline' ? 'pipeline' : 'tracked',
                  currentStep: r.current_step,
                  totalSteps:
                    r.mode === 'pipeline'
                      ? totalSteps(r.num_examples, groupsPerStep(r.config), r.num_epochs, r.max_steps)
                      : r.max_steps,
                  status: r.status,
                  projectName: r.project_name,
                  modelName: r.model_name,
                  createdAt: iso(r.created_at),
                  startedAt: r.started_at === null ? null : iso(r.started_at),
                  metrics: metrics(r.metrics),
                  name: r.name ?? r.trained_model_name,
                  tags: labels.tags.get(r.id),
                  group: r.group_name,
                  // A TRACKED run not finished with a stalledSince is stalled (src/runs/run-stall.graphql.ts).
                  ...stall(r, labels.stalledSince.get(r.id) ?? null),
                  summary: (args: { names?: string[] | null }) => {
                    const all = labels.summaries.get(r.id)!;
                    return args.names ? all.filter((m) => args.names!.includes(m.name)) : all;
                  },
                },
                cursor: () => cursor({ value: r.created_at, id: r.id }),
              }));
              return {
                edges,
                pageInfo: {
                  hasNextPage: rows.length > first,
                  hasPreviousPage: false,
                  startCursor: () => edges[0]?.cursor() ?? null,
                  endCursor: () => edges.at(-1)?.cursor() ?? null,
                },
                totalCount: () => (count.get() as { n: number }).n,
              };
            },
          },
        },
      }),
      graphqlEndpoint: '/graphql',
      landingPage: false,
      logging: false,
    });
    server = createServer(yoga);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pid: process.pid };
  },
  /** Milliseconds the list's statements take per list of `first` runs, run back to back `times` times. */
  async statementsMs(p: { first: number; times: number }) {
    if (!statements) throw new Error('not started');
    for (let i = 0; i < 50; i++) statements(p.first);
    const start = performance.now();
    for (let i = 0; i < p.times; i++) statements(p.first);
    return { ms: (performance.now() - start) / p.times };
  },
  async close() {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await yoga?.dispose();
    db?.close();
  },
});
