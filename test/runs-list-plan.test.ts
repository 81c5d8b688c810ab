// The planned runs list (src/runs/runs-list-plan.ts): its edges are written straight to JSON, so its
// answer must be the very text graphql-js writes for the same selection. Each planned answer is
// compared, byte for byte, with the same fields under a fragment spread (not planned) from the same
// server: the dashboard's own runs query, every field the plan writes over runs of both modes (a
// stalled one, one without metrics, text that needs escaping), aliases and summary arguments; and
// data graphql-js refuses, the answer size limit, and arguments the plan leaves to graphql-js.
import { join } from 'node:path';

import BetterSqlite3 from 'better-sqlite3';
import { parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';

import { plannedConnections } from '../src/server/planned-connections';
import { RUNS_SEARCH } from '../web/src/queries';
import { createRun, recordTrajectories, trajectory, transition } from './helpers/builders';
import { useTestServer, type TestServer } from './helpers/server';
import { errorCode, TRANSPORTS, via } from './helpers/transports';
import { RecordSplitMetrics } from './operations';

const TRICKY = [
  'quotes " and \\ backslashes \\" \\\\',
  'lines\nand\ttabs\r',
  'separators \u2028 \u2029 </script> <!--',
  'unicode: héllo wörld — 日本語 한국어 العربية 🎉👩‍🔬 𝒳',
];

async function post(url: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, text: await res.text() };
}

/** The selection as written (planned), and the same edges under a fragment spread (executed by graphql-js). */
function both(edges: string, connection = 'totalCount EDGES', args = 'first: 20', params = '') {
  const head = `query L${params} { runs(${args}) {`;
  const planned = `${head} ${connection.replace('EDGES', `edges { ${edges} }`)} } }`;
  const unplanned = `${head} ${connection.replace('EDGES', 'edges { ...E }')} } } fragment E on TrainingRunEdge { ${edges} }`;
  // Each comparison is between the two ways, or it could not fail.
  expect(plannedConnections.isPlanned(parse(planned))).toBe(true);
  expect(plannedConnections.isPlanned(parse(unplanned))).toBe(false);
  return { planned, unplanned };
}

/** Every field the plan writes. */
const NODE = `id databaseId name notes tags group uuid status modelName projectName trainedModelName taskDescription
  numExamples rolloutsPerGroup learningRate numEpochs maxSteps systemPrompt createdAt startedAt completedAt
  metrics { step epoch avgReward minReward maxReward trainingLoss totalTrajectories } error config mode currentStep
  totalSteps backend leaseOwner leaseExpiresAt stalled stalledSince lastActivityAt
  summary { split name last min max step }`;

async function seed(s: TestServer) {
  // A TRACKED run with everything: tricky text, tags, a group, trajectories, train and val history.
  const full = await createRun(s, {
    name: TRICKY[0],
    notes: TRICKY.join('\n'),
    tags: ['baseline', 'seed:1'],
    group: TRICKY[3],
    systemPrompt: TRICKY[2],
    trainedModelName: 'agent-001',
    maxSteps: 40,
    config: {
      text: `${TRICKY[1]}\u0001\u001f\u007f`,
      list: [1, 0.1, -0, 1e21, null, true],
      nested: { [TRICKY[3]]: TRICKY[0] },
    },
  });
  await transition(s, full.id, 'TRAINING');
  await recordTrajectories(s, full.id, [trajectory(0, 0.25), trajectory(0, 0.75), trajectory(1, null)]);
  for (const [split, values] of [
    ['train', [{ name: 'reward', value: 0.5 }]],
    [
      'val',
      [
        { name: 'reward', value: 0.625 },
        { name: TRICKY[3], value: -1.5e-7 },
      ],
    ],
  ] as const)
    await s.gql(RecordSplitMetrics, {
      runId: full.id,
      split,
      points: [
        { step: 0, trainingLoss: 1.25, values: [...values] },
        { step: 1, values: [...values] },
      ],
    });
  // Found stalled: stalled and stalledSince from its activity.
  await s.app.services.stalls.check(new Date(Date.now() + 10 * 3_600_000));
  // A TRACKED run without metrics, finished.
  const bare = await createRun(s, { projectName: 'other', taskDescription: TRICKY[1] });
  await transition(s, bare.id, 'COMPLETED');
  // A finished PIPELINE run (totalSteps computed from its settings), as the pipeline leaves its row:
  // made TRACKED and cancelled here, then given the pipeline's mode and settings (no runner in this test).
  const pipeline = await createRun(s, { numExamples: 9, numEpochs: 3, maxSteps: 10, learningRate: 0.5 });
  await transition(s, pipeline.id, 'CANCELLED', TRICKY[2]);
  const db = new BetterSqlite3(join(s.dir, 'atelier.sqlite'));
  db.prepare(`UPDATE training_runs SET mode = 'pipeline', config = ? WHERE uuid = ?`).run(
    JSON.stringify({ pipeline: { groupsPerStep: 2 } }),
    pipeline.uuid,
  );
  db.close();
  return { full, bare, pipeline };
}

