// Issue #12 item 4: GraphiQL's subscriptions over graphql-ws carry the Headers tab in each subscribe
// message's `extensions.headers`, not in connectionParams. With keys required, such an operation is
// authenticated by its own Authorization header (when the connection carried no credentials): a
// bad or revoked key is refused as elsewhere, the key's subscription cap counts it, and revoking the
// key ends it. Everything here goes through the real graphql-ws client.
import { print, type ExecutionResult, type GraphQLFormattedError } from 'graphql';
import type { Client } from 'graphql-ws';
import { describe, expect, it } from 'vitest';

import { expectResult } from './helpers/results';
import { bearer, useTestServer } from './helpers/server';
import { waitFor, wsClient } from './helpers/subscriptions';
import { CreateApiKey, CreateRun, OnRunStatus, RevokeApiKey, TransitionRun } from './operations';

const s = useTestServer({
  keys: { reader: 'read', writer: 'write', admin: 'admin' },
  limits: { maxSubscriptionsPerKey: 2 },
});

async function newRun(): Promise<string> {
  const res = await s.gql(
    CreateRun,
    { input: { mode: 'TRACKED', modelName: 'm', projectName: 'ws-headers', taskDescription: 't' } },
    bearer(s.keys.writer),
  );
  return expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run.id;
}

/** One subscription whose credentials travel as GraphiQL sends them: in the subscribe message's extensions.headers. */
function watch(client: Client, runId: string, headers: Record<string, string>) {
  const results: ExecutionResult[] = [];
  const errors: GraphQLFormattedError[][] = [];
  let ended = false;
  const stop = client.subscribe(
    { query: print(OnRunStatus), variables: { runId }, extensions: { headers } },
    {
      next: (r) => void results.push(r as ExecutionResult),
      error: (e) => {
        ended = true;
        if (Array.isArray(e)) errors.push(e as GraphQLFormattedError[]);
        else errors.push([{ message: String((e as { reason?: string }).reason ?? e) }]);
      },
      complete: () => void (ended = true),
    },
  );
  return { results, errors, stop, ended: () => ended };
}

/** The first error the operation got, as an error message or inside a result. */
const firstError = (w: ReturnType<typeof watch>) =>
  w.errors[0]?.[0] ?? w.results.find((r) => r.errors?.length)?.errors?.[0];
const codeOf = (w: ReturnType<typeof watch>) =>
  (firstError(w)?.extensions as { code?: string } | undefined)?.code ?? null;

