// What Atelier shows the world: with NODE_ENV=production, GraphiQL and introspection are off
// unless enabled, field suggestions are hidden, unexpected errors are masked without stack traces,
// and CORS is closed unless origins are configured. In development, pages on localhost may call it.
// And the guards against web pages driving a local Atelier: form posts, WebSocket upgrades from
// other origins, and (while open) requests addressed to a name that is not loopback.
import { request as httpRequest } from 'node:http';

import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { startServer, useTestServer } from './helpers/server';
import { errorCode, viaHttp } from './helpers/transports';

function preflight(url: string, origin: string) {
  return fetch(`${url}/graphql`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });
}

function upgrade(url: string, origin?: string): Promise<{ opened: boolean; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws', origin ? { origin } : {});
    ws.once('open', () => {
      ws.close();
      resolve({ opened: true });
    });
    ws.once('unexpected-response', (_req, res) => resolve({ opened: false, status: res.statusCode }));
    ws.once('error', () => undefined);
  });
}

/** A raw request with a chosen Host header (fetch does not let one set it). */
function withHost(url: string, host: string): Promise<number> {
  const u = new URL(`${url}/graphql`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: u.hostname,
        port: u.port,
        path: '/graphql',
        method: 'POST',
        headers: { host, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ query: '{ runs(first: 1) { totalCount } }' }));
  });
}

describe('NODE_ENV=production', () => {
  const s = useTestServer({ env: { NODE_ENV: 'production' } });

  it('serves no GraphiQL page', async () => {
    const res = await fetch(s.graphqlUrl, { headers: { accept: 'text/html' } });
    expect(res.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
    expect(await res.text()).not.toMatch(/<html/i);
  });

  it('refuses introspection and hides field suggestions', async () => {
    for (const query of ['{ __schema { types { name } } }', '{ __type(name: "TrainingRun") { name } }']) {
      const res = await viaHttp(s.url, query);
      expect(res.status).toBe(400);
      expect(res.result?.errors?.[0].message).toMatch(/introspection has been disabled/);
    }
    const typo = await viaHttp(s.url, '{ runz { totalCount } }');
    expect(typo.result?.errors?.[0].message).not.toMatch(/Did you mean/);
    expect(JSON.stringify(typo.result)).not.toContain('"runs"');
    // __typename is not introspection.
    expect(errorCode(await viaHttp(s.url, '{ __typename }'))).toBeNull();
  });

  it('masks unexpected errors, with no stack trace or internal detail', async () => {
    const broken = await startServer({ env: { NODE_ENV: 'production' } });
    try {
      await broken.app.db.close();
      const res = await viaHttp(broken.url, '{ runs(first: 1) { totalCount } }');
      const text = JSON.stringify(res.result);
      expect(res.result?.errors?.[0].message).toBe('Unexpected error.');
      expect(text).not.toMatch(/stack|originalError|SQLITE|sqlite|QueryRunner|\bat \w+ \(/);
    } finally {
      await broken.stop();
    }
  });

  it('closes CORS: no origin is allowed, and WebSocket upgrades from web pages are refused', async () => {
    for (const origin of ['https://evil.example', 'http://localhost:5173']) {
      const res = await preflight(s.url, origin);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const post = await fetch(s.graphqlUrl, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: '{"query":"{ __typename }"}',
      });
      expect(post.headers.get('access-control-allow-origin')).toBeNull();
      expect(await upgrade(s.url, origin)).toEqual({ opened: false, status: 403 });
    }
    // Clients that are not browsers send no Origin and connect as before.
    expect(await upgrade(s.url)).toEqual({ opened: true });
  });
});

describe('NODE_ENV=production with GRAPHIQL=on, INTROSPECTION=on and CORS_ORIGINS', () => {
  const s = useTestServer({
    env: {
      NODE_ENV: 'production',
      GRAPHIQL: 'on',
      INTROSPECTION: 'on',
      CORS_ORIGINS: 'https://app.example, https://ops.example',
    },
  });

  it('serves GraphiQL and answers introspection again', async () => {
    const page = await fetch(s.graphqlUrl, { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('<title>Atelier</title>');
    expect(errorCode(await viaHttp(s.url, '{ __schema { queryType { name } } }'))).toBeNull();
  });

  it('allows exactly the configured origins, without credentials', async () => {
    const ok = await preflight(s.url, 'https://app.example');
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    expect((await preflight(s.url, 'https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    expect(await upgrade(s.url, 'https://ops.example')).toEqual({ opened: true });
    expect(await upgrade(s.url, 'https://evil.example')).toEqual({ opened: false, status: 403 });
  });
});

describe('development defaults', () => {
  const s = useTestServer();

  it('lets pages on localhost call Atelier, and no other origin', async () => {
    expect((await preflight(s.url, 'http://localhost:5173')).headers.get('access-control-allow-origin')).toBe(
      'http://localhost:5173',
    );
    expect((await preflight(s.url, 'http://127.0.0.1:3000')).headers.get('access-control-allow-origin')).toBe(
      'http://127.0.0.1:3000',
    );
    expect((await preflight(s.url, 'https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    expect(
      (await preflight(s.url, 'http://localhost.evil.example')).headers.get('access-control-allow-origin'),
    ).toBeNull();
  });

  it('keeps field suggestions and introspection for developers', async () => {
    expect((await viaHttp(s.url, '{ runz { totalCount } }')).result?.errors?.[0].message).toMatch(
      /Did you mean .*"runs"/,
    );
    expect(errorCode(await viaHttp(s.url, '{ __schema { queryType { name } } }'))).toBeNull();
  });

  it('refuses form posts, which a web page could send without a CORS preflight', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain']) {
      const res = await fetch(s.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': type },
        body: 'query=mutation%20%7B%20__typename%20%7D',
      });
      expect(res.status).toBe(415);
    }
  });

  it('while open, answers only requests addressed to a loopback name (DNS rebinding); with keys required, any Host', async () => {
    expect(await withHost(s.url, new URL(s.url).host)).toBe(200);
    expect(await withHost(s.url, `localhost:${new URL(s.url).port}`)).toBe(200);
    expect(await withHost(s.url, 'attacker.example')).toBe(403);
    const keyed = await startServer({ keys: { admin: 'admin' } });
    try {
      expect(await withHost(keyed.url, 'atelier.internal.example')).toBe(401);
    } finally {
      await keyed.stop();
    }
  });
});
