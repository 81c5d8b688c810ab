// Hostile input changes nothing: thousands of generated bad requests (test/helpers/hostile.ts) go
// to a real Atelier process — GraphQL with wrong types, NaN/Infinity, negative and enormous numbers,
// multi-megabyte strings, deep JSON, invalid UTF-8, forged cursors and ids, SQL-looking text;
// malformed JSON and HTTP; broken WebSocket messages and frames. Every answer is an error or a typed
// error (never a 5xx or a masked internal error), the server never crashes or stalls, its memory
// stays bounded, and every table is byte-for-byte what it was.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { runKeysCli } from '../src/auth/keys-cli';
import { tableChecksums } from './helpers/db-checksum';
import {
  generateCases,
  type Case,
  type HttpCase,
  type RawCase,
  type Seeded,
  type WsCase,
  type WsFrameCase,
} from './helpers/hostile';

const ROOT = join(import.meta.dirname, '..');
const SEED = 20261130;
const PLAN = { graphql: 2600, http: 400, raw: 150, ws: 250, wsframe: 150 };
const CONCURRENCY = 8;

const dir = mkdtempSync(join(tmpdir(), 'atelier-fuzz-'));
const dbPath = join(dir, 'atelier.sqlite');
let server: ChildProcess;
let url = '';
let serverOutput = '';
let seeded: Seeded;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function gql<T>(query: string, variables: Record<string, unknown>, key: string): Promise<T> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown };
  if (body.errors || !body.data) throw new Error(`seeding failed: ${JSON.stringify(body)}`);
  return body.data;
}