describe('planned runs list', () => {
  // A timeout no test outlasts: only the check below, with the time it is given, marks a run stalled.
  const s = useTestServer({ pipeline: { stallTimeoutMs: 3_600_000 } });
  let ids: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    ids = await seed(s);
  });

  it("plans the dashboard's runs query and answers it as graphql-js does", async () => {
    const edges = /edges \{ (node \{.*\} \}) \}/s;
    const unplanned = `${RUNS_SEARCH.replace(edges, 'edges { ...E }')} fragment E on TrainingRunEdge { ${RUNS_SEARCH.match(edges)![1]} }`;
    expect(plannedConnections.isPlanned(parse(RUNS_SEARCH))).toBe(true);
    expect(plannedConnections.isPlanned(parse(unplanned))).toBe(false);
    const variables = { first: 50, orderBy: { field: 'CREATED_AT', direction: 'DESC' } };
    const planned = await post(s.url, RUNS_SEARCH, variables);
    expect(planned.status).toBe(200);
    const data = JSON.parse(planned.text);
    expect(data.errors).toBeUndefined();
    expect(data.data.runs.edges).toHaveLength(3);
    expect(planned.text).toBe((await post(s.url, unplanned, variables)).text);
  });

  const cases: Array<[string, string, string?, string?]> = [
    ['every field it writes', `cursor node { ${NODE} }`],
    [
      'pageInfo and totalCount around the edges',
      'node { uuid tags }',
      'totalCount EDGES pageInfo { hasNextPage endCursor }',
    ],
    [
      'aliases and __typename',
      `__typename c: cursor n: node { __typename key: id s: status m: metrics { __typename r: avgReward } t: tags sum: summary(split: "val") { __typename n: name } }`,
      '__typename page: EDGES count: totalCount',
    ],
    [
      'summary arguments: a list, one string, none given, null',
      `node { a: summary(names: ["val/reward", "train/loss"]) { name last } b: summary(names: "train/reward") { name step } c: summary { name } d: summary(names: null, split: null) { name } }`,
    ],
    [
      'a second page, by reward',
      `cursor node { databaseId metrics { avgReward } }`,
      'EDGES',
      'first: 2, after: $after',
    ],
  ];

  for (const [name, edges, connection, args] of cases)
    it(`writes what graphql-js writes: ${name}`, async () => {
      let variables: Record<string, unknown> = {};
      let pageArgs = args;
      let params = '';
      if (args?.includes('$after')) {
        const orderBy = 'orderBy: { field: AVG_REWARD, direction: DESC }';
        const first = JSON.parse((await post(s.url, `{ runs(first: 1, ${orderBy}) { pageInfo { endCursor } } }`)).text);
        variables = { after: first.data.runs.pageInfo.endCursor };
        pageArgs = `${args}, ${orderBy}`;
        params = '($after: String)';
      }
      const q = both(edges, connection, pageArgs, params);
      const planned = await post(s.url, q.planned, variables);
      expect(planned.status).toBe(200);
      expect(JSON.parse(planned.text).errors).toBeUndefined();
      expect(planned.text).toBe((await post(s.url, q.unplanned, variables)).text);
    });

  it('shows the stalled run, the run without metrics and the computed totalSteps as recorded', async () => {
    const { text } = await post(s.url, both(`node { ${NODE} }`).planned);
    const nodes = (JSON.parse(text).data.runs.edges as { node: Record<string, unknown> }[]).map((e) => e.node);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    expect(byId.get(ids.full.id)).toMatchObject({
      name: TRICKY[0],
      notes: TRICKY.join('\n'),
      tags: ['baseline', 'seed:1'],
      group: TRICKY[3],
      stalled: true,
      totalSteps: 40,
      metrics: { totalTrajectories: 3 },
    });
    expect(byId.get(ids.full.id)!.stalledSince).toEqual(expect.any(String));
    expect((byId.get(ids.full.id)!.summary as { name: string }[]).map((m) => m.name)).toContain(`val/${TRICKY[3]}`);
    expect(byId.get(ids.bare.id)).toMatchObject({
      metrics: null,
      stalled: false,
      stalledSince: null,
      status: 'COMPLETED',
    });
    // ART's iteration: 9 inputs, 2 groups a step → 5 steps an epoch, 3 epochs, capped at maxSteps 10.
    expect(byId.get(ids.pipeline.id)).toMatchObject({ mode: 'PIPELINE', lastActivityAt: null, totalSteps: 10 });
  });

  it('leaves to graphql-js what it does not plan, and graphql-js answers it', async () => {
    for (const query of [
      'query($n: [String!]) { runs(first: 5) { edges { node { summary(names: $n) { name } } } } }',
      '{ runs(first: 5) { edges { node { queuePosition statusHistory { to } } } } }',
      '{ runs(first: 5) { edges { node { uuid @include(if: true) } } } }',
      '{ runs(first: 5) { edges { ... on TrainingRunEdge { node { uuid } } } } }',
    ]) {
      expect(plannedConnections.isPlanned(parse(query)), query).toBe(false);
      const answer = JSON.parse((await post(s.url, query, { n: ['val/reward'] })).text);
      expect(answer.errors, query).toBeUndefined();
      expect(answer.data.runs.edges).toHaveLength(3);
    }
  });

  it('refuses summary names its rules refuse, as unplanned', async () => {
    const tooMany = JSON.stringify(Array.from({ length: 101 }, (_, i) => `val/m${i}`));
    for (const [names, field, rule] of [
      [tooMany, 'names', 'too_big'],
      [JSON.stringify(['x'.repeat(301)]), 'names.0', 'too_big'],
      ['["val/\\u0000"]', 'names.0', 'no_nul'],
    ]) {
      const query = `{ runs(first: 2) { edges { node { summary(names: ${names}) { name } } } } }`;
      expect(plannedConnections.isPlanned(parse(query))).toBe(false);
      const answer = JSON.parse((await post(s.url, query)).text);
      expect(answer.data).toBeNull();
      expect(answer.errors[0].path).toEqual(['runs', 'edges', 0, 'node', 'summary']);
      expect(answer.errors[0].extensions.issues).toEqual([expect.objectContaining({ field, rule })]);
    }
  });

  it('gives the same data and errors as graphql-js when stored data breaks a field type', async () => {
    const run = await createRun(s, { projectName: 'broken' });
    // A row written by something other than Atelier: a creation date that is not one.
    const db = new BetterSqlite3(join(s.dir, 'atelier.sqlite'));
    db.prepare('UPDATE training_runs SET created_at = ? WHERE uuid = ?').run('not a date', run.uuid);
    db.close();
    const q = both('node { uuid createdAt tags }', 'EDGES', 'first: 1, filter: { projectName: "broken" }');
    const answer = async (query: string) => {
      const r = JSON.parse((await post(s.url, query)).text);
      return { ...r, errors: r.errors?.map(({ locations: _l, ...e }: { locations: unknown }) => e) };
    };
    const planned = await answer(q.planned);
    expect(planned.errors?.[0]?.path).toEqual(['runs', 'edges', 0, 'node', 'createdAt']);
    expect(planned).toEqual(await answer(q.unplanned));
  });

  it('gives the same data over SSE and graphql-ws', async () => {
    // Fields without U+2028/U+2029: the SSE helper reads an event's data line with a regex, which ends lines there.
    const q = both(`cursor node { uuid status tags metrics { avgReward } summary { name last } }`);
    for (const transport of TRANSPORTS) {
      const planned = await via(transport, s.url, q.planned, {});
      expect(errorCode(planned), transport).toBeNull();
      expect(planned.result, transport).toEqual((await via(transport, s.url, q.unplanned, {})).result);
    }
  });
});

describe('planned runs list and the answer size limit', () => {
  const MAX = 64 * 1024;
  const s = useTestServer({ limits: { maxResponseBytes: MAX } });
  beforeAll(async () => {
    for (let i = 0; i < 6; i++) await createRun(s, { notes: 'n'.repeat(15_000) });
  });

  it('refuses a planned list over maxResponseBytes on every transport, and answers one under it', async () => {
    const big = both('node { uuid notes }', 'EDGES', 'first: 6');
    for (const transport of TRANSPORTS) {
      const outcome = await via(transport, s.url, big.planned, {});
      expect(errorCode(outcome), transport).toBe('LIMIT_EXCEEDED');
      expect(outcome.result?.data ?? null).toBeNull();
    }
    const small = both('node { uuid notes }', 'EDGES', 'first: 3');
    const planned = await post(s.url, small.planned);
    expect(JSON.parse(planned.text).data.runs.edges).toHaveLength(3);
    expect(planned.text).toBe((await post(s.url, small.unplanned)).text);
  });
});
