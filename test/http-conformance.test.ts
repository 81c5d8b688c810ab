// The HTTP surface as any client sees it: graphql-http's GraphQL-over-HTTP audit suite against the
// real server, the health and readiness probes, and recovery from a malformed request body.
import { serverAudits, type AuditResult } from 'graphql-http';
import { describe, expect, it } from 'vitest';

import { startServer, useTestServer } from './helpers/server';

const s = useTestServer();

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

describe('GraphQL over HTTP', () => {
  it('passes every graphql-http server audit with no error', async () => {
    const audits = serverAudits({ url: () => s.graphqlUrl });
    const results: { name: string; result: AuditResult }[] = [];
    // One at a time: the audits are cheap, and sequential output is easier to read when one fails.
    for (const audit of audits) results.push({ name: audit.name, result: await audit.fn() });
    expect(results.length).toBeGreaterThan(0);

    const errors = results.flatMap(({ name, result }) => (result.status === 'error' ? [{ name, result }] : []));
    const report = errors.map(({ name, result }) => `- ${name}: ${result.reason} [HTTP ${result.response.status}]`);
    expect(
      errors.length,
      `${errors.length} of ${results.length} graphql-http audits failed:\n${report.join('\n')}`,
    ).toBe(0);
  });

  it(`answers a query sent with GET, in ${GRAPHQL_RESPONSE}`, async () => {
    const url = new URL(s.graphqlUrl);
    url.searchParams.set('query', 'query Count { runs(first: 1) { totalCount } }');
    url.searchParams.set('operationName', 'Count');
    const res = await fetch(url, { headers: { accept: GRAPHQL_RESPONSE } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(new RegExp(`^${GRAPHQL_RESPONSE.replace(/[+.]/g, '\\$&')}`));
    const body = await res.json();
    expect(body.errors).toBeUndefined();
    expect(typeof body.data.runs.totalCount).toBe('number');
  });

  it('refuses a malformed JSON body with 400 and an error, then keeps serving', async () => {
    const res = await fetch(s.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: GRAPHQL_RESPONSE },
      body: '{"query": "{ runs { totalCount } }"',
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors?.length).toBeGreaterThan(0);
    expect(typeof body.errors[0].message).toBe('string');
    expect(body.data).toBeUndefined();

    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    const after = await s.request('{ runs(first: 1) { totalCount } }');
    expect(after.errors).toBeUndefined();
    expect(after.data).toMatchObject({ runs: { totalCount: expect.any(Number) } });
  });
});

describe('probes', () => {
  it('/health answers 200', async () => {
    const res = await fetch(`${s.url}/health`);
    expect(res.status).toBe(200);
  });

  it('/ready answers 200 while the database is reachable', async () => {
    const res = await fetch(`${s.url}/ready`);
    expect(res.status).toBe(200);
  });

  it('/ready answers 503 once the database is gone, while /health still answers 200', async () => {
    const other = await startServer();
    try {
      expect((await fetch(`${other.url}/ready`)).status).toBe(200);
      await other.app.db.close();
      expect((await fetch(`${other.url}/ready`)).status).toBe(503);
      expect((await fetch(`${other.url}/health`)).status).toBe(200);
    } finally {
      await other.stop();
    }
  });
});