beforeAll(async () => {
  const env = { DATABASE_URL: `sqlite:${dbPath}` };
  const keys: Record<string, string> = {};
  for (const [name, scope] of [
    ['admin', 'admin'],
    ['writer', 'write'],
    ['reader', 'read'],
  ]) {
    await runKeysCli(['create', '--name', `fuzz-${name}`, '--scope', scope], env, {
      out: (l) => (keys[name] = l),
      err: () => undefined,
    });
  }

  const inherited = { ...process.env };
  // Only what this test sets: no Redis, no pipeline backends or providers, no security overrides.
  for (const name of [
    'REDIS_URL',
    'AUTH',
    'HOST',
    'PORT',
    'GRAPHIQL',
    'INTROSPECTION',
    'CORS_ORIGINS',
    'ART_BACKEND_URL',
    'ART_BACKENDS',
    'OPENAI_BASE_URL',
    'OPENAI_API_KEY',
  ])
    delete inherited[name];
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...inherited,
      ...env,
      HOST: '127.0.0.1',
      PORT: '0',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      AUTH: 'auto',
      // Every key is used once before the checksum: its next last_used_at write would come a minute later,
      // within the fuzz on a busy machine. An hour keeps the tables still whatever the fuzz takes.
      API_KEY_LAST_USED_INTERVAL_SECONDS: '3600',
      // High enough that requests reach validation; the limiter has its own tests.
      RATE_LIMIT_MUTATIONS_PER_SECOND: '1000000',
      RATE_LIMIT_MUTATION_BURST: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (serverOutput += d));
  server.stderr!.on('data', (d) => (serverOutput += d));
  // Starting is awaited (tsx compiles on the way up, slowly on a busy machine); only a process that exits, or
  // stays silent for two minutes, fails it.
  const deadline = Date.now() + 120_000;
  while (!(url = /Atelier is up: .*?(http:\/\/[^/\s]+)\/graphql/.exec(serverOutput)?.[1] ?? '')) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`server did not start:\n${serverOutput}`);
    await new Promise((r) => setTimeout(r, 50));
  }

  const create =
    'mutation($i: CreateTrainingRunInput!) { createTrainingRun(input: $i) { ... on CreateTrainingRunPayload { run { id uuid } } } }';
  const live = (
    await gql<{ createTrainingRun: { run: { id: string; uuid: string } } }>(
      create,
      { i: { mode: 'TRACKED', modelName: 'seed-model', projectName: 'seeded', taskDescription: 'a seeded live run' } },
      keys.admin,
    )
  ).createTrainingRun.run;
  const final = (
    await gql<{ createTrainingRun: { run: { id: string } } }>(
      create,
      { i: { mode: 'TRACKED', modelName: 'seed-model', projectName: 'seeded', taskDescription: 'a seeded final run' } },
      keys.admin,
    )
  ).createTrainingRun.run;
  await gql(
    'mutation($id: ID!) { transitionRun(runId: $id, to: CANCELLED, reason: "seeded") { __typename } }',
    { id: final.id },
    keys.writer,
  );
  const trajectoryUuid = crypto.randomUUID();
  await gql(
    'mutation($id: ID!, $t: [TrajectoryInput!]!) { recordTrajectories(runId: $id, trajectories: $t) { __typename } }',
    {
      id: live.id,
      t: [0.2, 0.9].map((reward, i) => ({
        uuid: i === 0 ? trajectoryUuid : crypto.randomUUID(),
        taskInput: { step: 0, inputText: 'seed input' },
        messages: [{ role: 'user', content: 'hello' }],
        reward,
      })),
    },
    keys.writer,
  );
  await gql(
    'mutation($id: ID!) { recordMetrics(runId: $id, points: [{step: 0, epoch: 0, trainingLoss: 0.5}]) { __typename } }',
    { id: live.id },
    keys.writer,
  );
  const page = await gql<{
    runs: { edges: { cursor: string }[] };
    trajectories: { edges: { node: { id: string } }[] };
  }>(
    'query($id: ID!) { runs(first: 1) { edges { cursor } } trajectories(runId: $id, first: 1) { edges { node { id } } } }',
    { id: live.id },
    keys.reader,
  );
  seeded = {
    keys: { admin: keys.admin, writer: keys.writer, reader: keys.reader },
    liveRun: live.id,
    liveRunUuid: live.uuid,
    finalRun: final.id,
    trajectoryId: page.trajectories.edges[0].node.id,
    runsCursor: page.runs.edges[0].cursor,
    existingTrajectoryUuid: trajectoryUuid,
  };
  // Every key has now been used once: last_used_at is written at most once an hour here, so nothing
  // the fuzz does below may change it. Wait until those writes are visible.
  const deadlineUse = Date.now() + 30_000;
  while (Object.values(tableChecksums(dbPath)).length === 0 || (await keysUsed()) < 3) {
    if (Date.now() > deadlineUse) throw new Error('last_used_at was not written');
    await new Promise((r) => setTimeout(r, 50));
  }
}, 180_000);

async function keysUsed(): Promise<number> {
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE last_used_at IS NOT NULL').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

// ---- running one case and judging its answer ----

interface Verdict {
  problem?: string;
  answered: string;
}

const INTERNAL = /Unexpected error\.|INTERNAL_SERVER_ERROR/;
const WROTE =
  /"__typename":"(CreateTrainingRun|TransitionRun|DeleteTrainingRun|RecordTrajectories|RecordMetrics|CreateApiKey|RevokeApiKey)Payload"/;

async function runHttp(c: HttpCase): Promise<Verdict> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 20_000);
  try {
    const res = await fetch(`${url}${c.path}`, {
      method: c.method,
      headers: c.headers,
      body: c.body as BodyInit | undefined,
      signal: controller.signal,
    });
    let text = '';
    if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
      // A stream: read until it completes (errors arrive as events) or stays quiet for a moment.
      const reader = res.body!.getReader();
      const quiet = setTimeout(() => controller.abort(), 2000);
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += Buffer.from(value).toString();
          if (text.includes('event: complete')) break;
        }
      } catch {
        // still open after 2 s: a live (refused-nothing) stream is not a stall
      } finally {
        clearTimeout(quiet);
        controller.abort();
      }
    } else text = await res.text();
    const answered = `HTTP ${res.status}`;
    if (res.status >= 500) return { problem: `${answered}: ${text.slice(0, 300)}`, answered };
    if (INTERNAL.test(text)) return { problem: `internal error: ${text.slice(0, 300)}`, answered };
    if (c.mutation && WROTE.test(text)) return { problem: `a write succeeded: ${text.slice(0, 300)}`, answered };
    if (c.expectNoRows) {
      const body = JSON.parse(text);
      if (body.data?.runs?.totalCount !== 0 || body.data.runs.edges.length !== 0)
        return { problem: `SQL-looking filter matched rows: ${text.slice(0, 300)}`, answered };
    }
    return { answered };
  } catch (err) {
    if (controller.signal.aborted) return { problem: 'no answer within 20 s', answered: 'timeout' };
    // The server may close the connection on an oversized upload before reading it: that is an answer.
    return { answered: `connection closed (${(err as Error).cause ?? (err as Error).message})` };
  } finally {
    clearTimeout(timer);
  }
}

