// Key management under concurrency (#23 item 4): admins acting at the same moment never leave the
// server without an admin key, and one name never has two active keys. On PostgreSQL (writes run
// concurrently, from any instance) through the API, several rounds of the races the issue found;
// on SQLite the database itself refuses a second active key of one name, whoever writes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DatabaseConfig } from '../src/config';
import { openDatabase } from '../src/db/data-source';
import { migrations } from '../src/db/migrations';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { bearer, useTestServer, type TestServer } from './helpers/server';
import { CreateApiKey, ListApiKeys, RevokeApiKey } from './operations';

async function activeKeys(s: TestServer, adminKey: string) {
  return (await s.gql(ListApiKeys, {}, bearer(adminKey))).apiKeys.filter((k) => k.revokedAt === null);
}

function races(s: () => TestServer, rootKey: () => string) {
  it('8 concurrent createApiKey with one name make exactly one key; the others are ConflictErrors', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `dup-${round}`;
      const results = await Promise.all(
        Array.from({ length: 8 }, () => s().gql(CreateApiKey, { name, scope: 'READ' }, bearer(rootKey()))),
      );
      const kinds = results.map((r) => r.createApiKey.__typename).sort();
      expect(kinds).toEqual([...Array(7).fill('ConflictError'), 'CreateApiKeyPayload']);
      expect((await activeKeys(s(), rootKey())).filter((k) => k.name === name)).toHaveLength(1);
    }
  });

  it('two admins revoking each other at once: one revocation wins, the other is refused, one admin stays', async () => {
    for (let round = 0; round < 8; round++) {
      // Exactly two active admin keys: revoke every other admin but the root, make two, then revoke the root.
      const make = async (name: string) =>
        expectResult(
          (await s().gql(CreateApiKey, { name, scope: 'ADMIN' }, bearer(rootKey()))).createApiKey,
          'CreateApiKeyPayload',
        );
      const a = await make(`admin-a-${round}`);
      const b = await make(`admin-b-${round}`);
      const others = (await activeKeys(s(), a.secret)).filter(
        (k) => k.scope === 'ADMIN' && k.id !== a.apiKey.id && k.id !== b.apiKey.id,
      );
      for (const k of others) await s().gql(RevokeApiKey, { id: k.id }, bearer(a.secret));
      expect((await activeKeys(s(), a.secret)).filter((k) => k.scope === 'ADMIN')).toHaveLength(2);

      const [byA, byB] = await Promise.all([
        s().request(RevokeApiKey, { id: b.apiKey.id }, bearer(a.secret)),
        s().request(RevokeApiKey, { id: a.apiKey.id }, bearer(b.secret)),
      ]);
      const won = (r: typeof byA) => r.data?.revokeApiKey.__typename === 'RevokeApiKeyPayload';
      // The loser is refused as the last admin key (ConflictError) or, its own key revoked first, as UNAUTHENTICATED.
      expect([won(byA), won(byB)].filter(Boolean)).toHaveLength(1);
      for (const lost of [byA, byB].filter((r) => !won(r)))
        expect(lost.data?.revokeApiKey.__typename ?? lost.errors?.[0]?.extensions?.code).toMatch(
          /ConflictError|UNAUTHENTICATED/,
        );
      const survivor = won(byA) ? a : b;
      const admins = (await activeKeys(s(), survivor.secret)).filter((k) => k.scope === 'ADMIN');
      expect(admins.map((k) => k.id)).toEqual([survivor.apiKey.id]);
      setRoot(survivor.secret);
    }
  });
}

let root = '';
function setRoot(key: string) {
  root = key;
}

describe.skipIf(!postgresUrl)(postgresSuiteTitle('key management races on PostgreSQL'), () => {
  let pg: FreshPostgresDatabase;
  beforeAll(async () => {
    pg = await createPostgresDatabase();
  });
  afterAll(() => pg?.drop());
  const s = useTestServer(() => ({ databaseUrl: pg.url, keys: { root: 'admin' } }));
  beforeAll(() => setRoot(s.keys.root));
  races(
    () => s,
    () => root,
  );
});

/** A database the race already hit (two active "ops" keys) migrates: the older one is renamed, not revoked. */
async function migratesDuplicates(config: DatabaseConfig) {
  const db = await openDatabase(config);
  try {
    // One query runner per look, released: an unreleased runner holds a pooled PostgreSQL connection, and
    // with a migration per look the pool ran dry once enough migrations followed the active-name one.
    const hasActiveNameIndex = async () => {
      const runner = db.writer.createQueryRunner();
      try {
        return (await runner.getTable('api_keys'))!.indices.some((i) => i.name === 'UQ_api_keys_active_name');
      } finally {
        await runner.release();
      }
    };
    for (let n = 0; await hasActiveNameIndex(); n++) {
      if (n > migrations.length) throw new Error('the active-name index never went away');
      await db.writer.undoLastMigration({ transaction: 'each' });
    }
    for (const keyId of ['00000000000000a1', '00000000000000a2'])
      await db.writer.query(
        `INSERT INTO api_keys (key_id, name, scope, secret_hash, created_at) VALUES ('${keyId}', 'ops', 'admin', '${'a'.repeat(64)}', '2026-01-01T00:00:00.000Z')`,
      );
    await db.writer.runMigrations({ transaction: 'each' });
    const rows: Array<{ id: number; name: string; revoked_at: string | null }> = await db.writer.query(
      'SELECT id, name, revoked_at FROM api_keys ORDER BY id',
    );
    expect(rows.map((r) => [r.name, r.revoked_at])).toEqual([
      [`ops-dup-${rows[0].id}`, null],
      ['ops', null],
    ]);
  } finally {
    await db.close();
  }
}

describe.skipIf(!postgresUrl)(postgresSuiteTitle('the active-name migration on PostgreSQL'), () => {
  it('renames older active duplicates instead of failing or revoking them', async () => {
    const pg = await createPostgresDatabase();
    try {
      await migratesDuplicates({ kind: 'postgres', url: pg.url });
    } finally {
      await pg.drop();
    }
  });
});

describe('one active key per name, enforced by SQLite itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-key-races-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a second active key of one name written by another tool; revoked keys may share it', async () => {
    const path = join(dir, 'keys.sqlite');
    const db = await openDatabase({ kind: 'sqlite', path });
    await db.close();
    const other = new Sqlite(path);
    try {
      const insert = other.prepare(
        `INSERT INTO api_keys (key_id, name, scope, secret_hash, created_at, revoked_at) VALUES (?, 'ops', 'admin', ?, '2026-01-01T00:00:00.000Z', ?)`,
      );
      insert.run('0000000000000001', 'a'.repeat(64), '2026-01-02T00:00:00.000Z');
      insert.run('0000000000000002', 'b'.repeat(64), null);
      expect(() => insert.run('0000000000000003', 'c'.repeat(64), null)).toThrow(
        /UNIQUE constraint failed: api_keys.name/,
      );
    } finally {
      other.close();
    }
  });

  it('renames older active duplicates instead of failing or revoking them', () =>
    migratesDuplicates({ kind: 'sqlite', path: join(dir, 'dups.sqlite') }));
});
