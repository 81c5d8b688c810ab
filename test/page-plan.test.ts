// The planned trajectories page (src/trajectories/page-plan.ts): its edges are written straight to
// JSON, so its answer must be the very text graphql-js writes for the same selection. The same
// fields under a fragment spread are not planned: each planned answer is compared, byte for byte,
// with that one from the same server, over text that needs escaping (quotes, backslashes, control
// characters, U+2028, emoji, CJK), nulls, aliases and __typename; and over data graphql-js refuses.
import { join } from 'node:path';

import BetterSqlite3 from 'better-sqlite3';
import { parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';

import { plannedConnections } from '../src/server/planned-connections';
import { createRun, recordTrajectories, trajectory } from './helpers/builders';
import { useTestServer } from './helpers/server';
import { errorCode, TRANSPORTS, via } from './helpers/transports';

const isPlanned = plannedConnections.isPlanned;

const TRICKY = [
  'quotes " and \\ backslashes \\" \\\\',
  'lines\nand\ttabs\r\u0001\u001f\u007f',
  'separators \u2028 \u2029 </script> <!--',
  'unicode: héllo wörld — 日本語 한국어 العربية 🎉👩‍🔬 𝒳',
  '',
];

async function post(url: string, query: string, variables: Record<string, unknown>) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, text: await res.text() };
}

/** The selection as written (planned), and the same fields under a fragment spread (executed by graphql-js). */
function both(connection: string, edges: string, args = 'first: 10') {
  const planned = `query P($runId: ID!) { trajectories(runId: $runId, ${args}) { ${connection.replace('EDGES', `edges { ${edges} }`)} } }`;
  const unplanned = `query P($runId: ID!) { trajectories(runId: $runId, ${args}) { ${connection.replace('EDGES', 'edges { ...E }')} } } fragment E on TrajectoryEdge { ${edges} }`;
  // Each comparison is between the two ways, or it could not fail.
  expect(isPlanned(parse(planned))).toBe(true);
  expect(isPlanned(parse(unplanned))).toBe(false);
  return { planned, unplanned };
}

const NODE = `id databaseId uuid reward createdAt split step metadata taskInput { step inputText context } messages { role content toolCallId name trainable }`;