function runRaw(c: RawCase): Promise<Verdict> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data)?.[1];
      resolve(
        status && Number(status) >= 500
          ? { problem: `raw ${c.name}: HTTP ${status}`, answered: `HTTP ${status}` }
          : { answered: status ? `HTTP ${status}` : 'closed' },
      );
    };
    const timer = setTimeout(finish, 1000);
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.on('connect', () => c.bytes.forEach((b) => socket.write(b)));
  });
}

function runWs(c: WsCase): Promise<Verdict> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const received: string[] = [];
    let closeCode: number | undefined;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.terminate();
      const all = received.join('\n');
      const answered = closeCode ? `ws close ${closeCode}` : `ws ${received.length} messages`;
      if (closeCode === 4500 || closeCode === 1011)
        resolve({ problem: `ws ${c.name}: internal close ${closeCode}`, answered });
      else if (INTERNAL.test(all)) resolve({ problem: `ws ${c.name}: internal error ${all.slice(0, 300)}`, answered });
      else if (WROTE.test(all)) resolve({ problem: `ws ${c.name}: a write succeeded ${all.slice(0, 300)}`, answered });
      else resolve({ answered });
    };
    const timer = setTimeout(finish, 3000);
    // Done once every operation sent has been answered (error or complete), or the socket closes.
    const operations = c.messages.filter((m) => typeof m === 'string' && m.includes('"type":"subscribe"')).length;
    ws.on('message', (m) => {
      received.push(m.toString());
      const answers = received.filter((r) => /"type":"(error|complete)"/.test(r)).length;
      const acked = received.some((r) => r.includes('connection_ack'));
      if (answers >= operations && (operations > 0 || acked)) setTimeout(finish, 20);
    });
    ws.on('close', (code) => {
      closeCode = code;
      finish();
    });
    ws.on('error', () => undefined);
    ws.on('open', async () => {
      for (const m of c.messages) {
        if (ws.readyState !== WebSocket.OPEN) break;
        await new Promise<void>((r) => ws.send(m, () => r()));
        await new Promise((r) => setTimeout(r, 5));
      }
    });
  });
}

function runWsFrame(c: WsFrameCase): Promise<Verdict> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    let head: string | null = null;
    let timer: NodeJS.Timeout | undefined;
    const finish = (problem?: string) => {
      clearTimeout(timer);
      socket.destroy();
      if (problem) resolve({ problem, answered: 'no upgrade' });
      else if (head?.startsWith('HTTP/1.1 101')) resolve({ answered: 'upgraded, then frames' });
      else resolve({ problem: `no upgrade: ${(head ?? data).slice(0, 100)}`, answered: 'no upgrade' });
    };
    // The upgrade is awaited, however busy the machine (only a stall of 20 s is a problem, as for HTTP
    // cases); after the frames, the server closing the socket or a quiet second ends the case, and
    // either way it is judged on the upgrade alone.
    timer = setTimeout(() => finish('no answer to the upgrade within 20 s'), 20_000);
    socket.on('data', (d) => {
      data += d.toString('latin1');
      if (head === null && data.includes('\r\n\r\n')) {
        head = data;
        if (!head.startsWith('HTTP/1.1 101')) return finish();
        clearTimeout(timer);
        timer = setTimeout(() => finish(), 1000);
        socket.write(c.frames);
      }
    });
    socket.on('close', () => finish());
    socket.on('error', () => undefined);
    socket.on('connect', () =>
      socket.write(
        `GET /graphql HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n` +
          `Sec-WebSocket-Key: ${Buffer.from('0123456789abcdef').toString('base64')}\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`,
      ),
    );
  });
}

