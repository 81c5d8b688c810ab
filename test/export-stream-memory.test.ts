// README's claim for GET /runs/<id>/trajectories.jsonl: it streams in keyset pages of 500, waiting
// for the socket to drain, so a run of any size costs constant memory. Shown on a run of 200,000
// trajectories over real HTTP, from the server's side: the statements its reader runs (the
// QueryCounter every statement goes through) say how many pages it read. A route that read the run
// in one statement fails the page count; one that ignored backpressure reads all 401 pages while the
// client is not reading, and fails the bound.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { buildRunsDatabase } from '../bench/lib/datasets';
import type { QueryCounter } from '../src/db/query-counter';
import { startServer, type TestServer } from './helpers/server';

const ROWS = 200_000;
const PAGE = 500; // the page of ArtFoldersService.rows
// A page of ROWS / PAGE full pages, then one that comes back empty and ends the stream.
const ALL_PAGES = ROWS / PAGE + 1;
// The statement of ArtFoldersRepo.page (its select list), and only it.
const PAGE_SQL = /SELECT t\.id, t\.split, t\.step, g\.group_index/;

let dir: string;
let server: TestServer;
let runId: number;
/** Each row's reward (the export writes 0 for none) and metadata.group, in id order. */
let expected: Array<{ reward: number; group: number }>;
let pageReads: () => number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-export-stream-'));
  // One run of 200,000 ~1 KB trajectories, in Atelier's own row layout (bench/lib/datasets.ts).
  const built = await buildRunsDatabase(dir, { runs: 1, perRun: ROWS, messageBytes: 1000 });
  const raw = new BetterSqlite3(built.path, { readonly: true });
  runId = (raw.prepare('SELECT id FROM training_runs').get() as { id: number }).id;
  expected = (
    raw.prepare('SELECT reward, metadata FROM trajectories WHERE run_id = ? ORDER BY id').all(runId) as Array<{
      reward: number | null;
      metadata: string;
    }>
  ).map((r) => ({ reward: r.reward ?? 0, group: (JSON.parse(r.metadata) as { group: number }).group }));
  raw.close();
  server = await startServer({ databaseUrl: `sqlite:${built.path}` });
  const spy = vi.spyOn(server.app.db.reader.logger as QueryCounter, 'logQuery');
  pageReads = () => spy.mock.calls.filter(([sql]) => PAGE_SQL.test(sql)).length;
}, 300_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * The most pages a server that waits for 'drain' can have written to a client that reads nothing:
 * what the kernel buffers of both ends can hold at their largest (net.ipv4.tcp_rmem and tcp_wmem
 * maxima) plus the response's own buffer, in pages of the smallest line, and the page being written.
 */
function maxPagesInFlight(lineBytes: number): number {
  const max = (file: string, fallback: number) => {
    try {
      return Number(readFileSync(file, 'utf8').trim().split(/\s+/)[2]);
    } catch {
      return fallback;
    }
  };
  const buffers =
    max('/proc/sys/net/ipv4/tcp_rmem', 6 * 2 ** 20) + max('/proc/sys/net/ipv4/tcp_wmem', 4 * 2 ** 20) + 64 * 1024;
  return Math.ceil(buffers / (lineBytes * PAGE)) + 2;
}

/**
 * Waits until the server has stopped reading pages: the count unchanged across several looks. The
 * wait only decides when to look; the proof is the bound checked after it (a route that ignored
 * backpressure would keep reading to the end of the run, far past it).
 */
async function pagesWhenStopped(): Promise<number> {
  let last = -1;
  let same = 0;
  while (same < 5) {
    const now = pageReads();
    same = now === last ? same + 1 : 0;
    last = now;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

/**
 * GET the run's JSONL, the response handed over paused after its first chunk, with the shortest
 * whole line of that chunk (what maxPagesInFlight counts pages in).
 */
function getPaused(query = ''): Promise<{ res: IncomingMessage; first: Buffer; lineBytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/runs/${runId}/trajectories.jsonl${query}`, (res) => {
      expect(res.statusCode).toBe(200);
      res.once('data', (chunk: Buffer) => {
        res.pause();
        const lines = chunk.toString('utf8').split('\n').slice(0, -1);
        resolve({ res, first: chunk, lineBytes: Math.min(...lines.map((l) => l.length + 1)) });
      });
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end();
  });
}

function checkLine(line: string, i: number): void {
  const art = JSON.parse(line) as Record<string, any>;
  expect(art.messages_and_choices).toHaveLength(3);
  expect(art.messages_and_choices[0].role).toBe('system');
  expect(art.messages_and_choices[2].message.role).toBe('assistant');
  expect(art).toMatchObject({ tools: null, additional_histories: [], metrics: {}, logs: [] });
  // Line i is the row with the i-th smallest id: its own (random) reward and its group.
  expect(art.reward).toBe(expected[i].reward);
  expect(art.metadata).toEqual({ judge: 'ruler', group: expected[i].group });
}

describe('trajectories.jsonl of a 200,000-trajectory run', () => {
  it('reads a bounded number of pages while the client does not read, then the rest when it does', async () => {
    const before = pageReads();
    const { res, first, lineBytes } = await getPaused();
    const paused = (await pagesWhenStopped()) - before;
    expect(paused).toBeGreaterThan(0);
    expect(paused).toBeLessThanOrEqual(maxPagesInFlight(lineBytes));
    expect(paused).toBeLessThan(ALL_PAGES / 4);

    // Resumed: every line, in id order, each valid ART JSON.
    let count = 0;
    let tail = first.toString('utf8');
    const take = (text: string) => {
      const lines = (tail + text).split('\n');
      tail = lines.pop()!;
      for (const line of lines) checkLine(line, count++);
    };
    take('');
    res.setEncoding('utf8');
    for await (const text of res) take(text as string);
    expect(tail).toBe('');
    expect(count).toBe(ROWS);
    // Read a page at a time: every page, not one statement for the whole run.
    expect(pageReads() - before).toBe(ALL_PAGES);
  }, 300_000);

  it('a client that goes away after some lines stops the reads, and the server keeps serving', async () => {
    const before = pageReads();
    const { res, first, lineBytes } = await getPaused();
    // Take 3,000 lines (six pages), then hang up.
    await new Promise<void>((resolve) => {
      let lines = first.toString('utf8').split('\n').length - 1;
      res.on('data', (chunk: Buffer) => {
        for (const b of chunk) if (b === 0x0a) lines++;
        if (lines >= 3000) {
          res.destroy();
          resolve();
        }
      });
      res.resume();
    });
    const read = (await pagesWhenStopped()) - before;
    expect(read).toBeGreaterThanOrEqual(3000 / PAGE);
    expect(read).toBeLessThanOrEqual(3000 / PAGE + maxPagesInFlight(lineBytes));
    expect(read).toBeLessThan(ALL_PAGES / 4);

    // Still serving, and the filters read only their rows: step 3 is rows 48..63 (16 a step).
    const step = await fetch(`${server.url}/runs/${runId}/trajectories.jsonl?split=train&step=3`);
    expect(step.status).toBe(200);
    const lines = (await step.text()).split('\n').filter(Boolean);
    expect(lines).toHaveLength(16);
    lines.forEach((l, k) => checkLine(l, 48 + k));
    const val = await fetch(`${server.url}/runs/${runId}/trajectories.jsonl?split=val`);
    expect(await val.text()).toBe('');
  }, 300_000);
});