describe('planned trajectories page', () => {
  const s = useTestServer();
  let runId: string;
  beforeAll(async () => {
    runId = (await createRun(s)).id;
    await recordTrajectories(
      s,
      runId,
      TRICKY.map((text, i) =>
        trajectory(i, i === 2 ? null : i / 7, {
          taskInput: {
            step: i,
            inputText: text,
            context: i % 2 ? null : { text, list: [1, 0.1, -0, 1e21, null, true] },
          },
          messages: [
            { role: 'system', content: text },
            { role: 'user', content: `${text}${text}` },
            { role: 'assistant', content: TRICKY[(i + 1) % TRICKY.length] },
          ],
          metadata: { text, nested: { [text || 'empty']: [text, 1.5, false] } },
        }),
      ),
    );
  });

  const cases: Array<[string, string, string, string?]> = [
    ['every plain field', 'EDGES', `cursor node { ${NODE} }`],
    [
      'pageInfo and totalCount around the edges',
      'totalCount EDGES pageInfo { hasNextPage endCursor }',
      `node { uuid }`,
    ],
    [
      'aliases and __typename',
      '__typename page: EDGES count: totalCount',
      `__typename c: cursor n: node { __typename key: id r: reward t: taskInput { __typename s: step } m: messages { __typename text: content } }`,
    ],
    ['by reward, descending, from the second page', 'EDGES', `cursor node { ${NODE} }`, 'first: 2, after: $after'],
  ];

  for (const [name, connection, edges, args] of cases)
    it(`writes what graphql-js writes: ${name}`, async () => {
      let variables: Record<string, unknown> = { runId };
      let pageArgs = args;
      if (args?.includes('$after')) {
        const first = JSON.parse(
          (
            await post(
              s.url,
              `query($runId: ID!) { trajectories(runId: $runId, first: 2, orderBy: { field: REWARD, direction: DESC }) { pageInfo { endCursor } } }`,
              variables,
            )
          ).text,
        );
        variables = { ...variables, after: first.data.trajectories.pageInfo.endCursor };
        pageArgs = `${args}, orderBy: { field: REWARD, direction: DESC }`;
      }
      const q = both(connection, edges, pageArgs);
      const withAfter = (text: string) =>
        args?.includes('$after') ? text.replace('$runId: ID!', '$runId: ID!, $after: String') : text;
      const planned = await post(s.url, withAfter(q.planned), variables);
      const unplanned = await post(s.url, withAfter(q.unplanned), variables);
      expect(planned.status).toBe(200);
      expect(JSON.parse(planned.text).errors).toBeUndefined();
      expect(planned.text).toBe(unplanned.text);
      expect(JSON.parse(planned.text).data.trajectories).toBeTruthy();
    });

  it('gives the same data over SSE and graphql-ws (their serializers parse the written edges back)', async () => {
    // Without U+2028/U+2029: the SSE helper reads an event's data line with a regex, which ends lines there.
    const plain = (await createRun(s)).id;
    const texts = TRICKY.filter((t) => !/[\u2028\u2029]/.test(t));
    await recordTrajectories(
      s,
      plain,
      texts.map((text, i) => trajectory(i, i / 3, { messages: [{ role: 'user', content: text }], metadata: { text } })),
    );
    const q = both('EDGES totalCount', `cursor node { ${NODE} }`);
    for (const transport of TRANSPORTS) {
      const planned = await via(transport, s.url, q.planned, { runId: plain });
      expect(errorCode(planned), transport).toBeNull();
      expect(planned.result, transport).toEqual((await via(transport, s.url, q.unplanned, { runId: plain })).result);
      expect((planned.result?.data as { trajectories: { edges: unknown[] } }).trajectories.edges).toHaveLength(
        texts.length,
      );
    }
  });

  it('reads the unicode and escapes back as recorded', async () => {
    const { text } = await post(s.url, both('EDGES', `node { ${NODE} }`).planned, { runId });
    const edges = JSON.parse(text).data.trajectories.edges as Array<{
      node: { messages: { content: string }[]; taskInput: { inputText: string }; metadata: { text: string } };
    }>;
    expect(edges.map((e) => e.node.taskInput.inputText)).toEqual(TRICKY);
    expect(edges.map((e) => e.node.metadata.text)).toEqual(TRICKY);
    expect(edges.map((e) => e.node.messages[1].content)).toEqual(TRICKY.map((t) => `${t}${t}`));
  });

  it('answers an unknown run as NotFound, as unplanned', async () => {
    const q = both('EDGES', 'node { uuid }');
    const missing = { runId: 'VHJhaW5pbmdSdW46OTk5OTk' };
    const planned = await post(s.url, q.planned, missing);
    expect(JSON.parse(planned.text).errors[0].extensions.code).toBe('NOT_FOUND');
    expect(planned.text).toBe((await post(s.url, q.unplanned, missing)).text);
  });

  it('gives the same data and errors as graphql-js when stored data breaks a field type', async () => {
    const other = (await createRun(s)).id;
    const [one] = await recordTrajectories(s, other, [trajectory(3, 0.5)]).then((r) => r.uuids);
    // A row written by something other than Atelier: a step no GraphQL Int can hold.
    const db = new BetterSqlite3(join(s.dir, 'atelier.sqlite'));
    db.prepare('UPDATE trajectories SET task_input = ? WHERE uuid = ?').run(
      JSON.stringify({ step: 1e12, input_text: 'x', context: null }),
      one,
    );
    db.close();
    const q = both('EDGES pageInfo { hasNextPage }', `node { uuid taskInput { step } }`);
    // The documents differ in where the field is written (a fragment), so the locations are left out.
    const answer = async (query: string) => {
      const r = JSON.parse((await post(s.url, query, { runId: other })).text);
      return { ...r, errors: r.errors?.map(({ locations: _l, ...e }: { locations: unknown }) => e) };
    };
    const planned = await answer(q.planned);
    expect(planned.errors?.[0]?.path).toEqual(['trajectories', 'edges', 0, 'node', 'taskInput', 'step']);
    expect(planned).toEqual(await answer(q.unplanned));
  });
});

describe('planned trajectories page and the answer size limit', () => {
  const MAX = 256 * 1024;
  const s = useTestServer({ limits: { maxResponseBytes: MAX } });
  let runId: string;
  beforeAll(async () => {
    runId = (await createRun(s)).id;
    // Small messages, large metadata: the reservation (message content) passes, the answer does not.
    await recordTrajectories(
      s,
      runId,
      Array.from({ length: 8 }, (_, i) => trajectory(i, 0.5, { metadata: { blob: 'm'.repeat(60_000) } })),
    );
  });

  it('refuses a planned page over maxResponseBytes with the limit error on every transport, and answers one under it', async () => {
    const big = both('EDGES', 'node { uuid metadata }', 'first: 8');
    for (const transport of TRANSPORTS) {
      const outcome = await via(transport, s.url, big.planned, { runId });
      expect(errorCode(outcome), transport).toBe('LIMIT_EXCEEDED');
      expect(outcome.result?.errors?.[0]?.extensions).toMatchObject({ limit: 'maxResponseBytes', max: MAX });
      expect(outcome.result?.data ?? null).toBeNull();
    }
    const small = both('EDGES', 'node { uuid metadata }', 'first: 2');
    const planned = await post(s.url, small.planned, { runId });
    expect(JSON.parse(planned.text).data.trajectories.edges).toHaveLength(2);
    expect(planned.text).toBe((await post(s.url, small.unplanned, { runId })).text);
  });
});
