// Serves the dashboard bundle that `npm run build:web` writes to dist/web: index.html for `/`,
// `/runs/<id>` and `/compare` (the page routes on the client), hashed files under /assets/ cached
// for good. Same-origin only (no CORS headers), a strict Content-Security-Policy (scripts, styles and
// connections to this server alone), and while Atelier runs open it answers only requests addressed
// to a loopback host, as /graphql does. Without a bundle it says how to build one (503).
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { isLoopbackHost } from '../auth/policy';

// Two levels below the repository root both here (src/server/) and in the bundle npm start runs (dist/server/).
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** Page routes answered with index.html. */
const PAGE = /^\/(?:|runs\/[^/]+\/?|compare\/?)$/;
/** Built assets: one path segment of safe characters (no traversal, no dot files). */
const ASSET = /^\/assets\/([A-Za-z0-9][A-Za-z0-9._-]{0,200})$/;

export interface DashboardOptions {
  /** Where the built bundle is; default dist/web next to the sources. */
  dir?: string;
  /** Shown as a banner before any key is entered (the API says so too: Query.server.simulated). */
  simulated: boolean;
  /** Whether keys are currently not required (then only loopback hosts are answered). */
  isOpen: () => Promise<boolean>;
}

export interface Dashboard {
  /** Whether the request is the dashboard's; if so it is (being) answered. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Whether a bundle is there to serve. */
  built(): boolean;
}

/** Headers every dashboard response carries. */
function baseHeaders(): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

function hostOf(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  const h = hostHeader.trim();
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d+$/, '');
}

/** Self only; the WebSocket of this very host (by the Host header, when it is a plain host[:port]). */
export function contentSecurityPolicy(hostHeader: string | undefined): string {
  const host =
    hostHeader && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(hostHeader) ? hostHeader : null;
  const sockets = host ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${sockets}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const MISSING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Atelier: dashboard not built</title></head>
<body><h1>The dashboard is not built</h1>
<p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it first), then reload this page.</p>
<p>The API is up meanwhile: <a href="/graphql">/graphql</a>.</p></body></html>
`;

export function createDashboard(options: DashboardOptions): Dashboard {
  const dir = options.dir ?? DEFAULT_DASHBOARD_DIR;
  let index: { mtimeMs: number; html: string } | null = null;

  /** index.html, read again when the bundle is rebuilt; null when there is none. */
  function indexHtml(): string | null {
    const file = join(dir, 'index.html');
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      index = null;
      return null;
    }
    if (!index || index.mtimeMs !== mtimeMs) {
      let html = readFileSync(file, 'utf8');
      if (options.simulated)
        html = html.replace('<head>', '<head>\n    <meta name="atelier-simulated" content="true" />');
      index = { mtimeMs, html };
    }
    return index.html;
  }

  /** A built file by name, read once (names are content hashes, so a cached one never goes stale). */
  const assets = new Map<string, Buffer>();
  function asset(name: string): Buffer | null {
    const cached = assets.get(name);
    if (cached) return cached;
    const file = join(dir, 'assets', name);
    if (!existsSync(file) || !statSync(file).isFile()) return null;
    const body = readFileSync(file);
    if (assets.size < 64) assets.set(name, body);
    return body;
  }

  function send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: string | Buffer,
    headers: Record<string, string>,
  ): void {
    const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    res.writeHead(status, { ...baseHeaders(), 'content-length': String(buf.length), ...headers });
    res.end(req.method === 'HEAD' ? undefined : buf);
  }

  async function answer(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(req, res, 405, 'method not allowed\n', {
        allow: 'GET, HEAD',
        'content-type': 'text/plain; charset=utf-8',
      });
    }
    const host = hostOf(req.headers.host);
    if (host && !isLoopbackHost(host) && (await options.isOpen())) {
      return send(
        req,
        res,
        403,
        'Atelier runs open (no API keys) and answers only requests addressed to localhost; make an API key to serve it under another name\n',
        {
          'content-type': 'text/plain; charset=utf-8',
        },
      );
    }
    if (path.startsWith('/assets/')) {
      const name = ASSET.exec(path)?.[1];
      const type = name ? CONTENT_TYPES[extname(name)] : undefined;
      const body = name && type ? asset(name) : null;
      if (!body || !type)
        return send(req, res, 404, 'not found\n', {
          'content-type': 'text/plain; charset=utf-8',
          'cache-control': 'no-store',
        });
      // Names carry a content hash: a new build has new names, so these never change.
      return send(req, res, 200, body, {
        'content-type': type,
        'cache-control': 'public, max-age=31536000, immutable',
      });
    }
    const html = indexHtml();
    if (html === null)
      return send(req, res, 503, MISSING_PAGE, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'retry-after': '10',
      });
    send(req, res, 200, html, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': contentSecurityPolicy(req.headers.host),
    });
  }

  return {
    built: () => existsSync(join(dir, 'index.html')),
    handle(req, res) {
      const path = (req.url ?? '/').split('?')[0];
      if (!PAGE.test(path) && !path.startsWith('/assets/')) return false;
      answer(req, res, path).catch((err) => {
        if (!res.headersSent) send(req, res, 500, 'internal error\n', { 'content-type': 'text/plain; charset=utf-8' });
        else res.destroy(err instanceof Error ? err : undefined);
      });
      return true;
    },
  };
}
