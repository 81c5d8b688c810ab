// Starts a real Atelier server on a free port with a fresh SQLite file (or a given database), and
// talks to it over HTTP the way any client would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type ExecutionResult } from 'graphql';
import { createApp, type App } from '../../src/app';
import { makeConfig, parseDatabaseUrl, type Config } from '../../src/config';

export interface TestServer {
  app: App;
  url: string;
  graphqlUrl: string;
  dir: string;
  /** Runs an operation and returns the raw GraphQL response. */
  request<R, V>(doc: TypedDocumentNode<R, V> | string, variables?: V, headers?: Record<string, string>): Promise<ExecutionResult<R>>;
  /** Runs an operation and fails the test on any GraphQL error. */
  gql<R, V>(doc: TypedDocumentNode<R, V> | string, variables?: V): Promise<R>;
  stop(): Promise<void>;
}

/** Runs an operation against any Atelier URL and fails on GraphQL errors. */
export async function gqlAt<R, V>(baseUrl: string, doc: TypedDocumentNode<R, V>, variables?: V): Promise<R> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: print(doc), variables }),
  });
  const result = (await res.json()) as ExecutionResult<R>;
  if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
  return result.data as R;
}

export async function startServer(overrides: Partial<Config> & { databaseUrl?: string } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-test-'));
  const { databaseUrl, ...rest } = overrides;
  const config = makeConfig({
    port: 0,
    logLevel: (process.env.ATELIER_TEST_LOG_LEVEL as 'silent') ?? 'silent',
    database: parseDatabaseUrl(databaseUrl ?? `sqlite:${join(dir, 'atelier.sqlite')}`),
    ...rest,
  });
  const app = await createApp(config);
  const url = await app.start(0);
  const graphqlUrl = `${url}/graphql`;

  async function request<R, V>(doc: TypedDocumentNode<R, V> | string, variables?: V, headers: Record<string, string> = {}) {
    const res = await fetch(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
      body: JSON.stringify({ query: typeof doc === 'string' ? doc : print(doc), variables }),
    });
    return (await res.json()) as ExecutionResult<R>;
  }

  return {
    app,
    url,
    graphqlUrl,
    dir,
    request,
    async gql<R, V>(doc: TypedDocumentNode<R, V> | string, variables?: V) {
      const result = await request(doc, variables);
      if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
      return result.data as R;
    },
    async stop() {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
