// The HTTP door of ART folders (src/art-folders/): import plans and files (write scope, the mutation
// rate limit, MAX_BODY_BYTES per request), the run in ART's layout and its trajectories as JSONL
// (read scope, streamed a page at a time, honouring backpressure). Authorization is `authorize()`,
// one function, with the scopes GraphQL uses (src/auth/scopes.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  exportArt,
  type ArtFoldersService,
  type DecodedFile,
  type FileImport,
  type PlanFile,
} from '../art-folders/art-folders.service';
import { decodeImportBatch, IMPORT_BATCH_TYPE } from '../art-format/import-batch';
import type { ApiKeysService } from '../auth/api-keys.service';
import type { Authenticate } from '../auth/authenticate';
import { isLoopbackHost } from '../auth/policy';
import { allows, type Scope } from '../auth/scopes';
import { rateLimitSubject, viewerScope, type Viewer } from '../auth/viewer';
import type { Config } from '../config';
import { AtelierError, ConflictError, NotFoundError, RunModeError, ValidationError } from '../errors';
import type { Logger } from '../logger';
import type { TokenBuckets } from '../security/rate-limit';

export interface ArtRoutesDeps {
  config: Config;
  artFolders: ArtFoldersService;
  apiKeys: Pick<ApiKeysService, 'recordUse'>;
  authenticate: Authenticate;
  isOpen: () => Promise<boolean>;
  /** The same buckets GraphQL mutations take from: an import request counts as one mutation. */
  buckets: TokenBuckets;
  logger: Logger;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

function errorBody(err: unknown): { status: number; body: unknown; headers?: Record<string, string> } {
  if (err instanceof HttpError)
    return {
      status: err.status,
      body: { error: { code: err.code, message: err.message, ...err.extra } },
      headers: err.headers,
    };
  if (err instanceof ValidationError)
    return { status: 400, body: { error: { code: err.code, message: err.message, issues: err.issues } } };
  if (err instanceof NotFoundError) return { status: 404, body: { error: { code: err.code, message: err.message } } };
  if (err instanceof ConflictError || err instanceof RunModeError)
    return { status: 409, body: { error: { code: err.code, message: err.message } } };
  if (err instanceof AtelierError) return { status: 400, body: { error: { code: err.code, message: err.message } } };
  return { status: 500, body: { error: { code: 'INTERNAL_SERVER_ERROR', message: 'Unexpected error.' } } };
}

/** The request body, refused past MAX_BODY_BYTES before it is all read. */
async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const tooLarge = () =>
    new HttpError(
      413,
      'PAYLOAD_TOO_LARGE',
      `the request body is over ${max} bytes (limit MAX_BODY_BYTES): send a file in parts`,
      {
        limit: 'maxBodyBytes',
        max,
      },
    );
  if (Number.isFinite(declared) && declared > max) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function contentType(req: IncomingMessage): string {
  return String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
}

/**
 * How many trajectories of a batch request's files one transaction takes (each file still its own
 * SAVEPOINT). Fewer, larger commits write each touched index page once; smaller ones let the event
 * loop write one commit's files while the decode thread reads the next. 1,000 measured best in the
 * import bench (1.14× recordTrajectories, against 0.99× at 2,000, and 0.60× when a commit took only the files already decoded, about one).
 */
const TRAJECTORIES_PER_TRANSACTION = 1000;

/** How much of trajectories.jsonl is written at once (UTF-16 units, about bytes for ART's JSON). */
const CHUNK_CHARS = 64 * 1024;

/** Waits for the socket to take more, or for it to close (then the stream stops). */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

export function createArtRoutes(deps: ArtRoutesDeps) {
  const { config, artFolders } = deps;
  const max = config.limits.maxBodyBytes;

  /** Who asks, and may they: the one check of every ART route. */
  async function authorize(req: IncomingMessage, needed: Scope): Promise<Viewer> {
    const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
    if (host && !isLoopbackHost(host) && (await deps.isOpen()))
      throw new HttpError(
        403,
        'FORBIDDEN',
        'Atelier runs without keys: it answers only requests addressed to a loopback host',
      );
    const viewer = await deps.authenticate({
      authorization: req.headers.authorization ?? null,
      address: req.socket.remoteAddress,
    });
    const held = viewerScope(viewer);
    if (held === null)
      throw new HttpError(
        401,
        'UNAUTHENTICATED',
        `not authenticated: ${viewer.kind === 'anonymous' ? viewer.problem : 'no credentials'}`,
        {},
        { 'WWW-Authenticate': 'Bearer realm="atelier"' },
      );
    if (!allows(held, needed))
      throw new HttpError(
        403,
        'FORBIDDEN',
        `forbidden: this request needs the ${needed} scope, and the key has the ${held} scope`,
        {
          requiredScope: needed,
        },
      );
    if (needed !== 'read') {
      const taken = deps.buckets.take(rateLimitSubject(viewer));
      if (!taken.ok)
        throw new HttpError(
          429,
          'RATE_LIMITED',
          `too many requests: at most ${config.rateLimit.mutationsPerSecond} a second (bursts of ${config.rateLimit.burst}) per API key; retry after ${taken.retryAfterSeconds} s (limit mutationRate)`,
          { limit: 'mutationRate', retryAfter: taken.retryAfterSeconds },
          { 'Retry-After': String(taken.retryAfterSeconds) },
        );
    }
    if (viewer.kind === 'key') deps.apiKeys.recordUse(viewer.key);
    return viewer;
  }

  async function runOf(id: string, viewer: Viewer) {
    const run = await artFolders.resolveRun(decodeURIComponent(id), viewer.projects);
    if (!run) throw new NotFoundError('TrainingRun', id);
    return run;
  }

  async function plan(req: IncomingMessage, res: ServerResponse) {
    const viewer = await authorize(req, 'write');
    if (contentType(req) !== 'application/json')
      throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'an import plan is JSON: send Content-Type: application/json');
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req, max)).toString('utf8'));
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw ValidationError.of('body', 'json', 'is not JSON');
    }
    const b = (body ?? {}) as { model?: unknown; files?: unknown };
    if (b.model != null && typeof b.model !== 'string')
      throw ValidationError.of('model', 'type', "must be model.json's text, or null");
    if (!Array.isArray(b.files)) throw ValidationError.of('files', 'type', 'must be a list of {path, size, sha256}');
    const files: PlanFile[] = b.files.map((f, i) => {
      const o = (f ?? {}) as Record<string, unknown>;
      if (
        typeof o.path !== 'string' ||
        !Number.isSafeInteger(o.size) ||
        (o.size as number) < 0 ||
        typeof o.sha256 !== 'string'
      )
        throw ValidationError.of(
          `files.${i}`,
          'type',
          'must be {path: string, size: non-negative integer, sha256: string}',
        );
      return { path: o.path, size: o.size as number, sha256: o.sha256 };
    });
    send(res, 200, await artFolders.plan((b.model as string | undefined) ?? null, files, viewer.projects));
  }

  async function file(req: IncomingMessage, res: ServerResponse, url: URL) {
    const viewer = await authorize(req, 'write');
    if (contentType(req) !== 'application/octet-stream')
      throw new HttpError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'a file is sent as its bytes: Content-Type: application/octet-stream',
      );
    const q = (name: string) => url.searchParams.get(name);
    const run = await runOf(q('run') ?? '', viewer);
    const num = (name: string) => {
      const v = Number(q(name));
      if (!Number.isSafeInteger(v) || v < 0) throw ValidationError.of(name, 'type', 'must be a non-negative integer');
      return v;
    };
    const path = q('path');
    if (!path) throw ValidationError.of('path', 'required', 'names the file, relative to the model folder');
    const bytes = await readBody(req, max);
    const size = num('size');
    const from = num('from');
    const result = await artFolders.importFile(
      run,
      { path, size, from, sha256: q('sha256') ?? '' },
      bytes,
      viewer.projects,
    );
    send(res, 200, result);
  }

  /**
   * Several files of one planned run in one request (src/art-format/import-batch.ts): one token of the
   * mutation rate limit, one body under MAX_BODY_BYTES. Each file is imported as POST /api/import/file
   * imports it, whole or not at all; the answer gives each file's result or its error, in order.
   */
  async function files(req: IncomingMessage, res: ServerResponse, url: URL) {
    const viewer = await authorize(req, 'write');
    if (contentType(req) !== IMPORT_BATCH_TYPE)
      throw new HttpError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `a batch of files is a JSON line of their {path, size, sha256, from, length} and then their bytes: Content-Type: ${IMPORT_BATCH_TYPE}`,
      );
    const run = await runOf(url.searchParams.get('run') ?? '', viewer);
    const parts = decodeImportBatch(await readBody(req, max));
    const results: Array<FileImport | { path: string; status: number }> = new Array(parts.length);
    const failed = (path: string, err: unknown) => {
      const { status, body: error } = errorBody(err);
      if (status === 500) deps.logger.error('ART import of a file failed', err);
      return { path, status, ...(error as object) };
    };
    // Every file goes to the decode thread at once. A commit takes the next decoded files in order,
    // up to TRAJECTORIES_PER_TRANSACTION, waiting for them outside the write lock: while the event
    // loop writes them, the thread reads the ones after. A file that fails (decoding or writing)
    // fails alone, undone by its SAVEPOINT, and the others stay.
    const settled: Array<{ file?: DecodedFile; error?: unknown }> = [];
    const decoding = parts.map(({ bytes, ...p }, k) =>
      artFolders.decodeFile(run, p, bytes).then(
        (file) => void (settled[k] = { file }),
        (error: unknown) => void (settled[k] = { error }),
      ),
    );
    for (let i = 0; i < parts.length;) {
      let j = i;
      let rows = 0;
      for (; j < parts.length; j++) {
        await decoding[j];
        const size = settled[j].file?.groups?.total ?? 1;
        if (j > i && rows + size > TRAJECTORIES_PER_TRANSACTION) break;
        rows += size;
      }
      await artFolders.inOneTransaction(async () => {
        for (let k = i; k < j; k++) {
          const { file, error } = settled[k];
          try {
            if (!file) throw error;
            results[k] = await artFolders.writeFile(run, file, viewer.projects);
          } catch (err) {
            results[k] = failed(parts[k].path, err);
          }
        }
      });
      i = j;
    }
    send(res, 200, { results });
  }

  async function manifest(req: IncomingMessage, res: ServerResponse, id: string) {
    const viewer = await authorize(req, 'read');
    const run = await runOf(id, viewer);
    send(res, 200, {
      run: { id: run.id, uuid: run.uuid, project: run.projectName, name: run.trainedModelName },
      files: await artFolders.exportManifest(run.id),
    });
  }

  async function exportFile(req: IncomingMessage, res: ServerResponse, id: string, path: string) {
    const viewer = await authorize(req, 'read');
    const run = await runOf(id, viewer);
    let body: string | Uint8Array;
    let type = 'application/octet-stream';
    const m = /^trajectories\/([^/]+)\/(\d{4,9})\.parquet$/.exec(path);
    if (path === 'model.json') {
      body = await artFolders.exportModelJson(run);
      type = 'application/json; charset=utf-8';
    } else if (path === 'history.jsonl') {
      body = await artFolders.exportHistory(run.id);
      type = 'application/x-ndjson; charset=utf-8';
    } else if (m) body = await artFolders.exportParquet(run.id, m[1], Number(m[2]));
    else throw new NotFoundError('file', path);
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(body);
  }

  async function trajectoriesJsonl(req: IncomingMessage, res: ServerResponse, id: string, url: URL) {
    const viewer = await authorize(req, 'read');
    const run = await runOf(id, viewer);
    const stepText = url.searchParams.get('step');
    const step = stepText == null ? null : Number(stepText);
    if (step !== null && (!Number.isSafeInteger(step) || step < 0))
      throw ValidationError.of('step', 'type', 'must be a non-negative integer');
    const split = url.searchParams.get('split');
    res.writeHead(200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    // Lines go out in chunks of about CHUNK_CHARS: a write (and a syscall, and a TCP segment) a
    // line made a million-line run take minutes; a chunk keeps memory as bounded as a line did.
    let chunk = '';
    for await (const row of artFolders.rows(run.id, { split, step })) {
      if (res.destroyed) return;
      chunk += `${JSON.stringify(exportArt(row))}\n`;
      if (chunk.length < CHUNK_CHARS) continue;
      const full = !res.write(chunk);
      chunk = '';
      if (full && !(await drained(res))) return;
    }
    res.end(chunk);
  }

  /** Whether the request is one of these routes; if so it is (being) answered. */
  function handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const p = url.pathname;
    let work: (() => Promise<void>) | null = null;
    let m: RegExpExecArray | null;
    if (p === '/api/import/plan' && req.method === 'POST') work = () => plan(req, res);
    else if (p === '/api/import/file' && req.method === 'POST') work = () => file(req, res, url);
    else if (p === '/api/import/files' && req.method === 'POST') work = () => files(req, res, url);
    else if ((m = /^\/api\/runs\/([^/]+)\/art$/.exec(p)) && req.method === 'GET')
      work = () => manifest(req, res, m![1]);
    else if ((m = /^\/api\/runs\/([^/]+)\/art\/(.+)$/.exec(p)) && req.method === 'GET')
      work = () => exportFile(req, res, m![1], decodeURIComponent(m![2]));
    else if ((m = /^\/runs\/([^/]+)\/trajectories\.jsonl$/.exec(p)) && req.method === 'GET')
      work = () => trajectoriesJsonl(req, res, m![1], url);
    if (!work) return false;
    work().catch((err) => {
      const { status, body, headers } = errorBody(err);
      if (status === 500) deps.logger.error('ART route failed', err);
      if (res.headersSent) return void res.destroy();
      // A refused body is not read further: close the connection rather than drain it.
      send(res, status, body, { ...(headers ?? {}), ...(status === 413 ? { connection: 'close' } : {}) });
      if (status === 413) req.resume();
    });
    return true;
  }

  return { handle };
}
