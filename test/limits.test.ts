// What a request may cost: every limit tripped through the real transports, each refusal naming
// its limit (and the setting that moves it), and nothing stored by a refused request. Depth,
// aliases, tokens, directives and estimated cost; page size; ingestion batch sizes; request body
// and WebSocket message size; and the per-key mutation rate limit with HTTP 429 and Retry-After.
import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { createRun, trajectory } from './helpers/builders';
import { bearer, useTestServer } from './helpers/server';
import { errorCode, TRANSPORTS, via, viaHttp, viaWs } from './helpers/transports';
import { ListRuns, RecordMetrics, RecordTrajectories } from './operations';

const s = useTestServer();

function limitOf(result: { errors?: readonly { extensions?: Record<string, unknown> }[] } | undefined) {
  return result?.errors?.[0]?.extensions?.limit;
}

/** runs → edges → node, then [trajectories, edges, node, run] repeated: depth 3 + 4 × levels + 1. */
function nested(levels: number): string {
  let inner = 'id';
  for (let i = 0; i < levels; i++) inner = `trajectories(first: 1) { edges { node { run { ${inner} } } } }`;
  return `{ runs(first: 1) { edges { node { ${inner} } } } }`;
}

describe('operation shape', () => {
  it.each([
    ['maxDepth', 'MAX_QUERY_DEPTH', nested(3)],
    [
      'maxAliases',
      'MAX_QUERY_ALIASES',
      `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: runs(first: 1) { totalCount }`).join(' ')} }`,
    ],
    ['maxTokens', 'MAX_QUERY_TOKENS', `{ runs(first: 1) { ${'totalCount '.repeat(5001)} } }`],
    ['maxDirectives', 'MAX_QUERY_DIRECTIVES', `{ runs(first: 1) { ${'totalCount @include(if: true) '.repeat(51)} } }`],
  ])('refuses an operation over %s on every transport, naming the limit', async (limit, env, query) => {
    for (const transport of TRANSPORTS) {
      const outcome = await via(transport, s.url, query);
      expect(errorCode(outcome), `${limit} over ${transport}`).toBe('LIMIT_EXCEEDED');
      expect(limitOf(outcome.result)).toBe(limit);
      const message = outcome.result!.errors![0].message;
      expect(message).toContain(limit);
      expect(message).toContain(env);
      expect(outcome.result?.data ?? null).toBeNull();
      if (transport === 'http') expect(outcome.status).toBe(400);
    }
  });

  it('accepts operations just inside the shape limits', async () => {
    expect(errorCode(await viaHttp(s.url, nested(2)))).toBeNull();
    expect(
      errorCode(
        await viaHttp(
          s.url,
          `{ ${Array.from({ length: 15 }, (_, i) => `a${i}: runs(first: 1) { totalCount }`).join(' ')} }`,
        ),
      ),
    ).toBeNull();
  });

  it('refuses an operation whose estimated cost is over maxCost before it runs, and allows the same with smaller pages', async () => {
    const query = (first: number) =>
      `{ runs(first: ${first}) { edges { node { id trajectories(first: ${first}) { edges { node { id uuid reward createdAt metadata messages { role content } taskInput { step inputText context } } } } } } } }`;
    const big = await viaHttp(s.url, query(100));
    expect(big.status).toBe(400);
    expect(big.result?.errors?.[0]).toMatchObject({
      extensions: { code: 'LIMIT_EXCEEDED', limit: 'maxCost', max: 200_000, found: expect.any(Number) },
    });
    expect(big.result?.errors?.[0].message).toMatch(/estimated cost \d+ exceeds the limit of 200000.*MAX_QUERY_COST/);
    expect(errorCode(await viaHttp(s.url, query(10)))).toBeNull();
    // Variables count as well as literals, and subscriptions are costed too.
    const viaVariables = await viaHttp(
      s.url,
      query(100)
        .replace(/first: 100/g, 'first: $n')
        .replace(/^\{/, 'query($n: Int) {'),
      { n: 100 },
    );
    expect(limitOf(viaVariables.result)).toBe('maxCost');
  });

  it('costs nodes(ids:) by the number of ids it is given, as runs(first:) by its page', async () => {
    const run = await createRun(s);
    const query = (count: number) =>
      `query($ids: [ID!]!) { nodes(ids: $ids) { ... on TrainingRun { id trajectories(first: 100) { edges { node { id uuid reward createdAt metadata messages { role content } taskInput { step inputText context } } } } } } }`;
    // 100 ids is the runs(first: 100) query above, over the limit: refused before anything is read.
    const big = await viaHttp(s.url, query(100), { ids: Array.from({ length: 100 }, () => run.id) });
    expect(big.status).toBe(400);
    expect(big.result?.errors?.[0]).toMatchObject({ extensions: { code: 'LIMIT_EXCEEDED', limit: 'maxCost' } });
    // The same ids written as literals.
    const literal = await viaHttp(
      s.url,
      `{ nodes(ids: [${Array(100).fill(JSON.stringify(run.id)).join(',')}]) { id ... on TrainingRun { trajectories(first: 100) { edges { node { id uuid reward createdAt metadata messages { role content } taskInput { step inputText context } } } } } } }`,
    );
    expect(limitOf(literal.result)).toBe('maxCost');
    // A few ids cost what they fetch.
    const small = await viaHttp(s.url, query(5), { ids: Array.from({ length: 5 }, () => run.id) });
    expect(errorCode(small)).toBeNull();
    expect(small.result?.data).toMatchObject({ nodes: Array.from({ length: 5 }, () => ({ id: run.id })) });
  });

  it('refuses pages over 100 with a validation error naming the maximum', async () => {
    const res = await s.request(ListRuns, { first: 101 });
    expect(res.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/first must be at most 100/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect((await s.gql(ListRuns, { first: 100 })).runs).toBeDefined();
  });
});

describe('ingestion batches', () => {
  it('refuses more than 1000 trajectories or 1000 metric points in one call, storing nothing', async () => {
    const run = await createRun(s);
    const trajectories = Array.from({ length: 1001 }, () => trajectory(0, 0.5));
    const t = await s.gql(RecordTrajectories, { runId: run.id, trajectories });
    expect(t.recordTrajectories).toMatchObject({
      __typename: 'ValidationError',
      message: expect.stringMatching(/at most 1000 trajectories per call/),
    });
    const points = Array.from({ length: 1001 }, (_, step) => ({ step, epoch: 0 }));
    const m = await s.gql(RecordMetrics, { runId: run.id, points });
    expect(m.recordMetrics).toMatchObject({ __typename: 'ValidationError', message: expect.stringMatching(/1000/) });
    const after = await s.request(`{ run(id: "${run.id}") { metrics { totalTrajectories } metricHistory { step } } }`);
    expect(after.data).toEqual({ run: { metrics: null, metricHistory: [] } });
  });
});

describe('request size', () => {
  const MAX = 64 * 1024;
  const small = useTestServer({ limits: { maxBodyBytes: MAX } });

  const bigBody = () =>
    JSON.stringify({
      query:
        'mutation($t: String!) { createTrainingRun(input: {modelName: "m", projectName: "p", taskDescription: $t}) { __typename } }',
      variables: { t: 'x'.repeat(MAX) },
    });

  it('refuses a body over maxBodyBytes with 413, whether its length is declared or streamed', async () => {
    const declared = await fetch(small.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bigBody(),
    });
    expect(declared.status).toBe(413);
    const body = await declared.json();
    expect(body.errors[0]).toMatchObject({ extensions: { code: 'LIMIT_EXCEEDED', limit: 'maxBodyBytes', max: MAX } });
    expect(body.errors[0].message).toMatch(/MAX_BODY_BYTES/);

    const bytes = new TextEncoder().encode(bigBody());
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.subarray(i, i + 8192));
        controller.close();
      },
    });
    const chunked = await fetch(small.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await chunked.json()).errors[0].extensions.limit).toBe('maxBodyBytes');

    expect((await small.gql(ListRuns, {})).runs.totalCount).toBe(0);
    expect((await fetch(`${small.url}/health`)).status).toBe(200);
  });

  it('closes a WebSocket whose message is over maxBodyBytes (1009) and keeps serving others', async () => {
    const ws = new WebSocket(small.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws');
    await new Promise((r) => ws.once('open', r));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send(JSON.stringify({ type: 'connection_init', payload: { pad: 'x'.repeat(MAX) } }));
    expect(await closed).toBe(1009);
    expect(errorCode(await viaWs(small.url, '{ runs(first: 1) { totalCount } }'))).toBeNull();
  });
});

describe('mutation rate limit', () => {
  const limited = useTestServer({
    keys: { trainer: 'write', other: 'write' },
    rateLimit: { mutationsPerSecond: 1, burst: 3 },
  });

  const create = 'mutation($input: CreateTrainingRunInput!) { createTrainingRun(input: $input) { __typename } }';
  const run = (uuid: string) => ({
    input: { mode: 'TRACKED', uuid, modelName: 'm', projectName: 'rate', taskDescription: 't' },
  });

  it('answers a burst over the limit with 429 and Retry-After, per key, storing nothing for refused calls; queries are not limited', async () => {
    const key = limited.keys.trainer;
    for (let i = 0; i < 3; i++)
      expect(errorCode(await viaHttp(limited.url, create, run(randomUUID()), bearer(key)))).toBeNull();
    const refusedUuid = randomUUID();
    const refused = await viaHttp(limited.url, create, run(refusedUuid), bearer(key));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers?.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.result?.errors?.[0]).toMatchObject({
      extensions: { code: 'RATE_LIMITED', limit: 'mutationRate', retryAfter },
    });
    expect(refused.result?.errors?.[0].message).toMatch(/RATE_LIMIT_MUTATIONS_PER_SECOND/);
    expect(refused.result?.errors?.[0].extensions).not.toHaveProperty('http');

    // The refused run was not made; reads go on; another key has its own bucket.
    const found = await viaHttp(limited.url, `{ run(uuid: "${refusedUuid}") { id } }`, {}, bearer(key));
    expect(found.result).toEqual({ data: { run: null } });
    expect(errorCode(await viaHttp(limited.url, create, run(randomUUID()), bearer(limited.keys.other)))).toBeNull();

    // Over graphql-ws the same refusal arrives as an error.
    const overWs = await via('ws', limited.url, create, run(randomUUID()), key);
    expect(errorCode(overWs)).toBe('RATE_LIMITED');

    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 50));
    expect(errorCode(await viaHttp(limited.url, create, run(randomUUID()), bearer(key)))).toBeNull();
  });
});

describe('mutation rate limit while open', () => {
  const open = useTestServer({ rateLimit: { mutationsPerSecond: 0.5, burst: 2 } });

  it('counts mutations per client address when no key is used', async () => {
    const create = 'mutation($input: CreateTrainingRunInput!) { createTrainingRun(input: $input) { __typename } }';
    const input = { input: { mode: 'TRACKED', modelName: 'm', projectName: 'open-rate', taskDescription: 't' } };
    expect(errorCode(await viaHttp(open.url, create, input))).toBeNull();
    expect(errorCode(await via('ws', open.url, create, input))).toBeNull();
    const third = await viaHttp(open.url, create, input);
    expect(third.status).toBe(429);
    expect(Number(third.headers?.get('retry-after'))).toBe(2);
  });
});
