// Nested literals are refused before parsing: graphql-js parses values recursively, so
// `runs(filter: {a: {a: … 2000 levels … 1}})` (8 KB, inside the token limit) used to overflow the
// stack and answer 500. A linear pre-parse scan refuses it with a named 400, over every transport.
import { describe, expect, it } from 'vitest';

import { useTestServer } from './helpers/server';
import { errorCode, TRANSPORTS, via, viaHttp } from './helpers/transports';

const s = useTestServer();

const objects = (n: number) => `{ runs(filter: ${'{a:'.repeat(n)}1${'}'.repeat(n)}) { totalCount } }`;
const lists = (n: number) => `{ runs(filter: ${'['.repeat(n)}1${']'.repeat(n)}) { totalCount } }`;

describe('literal nesting', () => {
  it.each([
    ['objects', objects(2000)],
    ['lists', lists(4000)],
  ])('refuses %s nested 2000+ deep with a named error on every transport, and keeps serving', async (_kind, query) => {
    for (const transport of TRANSPORTS) {
      const outcome = await via(transport, s.url, query);
      expect(outcome.closeCode, `${transport} closed the socket`).toBeUndefined();
      expect(errorCode(outcome), transport).toBe('LIMIT_EXCEEDED');
      const error = outcome.result!.errors![0];
      expect(error.extensions).toMatchObject({ limit: 'maxNesting', max: 100 });
      expect(error.message).toMatch(/nested \d+ deep .* exceed the limit of 100.*MAX_QUERY_NESTING/);
      if (transport === 'http') expect(outcome.status).toBe(400);
    }
    expect(errorCode(await viaHttp(s.url, '{ runs(first: 1) { totalCount } }'))).toBeNull();
  });

  it('does not count brackets inside strings, block strings or comments', async () => {
    const text = '{'.repeat(120);
    const query = `# ${'['.repeat(500)}\n{ runs(first: 1, filter: { projectName: "${text}" }) { totalCount } }`;
    expect(errorCode(await viaHttp(s.url, query))).toBeNull();
    const block = `query { runs(first: 1, filter: { projectName: """${'['.repeat(60)} \\""" ${'{'.repeat(60)}""" }) { totalCount } }`;
    expect(errorCode(await viaHttp(s.url, block))).toBeNull();
  });

  it('accepts nesting just inside the limit (the validator then judges the value)', async () => {
    const outcome = await viaHttp(s.url, lists(90));
    expect(errorCode(outcome)).not.toBe('LIMIT_EXCEEDED');
    expect(outcome.status).not.toBe(500);
  });
});
