// The keys command and the api_keys table: create/list/revoke with clear errors and exit codes, a
// listing that never shows a secret or its hash, and a migration that matches the entity exactly
// (TypeORM's schema builder has nothing left to do) and reverts cleanly, on SQLite and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ApiKeysService } from '../src/auth/api-keys.service';
import { parseKey } from '../src/auth/key-material';
import { runKeysCli } from '../src/auth/keys-cli';
import type { DatabaseConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db/data-source';
import { migrations } from '../src/db/migrations';
import { createPostgresDatabase, postgresSuiteTitle, postgresUrl } from './helpers/postgres';

const dir = mkdtempSync(join(tmpdir(), 'atelier-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DATABASE_URL: `sqlite:${join(dir, 'keys.sqlite')}` };
  return runKeysCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) }).then((code) => ({
    code,
    out,
    err,
  }));
}

describe('npm run keys', () => {
  it('makes a key, printing it alone on stdout once', async () => {
    const made = await cli('create', '--name', 'ci', '--scope', 'write');
    expect(made.code).toBe(0);
    expect(made.out).toHaveLength(1);
    expect(made.out[0]).toMatch(/^atl_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(made.err.join('\n')).toMatch(/"ci".*scope write/);
  });

  it('lists keys without secrets or hashes, as a table or JSON', async () => {
    const made = await cli('create', '--name', 'reader', '--scope', 'read');
    const secret = parseKey(made.out[0])!.secret;
    const table = await cli('list');
    expect(table.code).toBe(0);
    expect(table.out[0]).toBe('ID\tNAME\tSCOPE\tCREATED\tLAST USED\tREVOKED\tPROJECTS');
    expect(table.out.slice(1).map((l) => l.split('\t')[1])).toEqual(['reader', 'ci']);
    const json = await cli('list', '--json');
    const keys = JSON.parse(json.out[0]);
    expect(keys.map((k: { name: string; scope: string }) => [k.name, k.scope])).toEqual([
      ['reader', 'read'],
      ['ci', 'write'],
    ]);
    const everything = table.out.join('\n') + json.out.join('\n');
    expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/[0-9a-f]{64}/);
  });

  it('makes a key scoped to projects with --project (repeatable), shown in both listings', async () => {
    const made = await cli(
      'create',
      '--name',
      'scoped',
      '--scope',
      'read',
      '--project',
      'b, with comma',
      '--project',
      'a',
    );
    expect(made.code).toBe(0);
    expect(made.err.join('\n')).toMatch(/"scoped".*scope read, projects a, b, with comma/);
    const keyId = parseKey(made.out[0])!.keyId;
    const table = await cli('list');
    const row = table.out.find((l) => l.startsWith(keyId))!.split('\t');
    expect(row[6]).toBe(JSON.stringify(['a', 'b, with comma']));
    expect(table.out.find((l) => l.includes('\treader\t'))!.split('\t')[6]).toBe('*');
    const json = JSON.parse((await cli('list', '--json')).out[0]);
    expect(json.find((k: { keyId: string }) => k.keyId === keyId).projects).toEqual(['a', 'b, with comma']);
    expect(json.find((k: { name: string }) => k.name === 'reader').projects).toBeNull();
  });

  it('revokes by name, by id or by the whole key; an unknown one fails with exit code 1', async () => {
    const made = await cli('create', '--name', 'temp', '--scope', 'read');
    const keyId = parseKey(made.out[0])!.keyId;
    expect((await cli('revoke', 'temp')).code).toBe(0);
    const listed = JSON.parse((await cli('list', '--json')).out[0]).find((k: { keyId: string }) => k.keyId === keyId);
    expect(listed.revokedAt).not.toBeNull();
    const other = await cli('create', '--name', 'temp', '--scope', 'read');
    expect(other.code).toBe(0);
    expect((await cli('revoke', other.out[0])).code).toBe(0);
    const unknown = await cli('revoke', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.err.join()).toMatch(/NOT_FOUND/);
  });

  it.each([
    [['create', '--name', 'x'], 2, /needs --name and --scope/],
    [['create', '--name', 'x', '--scope', 'root'], 1, /scope: must be read, write or admin/],
    [['create', '--name', 'bad\nname', '--scope', 'read'], 1, /name: must be/],
    [['create', '--name', 'ci', '--scope', 'read'], 1, /CONFLICT/],
    [['create', '--name', 'p', '--scope', 'read', '--project', ' '], 1, /projects\.0: must not be blank/],
    [['create', '--name', 'p', '--scope', 'read', '--project', 'x'.repeat(201)], 1, /projects\.0: must be at most 200/],
    [['frobnicate'], 2, /unknown command/],
    [['revoke'], 2, /revoke needs one/],
    [['--bogus'], 2, /Unknown option/],
  ])('%j exits %i with a clear message', async (argv, code, message) => {
    const run = await cli(...argv);
    expect(run.code).toBe(code);
    expect(run.err.join('\n')).toMatch(message);
    expect(run.out).toEqual([]);
  });
});

