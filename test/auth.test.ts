// Who may do what, through every transport: each scope (and no key, a malformed key, a forged key)
// against each kind of operation over HTTP, SSE and graphql-ws; refusals change nothing; keys are
// stored as hashes, shown once, and revoking one closes the subscriptions it opened, whether it is
// revoked through the API or by the keys command while the server runs.
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';

import Sqlite from 'better-sqlite3';
import { print } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { parseKey } from '../src/auth/key-material';
import { runKeysCli } from '../src/auth/keys-cli';
import { tableChecksums } from './helpers/db-checksum';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { bearer, useTestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { errorCode, via, viaHttp, viaSse, type Outcome, type Transport } from './helpers/transports';
import { CreateApiKey, CreateRun, ListApiKeys, OnRunStatus, RevokeApiKey, WhoAmI } from './operations';

const FORGED = `atl_0123456789abcdef_${'A'.repeat(43)}`;

const s = useTestServer({
  keys: { reader: 'read', writer: 'write', admin: 'admin' },
  auth: { revocationCheckMs: 150 },
});
let runId: string;
const admin = () => bearer(s.keys.admin);

beforeAll(async () => {
  const res = await s.gql(
    CreateRun,
    { input: { mode: 'TRACKED', modelName: 'm', projectName: 'auth', taskDescription: 't' } },
    admin(),
  );
  runId = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run.id;
});

type Kind = 'query' | 'subscription' | 'run mutation' | 'ingestion mutation' | 'admin query' | 'admin mutation';

/** One operation of each kind; each call builds fresh variables so allowed writes never clash. */
const OPERATIONS: Record<Kind, () => { query: string; variables: Record<string, unknown> }> = {
  query: () => ({ query: '{ runs(first: 1) { totalCount } }', variables: {} }),
  subscription: () => ({ query: print(OnRunStatus), variables: { runId, afterEventId: '0' } }),
  'run mutation': () => ({
    query: 'mutation($input: CreateTrainingRunInput!) { createTrainingRun(input: $input) { __typename } }',
    variables: {
      input: { mode: 'TRACKED', modelName: 'm', projectName: 'auth', taskDescription: 'made in the scope matrix' },
    },
  }),
  'ingestion mutation': () => ({
    query:
      'mutation($runId: ID!, $t: [TrajectoryInput!]!) { recordTrajectories(runId: $runId, trajectories: $t) { __typename } }',
    variables: {
      runId,
      t: [
        {
          uuid: randomUUID(),
          taskInput: { step: 0, inputText: 'in' },
          messages: [{ role: 'user', content: 'hi' }],
          reward: 1,
        },
      ],
    },
  }),
  'admin query': () => ({ query: '{ apiKeys { id name } }', variables: {} }),
  'admin mutation': () => ({
    query: 'mutation($n: String!) { createApiKey(name: $n, scope: READ) { __typename } }',
    variables: { n: `made-${randomUUID().slice(0, 8)}` },
  }),
};
const KINDS = Object.keys(OPERATIONS) as Kind[];

const ALLOWED: Record<'reader' | 'writer' | 'admin', Kind[]> = {
  reader: ['query', 'subscription'],
  writer: ['query', 'subscription', 'run mutation', 'ingestion mutation'],
  admin: KINDS,
};

/** Subscriptions need a streaming transport; everything else goes over all three. */
const transportsFor = (kind: Kind): Transport[] => (kind === 'subscription' ? ['sse', 'ws'] : ['http', 'sse', 'ws']);

function run(transport: Transport, kind: Kind, key: string | undefined): Promise<Outcome> {
  const { query, variables } = OPERATIONS[kind]();
  return via(transport, s.url, query, variables, key);
}

describe('scopes × operations × transports', () => {
  it('refuses everything without a valid key and everything above a key’s scope, changing nothing', async () => {
    const dbPath = join(s.dir, 'atelier.sqlite');
    await waitFor(async () => (await s.app.db.writes.run(async () => true)) === true, 1000, 'the write queue');
    const before = tableChecksums(dbPath);
    const refused: string[] = [];
    const cases: Array<[string, string | undefined, Kind, 'UNAUTHENTICATED' | 'FORBIDDEN']> = [];
    for (const kind of KINDS) {
      for (const [label, key] of [
        ['no key', undefined],
        ['a malformed key', 'not-a-key'],
        ['a forged key', FORGED],
      ] as const)
        cases.push([label, key, kind, 'UNAUTHENTICATED']);
      for (const role of ['reader', 'writer'] as const)
        if (!ALLOWED[role].includes(kind)) cases.push([role, s.keys[role], kind, 'FORBIDDEN']);
    }
    for (const [label, key, kind, code] of cases) {
      for (const transport of transportsFor(kind)) {
        const outcome = await run(transport, kind, key);
        const got = errorCode(outcome);
        if (got !== code)
          refused.push(
            `${label} / ${kind} / ${transport}: expected ${code}, got ${got} ${JSON.stringify(outcome.result)}`,
          );
        expect(outcome.result?.data ?? null).toBeNull();
        if (transport === 'http') {
          expect(outcome.status).toBe(code === 'UNAUTHENTICATED' ? 401 : 403);
          if (code === 'UNAUTHENTICATED') expect(outcome.headers?.get('www-authenticate')).toMatch(/^Bearer/);
        }
      }
    }
    expect(refused).toEqual([]);
    expect(cases.length).toBeGreaterThan(20);
    // Nothing was written, not even last_used_at (the keys here had not been used before).
    await s.app.db.writes.run(async () => undefined);
    expect(tableChecksums(dbPath)).toEqual(before);
  });

  it('lets each scope do what it allows, on every transport', async () => {
    const failures: string[] = [];
    for (const role of ['reader', 'writer', 'admin'] as const) {
      for (const kind of ALLOWED[role]) {
        for (const transport of transportsFor(kind)) {
          const outcome = await run(transport, kind, s.keys[role]);
          if (errorCode(outcome) !== null || !outcome.result?.data)
            failures.push(`${role} / ${kind} / ${transport}: ${JSON.stringify(outcome)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('tells a caller who it is', async () => {
    expect((await s.gql(WhoAmI, {}, bearer(s.keys.writer))).viewer).toEqual({
      authenticated: true,
      scope: 'WRITE',
      keyName: 'writer',
      openAccess: false,
    });
    const anonymous = await s.request(WhoAmI, {});
    expect(errorCode({ result: anonymous })).toBe('UNAUTHENTICATED');
  });

  it('works with the real graphql-sse client sending the key as a header', async () => {
    const client = createSseClient({ url: s.graphqlUrl, retryAttempts: 0, headers: bearer(s.keys.reader) });
    const events = client.iterate({ query: print(OnRunStatus), variables: { runId, afterEventId: '0' } });
    const first = await events.next();
    expect((first.value as { data: { runStatusChanged: { to: string } } }).data.runStatusChanged.to).toBe('PENDING');
    await events.return?.();
    client.dispose();
  });

  it('accepts the key in graphql-ws connectionParams as Authorization or as apiKey', async () => {
    for (const params of [{ Authorization: `Bearer ${s.keys.reader}` }, { apiKey: s.keys.reader }]) {
      const client = createWsClient({
        url: s.url.replace('http', 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: params,
      });
      const result = await new Promise<unknown>((resolve, reject) =>
        client.subscribe(
          { query: '{ viewer { keyName } }' },
          { next: resolve, error: reject, complete: () => undefined },
        ),
      );
      expect(result).toEqual({ data: { viewer: { keyName: 'reader' } } });
      await client.dispose();
    }
  });
});

describe('keys', () => {
  it('are made by admins through the API, shown once and stored only as a SHA-256 of the secret', async () => {
    const { secret, apiKey } = expectResult(
      (await s.gql(CreateApiKey, { name: 'ci', scope: 'WRITE' }, admin())).createApiKey,
      'CreateApiKeyPayload',
    );
    expect(secret).toMatch(/^atl_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ name: 'ci', scope: 'WRITE', lastUsedAt: null, revokedAt: null });
    expect(secret.startsWith(`atl_${apiKey.id}_`)).toBe(true);

    const listed = (await s.gql(ListApiKeys, {}, admin())).apiKeys.find((k) => k.id === apiKey.id);
    expect(listed).toMatchObject({ name: 'ci', scope: 'WRITE' });
    expect(JSON.stringify(listed)).not.toContain(parseKey(secret)!.secret);

    const db = new Sqlite(join(s.dir, 'atelier.sqlite'), { readonly: true });
    const row = db.prepare('SELECT * FROM api_keys WHERE key_id = ?').get(apiKey.id) as Record<string, unknown>;
    db.close();
    const secretPart = secret.slice(`atl_${apiKey.id}_`.length);
    expect(row.secret_hash).toBe(createHash('sha256').update(secretPart).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secretPart);

    const again = await s.gql(CreateApiKey, { name: 'ci', scope: 'READ' }, admin());
    expectResult(again.createApiKey, 'ConflictError');
    const bad = await s.gql(CreateApiKey, { name: ' bad\nname', scope: 'READ' }, admin());
    expectResult(bad.createApiKey, 'ValidationError');
  });

  it('record when they were last used, writing at most once a minute per key', async () => {
    const made = expectResult(
      (await s.gql(CreateApiKey, { name: 'usage', scope: 'READ' }, admin())).createApiKey,
      'CreateApiKeyPayload',
    );
    const find = async () => (await s.gql(ListApiKeys, {}, admin())).apiKeys.find((k) => k.name === 'usage')!;
    expect((await find()).lastUsedAt).toBeNull();
    await s.gql(WhoAmI, {}, bearer(made.secret));
    await waitFor(async () => (await find()).lastUsedAt !== null, 2000, 'last_used_at');
    const first = (await find()).lastUsedAt;
    for (let i = 0; i < 5; i++) await s.gql(WhoAmI, {}, bearer(made.secret));
    await s.app.db.writes.run(async () => undefined);
    expect((await find()).lastUsedAt).toBe(first);
  });
});

describe('revocation', () => {
  async function makeKey(name: string, scope: 'READ' | 'WRITE' = 'READ') {
    return expectResult((await s.gql(CreateApiKey, { name, scope }, admin())).createApiKey, 'CreateApiKeyPayload');
  }

  function liveWs(token: string) {
    const closes: { code: number; reason: string }[] = [];
    const client = createWsClient({
      url: s.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { Authorization: `Bearer ${token}` },
      on: { closed: (e) => closes.push({ code: (e as CloseEvent).code, reason: (e as CloseEvent).reason }) },
    });
    const errors: unknown[] = [];
    const done = new Promise<void>((resolve) =>
      client.subscribe(
        { query: print(OnRunStatus), variables: { runId } },
        { next: () => undefined, error: (e) => (errors.push(e), resolve()), complete: () => resolve() },
      ),
    );
    return { client, closes, errors, done };
  }

  it('through the API closes the live subscriptions the key opened, over graphql-ws (close 4401) and SSE, and refuses it from then on', async () => {
    const key = await makeKey('temporary');
    const baseline = s.app.events.listenerCount();
    const ws = liveWs(key.secret);
    const sse = viaSse(s.url, print(OnRunStatus), { runId }, bearer(key.secret), 10_000);
    await waitFor(() => s.app.sessions.count(key.apiKey.id) === 2, 5000, 'two live subscriptions for the key');

    const revoked = await s.gql(RevokeApiKey, { id: key.apiKey.id }, admin());
    expect(revoked.revokeApiKey).toMatchObject({ __typename: 'RevokeApiKeyPayload', apiKey: { id: key.apiKey.id } });

    await ws.done;
    expect(ws.errors).toEqual([
      [
        expect.objectContaining({
          message: expect.stringMatching(/revoked/),
          extensions: { code: 'UNAUTHENTICATED', reason: 'API_KEY_REVOKED' },
        }),
      ],
    ]);
    await waitFor(() => ws.closes.length > 0, 5000, 'the socket to close');
    expect(ws.closes[0]).toEqual({ code: 4401, reason: 'Unauthorized: API key revoked' });

    const sseOutcome = await sse;
    expect(sseOutcome.result?.errors?.[0]).toMatchObject({
      extensions: { code: 'UNAUTHENTICATED', reason: 'API_KEY_REVOKED' },
    });

    await waitFor(() => s.app.events.listenerCount() === baseline, 5000, 'listeners released');
    expect(s.app.sessions.count(key.apiKey.id)).toBe(0);
    const after = await viaHttp(s.url, '{ viewer { keyName } }', {}, bearer(key.secret));
    expect(after.status).toBe(401);
    expect(after.result?.errors?.[0].message).toMatch(/revoked/);
    await ws.client.dispose();
  });

  it('by the keys command while the server runs closes the key’s subscriptions within the check interval', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: () => undefined };
    const env = { DATABASE_URL: `sqlite:${join(s.dir, 'atelier.sqlite')}` };
    expect(await runKeysCli(['create', '--name', 'from-cli', '--scope', 'read'], env, io)).toBe(0);
    const token = out[0];
    const keyId = parseKey(token)!.keyId;
    const ws = liveWs(token);
    await waitFor(() => s.app.sessions.count(keyId) === 1, 5000, 'the subscription');
    expect(await runKeysCli(['revoke', 'from-cli'], env, io)).toBe(0);
    const started = Date.now();
    await ws.done;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(ws.errors).toEqual([
      [expect.objectContaining({ extensions: { code: 'UNAUTHENTICATED', reason: 'API_KEY_REVOKED' } })],
    ]);
    await waitFor(() => ws.closes[0]?.code === 4401, 5000, 'the socket to close with 4401');
    await ws.client.dispose();
  });

  it('of an unknown key is a NotFoundError; revoking twice is harmless', async () => {
    const key = await makeKey('twice');
    expectResult((await s.gql(RevokeApiKey, { id: key.apiKey.id }, admin())).revokeApiKey, 'RevokeApiKeyPayload');
    expectResult((await s.gql(RevokeApiKey, { id: key.apiKey.id }, admin())).revokeApiKey, 'RevokeApiKeyPayload');
    expectResult((await s.gql(RevokeApiKey, { id: 'ffffffffffffffff' }, admin())).revokeApiKey, 'NotFoundError');
  });
});

describe('open access on loopback', () => {
  const open = useTestServer();

  it('runs open while no key was ever made, still checks a presented key, and requires keys once one is made', async () => {
    expect((await open.gql(WhoAmI)).viewer).toEqual({
      authenticated: false,
      scope: 'ADMIN',
      keyName: null,
      openAccess: true,
    });
    expect(errorCode(await viaHttp(open.url, '{ viewer { scope } }', {}, bearer(FORGED)))).toBe('UNAUTHENTICATED');

    // A first key that is not an admin key would require keys from now on with nobody able to manage them.
    for (const scope of ['READ', 'WRITE'] as const) {
      const refused = expectResult(
        (await open.gql(CreateApiKey, { name: `first-${scope}`, scope })).createApiKey,
        'ValidationError',
      );
      expect(refused.issues).toEqual([
        expect.objectContaining({
          field: 'scope',
          rule: 'first_key_admin',
          message: expect.stringMatching(/the first key must be an admin key/),
        }),
      ]);
    }
    expect((await open.gql(WhoAmI)).viewer.openAccess).toBe(true);
    expect((await open.gql(ListApiKeys)).apiKeys).toEqual([]);

    const made = expectResult(
      (await open.gql(CreateApiKey, { name: 'first-admin', scope: 'ADMIN' })).createApiKey,
      'CreateApiKeyPayload',
    );
    expectResult(
      (await open.gql(CreateApiKey, { name: 'then-a-writer', scope: 'WRITE' }, bearer(made.secret))).createApiKey,
      'CreateApiKeyPayload',
    );
    // Nor can the last admin key be revoked through the API.
    const last = expectResult(
      (await open.gql(RevokeApiKey, { id: made.apiKey.id }, bearer(made.secret))).revokeApiKey,
      'ConflictError',
    );
    expect(last.message).toMatch(/last active admin key/);

    for (const transport of ['http', 'sse', 'ws'] as const) {
      expect(errorCode(await via(transport, open.url, '{ runs(first: 1) { totalCount } }'))).toBe('UNAUTHENTICATED');
      expect(
        errorCode(await via(transport, open.url, '{ runs(first: 1) { totalCount } }', {}, made.secret)),
      ).toBeNull();
    }
  });
});

describe.skipIf(!postgresUrl)(postgresSuiteTitle('on PostgreSQL'), () => {
  let pg: FreshPostgresDatabase;
  beforeAll(async () => {
    pg = await createPostgresDatabase();
  });
  afterAll(() => pg?.drop());
  const p = useTestServer(() => ({ databaseUrl: pg.url, keys: { admin: 'admin', reader: 'read' } }));

  it('enforces scopes, makes, uses and revokes keys the same way', async () => {
    const create = 'mutation($input: CreateTrainingRunInput!) { createTrainingRun(input: $input) { __typename } }';
    const input = { input: { mode: 'TRACKED', modelName: 'm', projectName: 'pg', taskDescription: 't' } };
    expect(errorCode(await via('http', p.url, create, input, p.keys.reader))).toBe('FORBIDDEN');
    expect(errorCode(await via('ws', p.url, create, input, p.keys.admin))).toBeNull();
    const made = expectResult(
      (await p.gql(CreateApiKey, { name: 'pg-writer', scope: 'WRITE' }, bearer(p.keys.admin))).createApiKey,
      'CreateApiKeyPayload',
    );
    expect(errorCode(await via('sse', p.url, create, input, made.secret))).toBeNull();
    await waitFor(
      async () =>
        (await p.gql(ListApiKeys, {}, bearer(p.keys.admin))).apiKeys.find((k) => k.name === 'pg-writer')?.lastUsedAt !=
        null,
      2000,
      'last_used_at',
    );
    await p.gql(RevokeApiKey, { id: made.apiKey.id }, bearer(p.keys.admin));
    expect(errorCode(await via('http', p.url, create, input, made.secret))).toBe('UNAUTHENTICATED');
  });
});
