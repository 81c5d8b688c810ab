// Starts a real Atelier server on a free port with a fresh SQLite file (or a given database), and
// talks to it over HTTP the way any client would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type ExecutionResult } from 'graphql';
import { afterAll, beforeAll } from 'vitest';

import { createApp, type App } from '../../src/app';
import type { Scope } from '../../src/auth/scopes';
import { makeConfig, parseDatabaseUrl, type ConfigOverrides } from '../../src/config';

export interface TestServer {
  app: App;
  url: string;
  graphqlUrl: string;
  dir: string;
  /** Runs an operation and returns the raw GraphQL response. */
  request<R, V>(
    doc: TypedDocumentNode<R, V> | string,
    variables?: V,
    headers?: Record<string, string>,
  ): Promise<ExecutionResult<R>>;
  /** Runs an operation and fails the test on any GraphQL error. */
  gql<R, V>(doc: TypedDocumentNode<R, V> | string, variables?: V, headers?: Record<string, string>): Promise<R>;
  /** The API keys made before start, by name (see the `keys` option). */
  keys: Record<string, string>;
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

/** The header that presents an API key. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export interface ServerOptions extends ConfigOverrides {
  databaseUrl?: string;
  /** API keys to make before the server starts, name → scope; with any, the server requires keys. */
  keys?: Record<string, Scope>;
  /** Environment the defaults are read from, e.g. { NODE_ENV: 'production' }. */
  env?: Record<string, string>;
}

export async function startServer(overrides: ServerOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-test-'));
  const { databaseUrl, keys: keysToMake = {}, env, ...rest } = overrides;
  const config = makeConfig(
    {
      port: 0,
      logLevel: (process.env.ATELIER_TEST_LOG_LEVEL as 'silent') ?? 'silent',
      database: parseDatabaseUrl(databaseUrl ?? `sqlite:${join(dir, 'atelier.sqlite')}`),
      ...rest,
    },
    env,
  );
  const app = await createApp(config);
  const keys: Record<string, string> = {};
  for (const [name, scope] of Object.entries(keysToMake))
    keys[name] = (await app.services.apiKeys.create({ name, scope })).token;
  const url = await app.start(0);
  const graphqlUrl = `${url}/graphql`;

  async function request<R, V>(
    doc: TypedDocumentNode<R, V> | string,
    variables?: V,
    headers: Record<string, string> = {},
  ) {
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
    keys,
    async gql<R, V>(doc: TypedDocumentNode<R, V> | string, variables?: V, headers?: Record<string, string>) {
      const result = await request(doc, variables, headers);
      if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
      return result.data as R;
    },
    async stop() {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One server for the enclosing describe block (or file): started before its first test, stopped
 * after its last. The handle reads through to the running server, so use it inside tests and hooks.
 * Options may be a function, for settings known only once earlier hooks have run (a fresh database).
 */
export function useTestServer(options: ServerOptions | (() => ServerOptions) = {}): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    await server?.stop();
    server = undefined;
  });
  const current = (): TestServer => {
    if (!server) throw new Error('useTestServer: no server is running here (use the handle inside tests and hooks)');
    return server;
  };
  return {
    get app() {
      return current().app;
    },
    get url() {
      return current().url;
    },
    get graphqlUrl() {
      return current().graphqlUrl;
    },
    get dir() {
      return current().dir;
    },
    get keys() {
      return current().keys;
    },
    request: (doc, variables, headers) => current().request(doc, variables, headers),
    gql: (doc, variables, headers) => current().gql(doc, variables, headers),
    stop: () => current().stop(),
  };
}