describe('graphql-ws operations authenticated by extensions.headers (no connectionParams)', () => {
  it('receives the events of a run when the subscribe message carries a valid key', async () => {
    const runId = await newRun();
    const client = wsClient(s.url); // no connectionParams at all, as GraphiQL
    try {
      const w = watch(client, runId, { Authorization: `Bearer ${s.keys.reader}` });
      await waitFor(() => s.app.sessions.count() > 0 || w.ended(), 5000, 'the subscription to start');
      expect(w.errors, JSON.stringify(w.errors)).toEqual([]);
      await s.gql(TransitionRun, { runId, to: 'GENERATING' }, bearer(s.keys.writer));
      await waitFor(() => w.results.length > 0 || w.ended(), 5000, 'the event');
      expect(w.results[0]?.errors).toBeUndefined();
      expect(w.results[0]?.data).toMatchObject({
        runStatusChanged: { from: 'PENDING', to: 'GENERATING', run: { id: runId } },
      });
      // Lower-case header names work too, as in HTTP.
      const live = s.app.sessions.count();
      const lower = watch(client, runId, { authorization: `Bearer ${s.keys.reader}` });
      await waitFor(() => s.app.sessions.count() > live || lower.ended(), 5000, 'the second subscription to start');
      await s.gql(TransitionRun, { runId, to: 'COLLECTING' }, bearer(s.keys.writer));
      await waitFor(() => lower.results.length > 0 || lower.ended(), 5000, 'the event (lower-case header)');
      expect(lower.results[0]?.data).toMatchObject({ runStatusChanged: { to: 'COLLECTING' } });
      w.stop();
      lower.stop();
    } finally {
      await client.dispose();
    }
  });

  it('refuses a missing, malformed or unknown key with UNAUTHENTICATED, and a read key a mutation with FORBIDDEN, per operation on one connection', async () => {
    const runId = await newRun();
    const client = wsClient(s.url);
    try {
      const none = watch(client, runId, {});
      const malformed = watch(client, runId, { Authorization: 'Basic abc' });
      const unknown = watch(client, runId, { Authorization: `Bearer atl_0123456789abcdef_${'A'.repeat(43)}` });
      const good = watch(client, runId, { Authorization: `Bearer ${s.keys.reader}` });
      await waitFor(() => none.ended() && malformed.ended() && unknown.ended(), 5000, 'the refusals');
      expect([codeOf(none), codeOf(malformed), codeOf(unknown)]).toEqual([
        'UNAUTHENTICATED',
        'UNAUTHENTICATED',
        'UNAUTHENTICATED',
      ]);
      expect(good.ended()).toBe(false);

      const mutation = await new Promise<ExecutionResult>((resolve, reject) =>
        client.subscribe(
          {
            query: 'mutation($id: ID!) { transitionRun(runId: $id, to: CANCELLED, reason: "x") { __typename } }',
            variables: { id: runId },
            extensions: { headers: { Authorization: `Bearer ${s.keys.reader}` } },
          },
          {
            next: (r) => resolve(r as ExecutionResult),
            error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(e)),
            complete: () => undefined,
          },
        ),
      );
      expect(mutation.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
      good.stop();
    } finally {
      await client.dispose();
    }
  });

  it('counts each operation against its key’s subscription cap, and revoking the key ends its subscriptions (the connection and other keys’ operations go on)', async () => {
    const runId = await newRun();
    const made = expectResult(
      (await s.gql(CreateApiKey, { name: 'graphiql-tab', scope: 'READ' }, bearer(s.keys.admin))).createApiKey,
      'CreateApiKeyPayload',
    );
    const client = wsClient(s.url);
    try {
      const a = watch(client, runId, { Authorization: `Bearer ${made.secret}` });
      const b = watch(client, runId, { Authorization: `Bearer ${made.secret}` });
      await waitFor(() => s.app.sessions.count(made.apiKey.id) === 2, 5000, 'two live subscriptions for the key');
      const third = watch(client, runId, { Authorization: `Bearer ${made.secret}` });
      await waitFor(() => third.ended(), 5000, 'the third to be refused');
      expect(firstError(third)?.extensions).toMatchObject({
        code: 'LIMIT_EXCEEDED',
        limit: 'maxSubscriptionsPerKey',
        max: 2,
      });
      // Another key on the same connection has its own count.
      const live = s.app.sessions.count();
      const other = watch(client, runId, { Authorization: `Bearer ${s.keys.reader}` });
      await waitFor(() => s.app.sessions.count() > live, 5000, 'the other key’s subscription to start');

      await s.gql(RevokeApiKey, { id: made.apiKey.id }, bearer(s.keys.admin));
      await waitFor(() => a.ended() && b.ended(), 5000, 'the revoked key’s subscriptions to end');
      for (const w of [a, b])
        expect(firstError(w)?.extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'API_KEY_REVOKED' });
      expect(s.app.sessions.count(made.apiKey.id)).toBe(0);

      await s.gql(TransitionRun, { runId, to: 'GENERATING' }, bearer(s.keys.writer));
      await waitFor(() => other.results.length > 0 || other.ended(), 5000, 'the other key’s event');
      expect(other.results[0]?.data).toMatchObject({ runStatusChanged: { to: 'GENERATING' } });
      const again = watch(client, runId, { Authorization: `Bearer ${made.secret}` });
      await waitFor(() => again.ended(), 5000, 'the revoked key to be refused');
      expect(firstError(again)).toMatchObject({
        message: expect.stringMatching(/revoked/),
        extensions: { code: 'UNAUTHENTICATED' },
      });
      other.stop();
    } finally {
      await client.dispose();
    }
  });

  it('lets connectionParams decide when the connection carried credentials', async () => {
    const runId = await newRun();
    const client = wsClient(s.url, { Authorization: `Bearer ${s.keys.reader}` });
    try {
      // The connection's valid key is used; the operation's unknown one is not consulted.
      const before = s.app.sessions.count();
      const w = watch(client, runId, { Authorization: 'Bearer atl_nope' });
      await waitFor(() => s.app.sessions.count() > before || w.ended(), 5000, 'the subscription to start');
      await s.gql(TransitionRun, { runId, to: 'GENERATING' }, bearer(s.keys.writer));
      await waitFor(() => w.results.length > 0 || w.ended(), 5000, 'the event');
      expect(w.results[0]?.data).toMatchObject({ runStatusChanged: { to: 'GENERATING' } });
      w.stop();
    } finally {
      await client.dispose();
    }
  });
});