/**
 * GET /health on a connection of its own (a reused keep-alive connection can be closed by the server
 * just as the client sends on it, which a busy client then reports as a failed fetch): its status, or
 * what went wrong.
 */
function health(): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpGet(`${url}/health`, { agent: false, timeout: 30_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', (err) => resolve(`${err.name}: ${err.message}`));
  });
}

function runCase(c: Case): Promise<Verdict> {
  if (c.kind === 'http') return runHttp(c);
  if (c.kind === 'raw') return runRaw(c);
  if (c.kind === 'ws') return runWs(c);
  return runWsFrame(c);
}

describe('hostile input', () => {
  it(`answers ${Object.values(PLAN).reduce((a, b) => a + b)} generated bad requests with errors, never crashing or stalling, in bounded memory, changing nothing`, async () => {
    const before = tableChecksums(dbPath);
    const pid = server.pid!;
    const rssBefore = rssMb(pid);
    const cases = generateCases(SEED, seeded, PLAN);

    // While the fuzz runs: the server's memory, and how long /health takes to answer.
    let peakRss = rssBefore;
    let slowestHealth = 0;
    const healthFailures: string[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peakRss = Math.max(peakRss, rssMb(pid));
        const t = performance.now();
        // Only a stall (no answer in 30 s) or a wrong answer fails: how fast it answers is a figure, printed
        // below, that depends on how busy the machine is.
        const answer = await health();
        if (answer !== 200) healthFailures.push(String(answer));
        slowestHealth = Math.max(slowestHealth, performance.now() - t);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    const started = performance.now();
    const problems: string[] = [];
    const answers = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < cases.length) {
          const c = cases[next++];
          const verdict = await runCase(c);
          answers.set(
            `${c.kind}: ${verdict.answered.replace(/\(.*\)/, '').trim()}`,
            (answers.get(`${c.kind}: ${verdict.answered.replace(/\(.*\)/, '').trim()}`) ?? 0) + 1,
          );
          if (verdict.problem) problems.push(`[${c.kind} ${c.name}] ${verdict.problem}`);
        }
      }),
    );
    const elapsed = performance.now() - started;
    sampling = false;
    await sampler;

    console.log(
      `fuzz: ${cases.length} cases in ${(elapsed / 1000).toFixed(1)} s; server RSS ${rssBefore.toFixed(0)} MB before, peak ${peakRss.toFixed(0)} MB, ` +
        `${rssMb(pid).toFixed(0)} MB after; slowest /health during the fuzz ${slowestHealth.toFixed(0)} ms\n` +
        [...answers.entries()]
          .sort()
          .map(([k, v]) => `  ${k}: ${v}`)
          .join('\n'),
    );
    expect(problems.slice(0, 20)).toEqual([]);
    expect(problems.length).toBe(0);

    // Alive, prompt and serving.
    expect(server.exitCode).toBeNull();
    for (let i = 0; i < 5; i++) expect(await health()).toBe(200);
    expect(healthFailures).toEqual([]);
    const runs = await gql<{ runs: { totalCount: number } }>('{ runs { totalCount } }', {}, seeded.keys.reader);
    expect(runs.runs.totalCount).toBe(2);

    // Memory bounded: multi-megabyte bodies come and go, the heap does not keep them.
    expect(peakRss).toBeLessThan(rssBefore + 1024);
    expect(rssMb(pid)).toBeLessThan(rssBefore + 512);

    // Nothing changed: every table, row for row.
    expect(tableChecksums(dbPath)).toEqual(before);
    expect(serverOutput).not.toMatch(/unexpected error|Internal error|Unhandled|uncaught/i);
    // A bound on a stall only: the cases take 1–3 minutes on a 2-core machine, depending on its load.
  }, 480_000);
});
