// The README's "Clients" section, run: Apollo Client 4, urql, graphql-ws and graphql-sse talk to a real
// server that requires API keys, with the code the README shows. The README's code blocks are the
// files in test/clients/ and the `#region readme:` parts of this file, verbatim: the first test fails
// when they differ.

import { ApolloClient, CombinedGraphQLErrors, HttpLink, InMemoryCache, type ObservableQuery } from '@apollo/client';
import type { ResultOf } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';

import { expectedBlocks, readmeBlocks } from '../scripts/readme-clients';
import { createApolloClient, createTrackedRun } from './clients/apollo';
import { createWsClient, followRun } from './clients/graphql-ws';
import { BestTrajectories, CreateTrackedRun, MoveRun, RunsPage, RunStatusChanged } from './clients/operations';
import { createSseClient } from './clients/sse';
import { createUrqlClient } from './clients/urql';
import type { TrainingStatus } from './gql/graphql';
import { trajectory } from './helpers/builders';
import { expectResult } from './helpers/results';
import { bearer, useTestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { startTcpProxy } from './helpers/tcp-proxy';
import { GetRun, RecordTrajectories, TransitionRun } from './operations';

/** The complete data an Apollo watchQuery shows now. */
function current<T>(query: ObservableQuery<T, any>): T {
  const result = query.getCurrentResult();
  if (result.dataState !== 'complete') throw new Error(`the query is ${result.dataState}`);
  return result.data as T;
}

/** The normalized cache: one entry per object, keyed `<__typename>:<id>`. */
const entries = (client: ApolloClient) => client.cache.extract() as Record<string, Record<string, unknown>>;

describe('the README Clients section', () => {
  it('shows test/clients/*.ts, codegen.ts and the usage regions of this file verbatim', () => {
    const blocks = readmeBlocks();
    const expected = expectedBlocks();
    expect(expected.size).toBeGreaterThan(8);
    expect([...blocks.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, code] of expected) expect(blocks.get(name), `README block ${name}`).toBe(code);
  });
});

describe('clients, with the keys a server requires', () => {
  const s = useTestServer({ keys: { w: 'write', r: 'read' } });
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  // Setup and checks go around the clients under test: plain HTTP with the write key.
  const gql: typeof s.gql = (doc, variables, headers) => s.gql(doc, variables, headers ?? bearer(s.keys.w));
  async function makeRun(projectName: string) {
    const res = await gql(CreateTrackedRun, {
      input: {
        mode: 'TRACKED',
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName,
        taskDescription: 'Answer support tickets politely',
      },
    });
    return expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
  }
  async function moveRun(runId: string, to: TrainingStatus) {
    expectResult((await gql(TransitionRun, { runId, to })).transitionRun, 'TransitionRunPayload');
  }
  const statusListeners = () => s.app.events.listenerCount('runStatus');

  describe('Apollo Client 4', () => {
    function apollo() {
      const client = createApolloClient(s.graphqlUrl, s.keys.w);
      cleanups.push(() => client.stop());
      return client;
    }

    it('creates a TRACKED run: the union answers CreateTrainingRunPayload, and typed errors come through `... on Error`', async () => {
      const url = s.graphqlUrl;
      const apiKey = s.keys.w;
      // #region readme:apollo-create
      const client = createApolloClient(url, apiKey);
      const run = await createTrackedRun(client, {
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'support',
        taskDescription: 'Answer customer questions about shipping',
      });
      console.log(run.id, run.status); // a global id, PENDING
      // #endregion
      cleanups.push(() => client.stop());
      expect(run).toMatchObject({ __typename: 'TrainingRun', status: 'PENDING', projectName: 'support' });
      expect((await gql(GetRun, { id: run.id })).run?.uuid).toBeTruthy();

      // ValidationError names the field and the rule; ConflictError's message arrives through `... on Error`.
      const invalid = createTrackedRun(client, {
        modelName: 'm',
        projectName: 'support',
        taskDescription: 't',
        learningRate: 5,
      });
      await expect(invalid).rejects.toThrow(/^input\.learningRate: .+ \(too_big\)$/);
      const uuid = (await gql(GetRun, { id: run.id })).run!.uuid;
      const twice = createTrackedRun(client, { modelName: 'm', projectName: 'support', taskDescription: 't', uuid });
      await expect(twice).rejects.toThrow(/^ConflictError: \S+/);
    });

    it('needs possibleTypes: without them the cache cannot match `... on Error` to a ValidationError', async () => {
      const bare = new ApolloClient({
        link: new HttpLink({ uri: s.graphqlUrl, headers: bearer(s.keys.w) }),
        cache: new InMemoryCache(),
      });
      cleanups.push(() => bare.stop());
      const variables = {
        input: { mode: 'TRACKED' as const, modelName: 'm', projectName: 'p', taskDescription: 't', learningRate: 5 },
      };
      const withTypes = (await apollo().mutate({ mutation: CreateTrackedRun, variables })).data!.createTrainingRun;
      expect(withTypes).toMatchObject({ __typename: 'ValidationError', message: expect.any(String) });
      const without = (await bare.mutate({ mutation: CreateTrackedRun, variables })).data!.createTrainingRun;
      expect(without).toMatchObject({
        __typename: 'ValidationError',
        issues: [{ field: 'input.learningRate', rule: 'too_big' }],
      });
      expect(without).not.toHaveProperty('message'); // the server sent it; the cache dropped it
    });

    it('relayStylePagination: fetchMore appends the next page of runs to the same list; TrainingRun is normalized by id', async () => {
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await makeRun('ranking'));
      const newestFirst = made.map((r) => r.id).reverse();
      const client = apollo();
      const lengths: number[] = [];
      // #region readme:apollo-pages
      const variables = { filter: { projectName: 'ranking' }, first: 2 };
      const first = await client.query({ query: RunsPage, variables }); // page 1, now in the cache
      const runs = client.watchQuery({ query: RunsPage, variables }); // page 1, then pages 1 and 2 as one list
      runs.subscribe((result) => {
        if (result.dataState === 'complete') lengths.push(result.data.runs.edges.length);
      });
      await runs.fetchMore({ variables: { after: first.data?.runs.pageInfo.endCursor } });
      // #endregion
      await waitFor(() => lengths.at(-1) === 4, 5000, 'the merged list');
      expect(new Set(lengths)).toEqual(new Set([2, 4])); // page 1 (possibly shown twice as it settles), then both
      const merged = current(runs).runs;
      expect(merged.edges.map((e) => e.node.id)).toEqual(newestFirst.slice(0, 4));
      expect(merged.pageInfo.hasNextPage).toBe(true);
      expect(merged.totalCount).toBe(5);

      // One cache entry per run, TrainingRun:<id>: a mutation's answer updates the object the list shows.
      const key = client.cache.identify({ __typename: 'TrainingRun', id: newestFirst[1] });
      expect(key).toBe(`TrainingRun:${newestFirst[1]}`);
      expect(entries(client)[key!]).toMatchObject({ id: newestFirst[1], status: 'PENDING' });
      const moved = await client.mutate({ mutation: MoveRun, variables: { runId: newestFirst[1], to: 'GENERATING' } });
      expect(moved.data?.transitionRun.__typename).toBe('TransitionRunPayload');
      await waitFor(
        () => current(runs).runs.edges[1].node.status === 'GENERATING',
        5000,
        'the list to show the new status',
      );
      expect(current(runs).runs.edges).toHaveLength(4);
    });

    it('relayStylePagination on TrainingRun.trajectories: pages of a run merge under the run', async () => {
      const run = await makeRun('apollo-trajectories');
      const rewards = [0.1, 0.9, 0.5, 0.7, 0.3];
      expectResult(
        (await gql(RecordTrajectories, { runId: run.id, trajectories: rewards.map((r) => trajectory(0, r)) }))
          .recordTrajectories,
        'RecordTrajectoriesPayload',
      );
      const client = apollo();
      const best = client.watchQuery({ query: BestTrajectories, variables: { runId: run.id, first: 3 } });
      best.subscribe(() => undefined);
      await waitFor(() => best.getCurrentResult().dataState === 'complete');
      await best.fetchMore({ variables: { after: current(best).run?.trajectories.pageInfo.endCursor } });
      await waitFor(() => current(best).run!.trajectories.edges.length > 3, 5000, 'the merged pages');
      const page = current(best).run!.trajectories;
      expect(page.edges.map((e) => e.node.reward)).toEqual([0.9, 0.7, 0.5, 0.3, 0.1]);
      expect(page.pageInfo.hasNextPage).toBe(false);
    });

    it('subscribes through GraphQLWsLink (connectionParams) and a transition updates the cached run', async () => {
      const run = await makeRun('apollo-live');
      const runId = run.id;
      const client = apollo();
      const list = client.watchQuery({
        query: RunsPage,
        variables: { filter: { projectName: 'apollo-live' }, first: 10 },
      });
      list.subscribe(() => undefined);
      await waitFor(() => list.getCurrentResult().dataState === 'complete');
      const seen: string[] = [];
      const listening = statusListeners();
      // #region readme:apollo-subscribe
      const sub = client.subscribe({ query: RunStatusChanged, variables: { runId } }).subscribe(({ data }) => {
        seen.push(data!.runStatusChanged.to); // and the cached TrainingRun's status is already the new one
      });
      // #endregion
      cleanups.push(() => sub.unsubscribe());
      await waitFor(() => statusListeners() > listening, 5000, 'the subscription');
      await moveRun(run.id, 'GENERATING'); // by another client, over plain HTTP
      await waitFor(() => seen.length === 1, 5000, 'the event');
      expect(seen).toEqual(['GENERATING']);
      expect(entries(client)[`TrainingRun:${run.id}`]).toMatchObject({ status: 'GENERATING' });
      // The watched list reads the same cache entry; it re-renders on Apollo's next broadcast.
      await waitFor(
        () => current(list).runs.edges[0].node.status === 'GENERATING',
        5000,
        'the watched list to show the new status',
      );
    });

    it('a read key is refused mutations: Apollo rejects with CombinedGraphQLErrors', async () => {
      const client = createApolloClient(s.graphqlUrl, s.keys.r);
      cleanups.push(() => client.stop());
      const error = await createTrackedRun(client, { modelName: 'm', projectName: 'p', taskDescription: 't' }).catch(
        (e: unknown) => e,
      );
      expect(CombinedGraphQLErrors.is(error)).toBe(true);
      expect((error as CombinedGraphQLErrors).errors[0]).toMatchObject({
        message: expect.stringMatching(/needs the write scope/),
        extensions: { code: 'FORBIDDEN' },
      });
    });
  });

  describe('urql', () => {
    it('queries over HTTP with the header and subscribes over graphql-ws with connectionParams', async () => {
      const run = await makeRun('urql');
      const runId = run.id;
      const url = s.graphqlUrl;
      const apiKey = s.keys.w;
      const seen: string[] = [];
      const listening = statusListeners();
      // #region readme:urql
      const client = createUrqlClient(url, apiKey);
      const { data, error } = await client.query(RunsPage, { filter: { projectName: 'urql' }, first: 20 }).toPromise();
      // When the run ends the subscription completes, and urql repeats the last result with hasNext: false.
      const sub = client
        .subscription(RunStatusChanged, { runId })
        .subscribe(({ data, hasNext }) => hasNext && seen.push(data!.runStatusChanged.to));
      // #endregion
      cleanups.push(() => sub.unsubscribe());
      expect(error).toBeUndefined();
      expect(data?.runs.edges.map((e) => e.node.id)).toEqual([run.id]);
      await waitFor(() => statusListeners() > listening, 5000, 'the subscription');
      await moveRun(run.id, 'GENERATING');
      await moveRun(run.id, 'CANCELLED');
      await waitFor(() => seen.length === 2, 5000, `two events (saw ${JSON.stringify(seen)})`);
      expect(seen).toEqual(['GENERATING', 'CANCELLED']);
    });
  });

  describe('graphql-ws', () => {
    it('follows a run from its whole history (afterEventId "0"), and resumes after a dropped connection with nothing missed or twice', async () => {
      const run = await makeRun('ws');
      await moveRun(run.id, 'GENERATING');
      // Through a TCP proxy that can cut the connection, as a network would.
      const proxy = await startTcpProxy('127.0.0.1', Number(new URL(s.url).port));
      cleanups.push(() => proxy.close());
      const url = `http://127.0.0.1:${proxy.port}/graphql`;
      const apiKey = s.keys.w;
      const runId = run.id;
      const seen: string[] = [];
      const done = (async () => {
        // #region readme:graphql-ws
        const client = createWsClient(url, apiKey);
        for await (const event of followRun(client, runId, '0')) {
          seen.push(`${event.from}>${event.to}`);
          if (event.to === 'COMPLETED' || event.to === 'FAILED' || event.to === 'CANCELLED') break;
        }
        await client.dispose();
        // #endregion
      })();
      await waitFor(() => seen.length === 2, 5000, 'the replayed history');
      expect(seen).toEqual(['null>PENDING', 'PENDING>GENERATING']);
      proxy.cut();
      await moveRun(run.id, 'COLLECTING'); // while the client is disconnected
      await moveRun(run.id, 'SCORING');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen).toHaveLength(2); // nothing gets through while the connection is cut
      proxy.restore();
      await waitFor(() => seen.length === 4, 10_000, 'the missed events after the reconnect');
      await moveRun(run.id, 'CANCELLED');
      await done;
      expect(seen).toEqual([
        'null>PENDING',
        'PENDING>GENERATING',
        'GENERATING>COLLECTING',
        'COLLECTING>SCORING',
        'SCORING>CANCELLED',
      ]);
    });

    it('with a malformed key, followRun throws the server’s error instead of retrying', async () => {
      const client = createWsClient(s.graphqlUrl, 'atl_not_a_key');
      cleanups.push(() => client.dispose());
      const first = followRun(client, 'VHJhaW5pbmdSdW46MQ==').next();
      await expect(first).rejects.toThrow(/key/i);
    });
  });

  describe('graphql-sse', () => {
    it('subscribes over server-sent events with the Authorization header', async () => {
      const run = await makeRun('sse');
      const runId = run.id;
      const url = s.graphqlUrl;
      const apiKey = s.keys.w;
      const seen: string[] = [];
      const listening = statusListeners();
      const done = (async () => {
        // #region readme:sse
        const client = createSseClient(url, apiKey);
        const query = print(RunStatusChanged);
        for await (const { data } of client.iterate<ResultOf<typeof RunStatusChanged>>({
          query,
          variables: { runId },
        })) {
          seen.push(data!.runStatusChanged.to);
          if (data!.runStatusChanged.to === 'CANCELLED') break;
        }
        client.dispose();
        // #endregion
      })();
      await waitFor(() => statusListeners() > listening, 5000, 'the subscription');
      await moveRun(run.id, 'GENERATING');
      await moveRun(run.id, 'CANCELLED');
      await done;
      expect(seen).toEqual(['GENERATING', 'CANCELLED']);
    });
  });
});
