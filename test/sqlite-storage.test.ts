// How Atelier lays out an SQLite file (src/db/data-source.ts): a new file gets 16 KB pages, a file
// made with another page size keeps it and keeps working, and the write-ahead log is copied into the
// database by a thread of its own on a timer, not by the commit that happens to cross SQLite's
// 1,000-page threshold.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { createRun, recordTrajectories, trajectory } from './helpers/builders';
import { startServer, type TestServer } from './helpers/server';
import { ListRuns } from './operations';

const dir = mkdtempSync(join(tmpdir(), 'atelier-storage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const pageSize = (path: string) => {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    return db.pragma('page_size', { simple: true });
  } finally {
    db.close();
  }
};

const waitFor = async (what: string, ok: () => boolean) => {
  const deadline = Date.now() + 60_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('SQLite storage layout', () => {
  it('a new database gets 16 KB pages', async () => {
    server = await startServer();
    expect(pageSize(join(server.dir, 'atelier.sqlite'))).toBe(16_384);
  });

  it('a database made with 4 KB pages keeps them and keeps working', async () => {
    const path = join(dir, 'old.sqlite');
    const old = new BetterSqlite3(path);
    old.pragma('page_size = 4096');
    old.pragma('journal_mode = WAL');
    old.exec('CREATE TABLE earlier (x INTEGER)');
    old.close();
    server = await startServer({ databaseUrl: `sqlite:${path}` });
    const run = await createRun(server, { projectName: 'old-pages' });
    await recordTrajectories(server, run.id, [trajectory(0, 0.5), trajectory(0, 0.25)]);
    const list = await server.gql(ListRuns, { filter: { projectName: 'old-pages' } });
    expect(list.runs.edges.map((e) => e.node.id)).toEqual([run.id]);
    expect(pageSize(path)).toBe(4096);
  });

  it('committed writes reach the database file while the server runs, with no commit checkpointing', async () => {
    server = await startServer();
    const path = join(server.dir, 'atelier.sqlite');
    const run = await createRun(server);
    const before = statSync(path).size;
    // About 1 MB: far below the 1,000 pages (16 MB) after which a commit would checkpoint by itself.
    const big = 'x'.repeat(2000);
    for (let call = 0; call < 5; call++)
      await recordTrajectories(
        server,
        run.id,
        Array.from({ length: 100 }, () => trajectory(call, 0.5, { messages: [{ role: 'assistant', content: big }] })),
      );
    await waitFor('the WAL copied into the database file', () => statSync(path).size > before + 900_000);
  }, 90_000);
});