/** Undoes migrations, newest first, until `done` (at most all of them). */
/** A schema question asked on a query runner that is released after (a runner holds a pooled connection on PostgreSQL). */
async function ask<T>(
  db: Database,
  fn: (q: ReturnType<Database['writer']['createQueryRunner']>) => Promise<T>,
): Promise<T> {
  const q = db.writer.createQueryRunner();
  try {
    return await fn(q);
  } finally {
    await q.release();
  }
}

async function undoUntil(db: Database, done: () => Promise<boolean>) {
  for (let i = 0; i < migrations.length && !(await done()); i++)
    await db.writer.undoLastMigration({ transaction: 'each' });
}

async function migrationMatchesEntity(config: DatabaseConfig) {
  const db = await openDatabase(config);
  try {
    const pending = await db.writer.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
    const columns = (await ask(db, (q) => q.getTable('api_keys')))!.columns.map((c) => c.name).sort();
    expect(columns).toEqual([
      'created_at',
      'id',
      'key_id',
      'last_used_at',
      'name',
      'projects',
      'revoked_at',
      'scope',
      'secret_hash',
    ]);
    const indexes = (await ask(db, (q) => q.getTable('api_keys')))!.indices;
    expect(indexes.find((i) => i.name === 'UQ_api_keys_active_name')).toMatchObject({
      columnNames: ['name'],
      isUnique: true,
    });
    // A key made before keys had projects reaches every project once the column is added.
    const keys = new ApiKeysService(db, { lastUsedWriteIntervalMs: 60_000 });
    const scoped = await keys.create({ name: 'scoped', scope: 'read', projects: ['p'] });
    await undoUntil(db, async () => !(await ask(db, (q) => q.hasColumn('api_keys', 'projects'))));
    await db.writer.query(
      "INSERT INTO api_keys (key_id, name, scope, secret_hash, created_at) VALUES ('00000000000000aa', 'older', 'read', 'x', '2026-01-01T00:00:00.000Z')",
    );
    await db.writer.runMigrations({ transaction: 'each' });
    const listed = await keys.list();
    expect(listed.find((k) => k.name === 'older')?.projects).toBeNull();
    // Undoing the migration would widen a scoped key to every project: it revokes scoped keys instead.
    expect(listed.find((k) => k.keyId === scoped.key.keyId)).toMatchObject({
      projects: null,
      revokedAt: expect.any(String),
    });
    expect(listed.find((k) => k.name === 'older')?.revokedAt).toBeNull();
    await undoUntil(db, async () => !(await ask(db, (q) => q.hasTable('api_keys'))));
    expect(await ask(db, (q) => q.hasTable('api_keys'))).toBe(false);
    await db.writer.runMigrations({ transaction: 'each' });
    expect(await ask(db, (q) => q.hasTable('api_keys'))).toBe(true);
    expect((await db.writer.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
  } finally {
    await db.close();
  }
}

describe('the api_keys migration', () => {
  it('matches the entity and reverts cleanly on SQLite', () =>
    migrationMatchesEntity({ kind: 'sqlite', path: join(dir, 'migrate.sqlite') }));

  it.skipIf(!postgresUrl)(postgresSuiteTitle('matches the entity and reverts cleanly on PostgreSQL'), async () => {
    const pg = await createPostgresDatabase();
    try {
      await migrationMatchesEntity({ kind: 'postgres', url: pg.url });
    } finally {
      await pg.drop();
    }
  });
});
