// How large an answer may grow (issue #11): 15 aliases × trajectories(first: 100) over 150 KB
// trajectories passed every limit and built a 225 MB answer. Strings and JSON are counted while
// resolving; past MAX_RESPONSE_BYTES the operation stops with an error naming the limit, the answer
// stays small and other clients are served.
import { beforeAll, describe, expect, it } from 'vitest';

import { createRun, recordTrajectories, trajectory } from './helpers/builders';
import { useTestServer } from './helpers/server';
import { errorCode, TRANSPORTS, via, viaHttp } from './helpers/transports';

const MAX = 1024 * 1024;
const s = useTestServer({ limits: { maxResponseBytes: MAX } });
let runId: string;
beforeAll(async () => {
  runId = (await createRun(s)).id;
  // Ten trajectories of about 200 KB each: 2 MB in all.
  await recordTrajectories(
    s,
    runId,
    Array.from({ length: 10 }, () =>
      trajectory(0, 0.5, { messages: [{ role: 'assistant', content: 'y'.repeat(200_000) }] }),
    ),
  );
});

const page = (first: number) =>
  `{ run(id: "${runId}") { trajectories(first: ${first}) { edges { node { messages { role content } } } } } }`;

describe('response size', () => {
  it('refuses an answer over maxResponseBytes with a small, named error on every transport', async () => {
    for (const transport of TRANSPORTS) {
      const outcome = await via(transport, s.url, page(10));
      expect(errorCode(outcome), transport).toBe('LIMIT_EXCEEDED');
      expect(outcome.result?.errors).toHaveLength(1);
      const error = outcome.result!.errors![0];
      expect(error.extensions).toMatchObject({ limit: 'maxResponseBytes', max: MAX });
      expect(error.message).toMatch(/exceeds the limit of 1048576 bytes.*MAX_RESPONSE_BYTES/);
      expect(outcome.result?.data ?? null).toBeNull();
      expect(JSON.stringify(outcome.result).length).toBeLessThan(4096);
      if (transport === 'http') expect(outcome.status).toBe(400);
    }
  });

  it('counts across aliases, not per field', async () => {
    const aliased = `{ ${Array.from({ length: 4 }, (_, i) => `a${i}: run(id: "${runId}") { trajectories(first: 2) { edges { node { messages { content } } } } }`).join(' ')} }`;
    const outcome = await viaHttp(s.url, aliased);
    expect(outcome.result?.errors?.[0]?.extensions).toMatchObject({ limit: 'maxResponseBytes' });
  });

  it('answers pages under the limit, and other clients meanwhile', async () => {
    const small = await viaHttp(s.url, page(2));
    expect(errorCode(small)).toBeNull();
    const edges = (small.result?.data as { run: { trajectories: { edges: unknown[] } } }).run.trajectories.edges;
    expect(edges).toHaveLength(2);
    const [big, other] = await Promise.all([viaHttp(s.url, page(10)), viaHttp(s.url, '{ __typename }')]);
    expect(errorCode(big)).toBe('LIMIT_EXCEEDED');
    expect(other.result).toEqual({ data: { __typename: 'Query' } });
  });
});

// Issue #23 item 3: on SQLite a page is read synchronously, every client waiting, before its strings are
// counted: four refused queries froze others for 0.9–2.7 s and grew RSS by over 500 MB. A page whose
// message contents alone (summed by SQLite from the stored JSON, a lower bound of what the answer
// counts) pass the budget is refused before any of its rows is read out; the contents are summed only
// when the page's stored bytes (an upper bound, cheaper) do not fit.
describe('a refused answer on SQLite', () => {
  const statementsOf = async (query: string) => {
    const seen: string[][] = [];
    const stop = s.app.operationQueries.listen((c) => seen.push(c.statements));
    try {
      return { outcome: await viaHttp(s.url, query), statements: seen.flat() };
    } finally {
      stop();
    }
  };
  /** A statement that reads trajectory rows out (the page's column list), as opposed to summing their sizes. */
  const readsRows = (sql: string) => /FROM "trajectories" "?t"? /i.test(sql) && /"messages" AS/i.test(sql);

  it('is refused before its rows are read: four aliased pages over the budget read none of them', async () => {
    const aliased = `query Four { ${Array.from({ length: 4 }, (_, i) => `a${i}: run(id: "${runId}") { trajectories(first: 10) { edges { node { messages { content } } } } }`).join(' ')} }`;
    const { outcome, statements } = await statementsOf(aliased);
    expect(outcome.status).toBe(400);
    expect(outcome.result?.errors).toHaveLength(1);
    expect(outcome.result?.errors?.[0]?.extensions).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      limit: 'maxResponseBytes',
    });
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter(readsRows)).toEqual([]);
    // The pages are weighed one at a time: the first is over the budget, so the others are not weighed either.
    expect(statements.filter((sql) => /json_tree/.test(sql))).toHaveLength(1);
  });

  it('still reads what fits, and pages that do not select the contents', async () => {
    const fits = await statementsOf(
      `{ run(id: "${runId}") { trajectories(first: 2) { edges { node { messages { content } } } } } }`,
    );
    expect(errorCode(fits.outcome)).toBeNull();
    expect(fits.statements.some(readsRows)).toBe(true);
    // It fits even by its stored bytes (summed without parsing): its JSON is not walked to count content.
    expect(fits.statements.some((sql) => /OCTET_LENGTH/i.test(sql))).toBe(true);
    expect(fits.statements.filter((sql) => /json_tree/.test(sql))).toEqual([]);
    const ids = await viaHttp(s.url, `{ run(id: "${runId}") { trajectories(first: 10) { edges { node { id } } } } }`);
    expect(errorCode(ids)).toBeNull();
    // Exactly at the edge: the lower bound of 5 pages of 200,000 characters (1,000,000) fits 1 MiB, and the answer too.
    const five = await viaHttp(
      s.url,
      `{ run(id: "${runId}") { trajectories(first: 5) { edges { node { messages { content } } } } } }`,
    );
    expect(errorCode(five)).toBeNull();
  });
});
