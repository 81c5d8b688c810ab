// A checksum of every table of an SQLite database (or a PostgreSQL one), read through its own connection:
// equal checksums before and after mean the database holds byte-for-byte the same rows.
import { createHash } from 'node:crypto';

import Sqlite from 'better-sqlite3';
import pg from 'pg';

export function tableChecksums(path: string): Record<string, { rows: number; sha256: string }> {
  const db = new Sqlite(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as { name: string }[];
    const out: Record<string, { rows: number; sha256: string }> = {};
    for (const { name } of tables) {
      const hash = createHash('sha256');
      let rows = 0;
      for (const row of db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}" ORDER BY rowid`).iterate()) {
        rows++;
        hash.update(JSON.stringify(row, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)));
        hash.update('\n');
      }
      out[name] = { rows, sha256: hash.digest('hex') };
    }
    return out;
  } finally {
    db.close();
  }
}

/** The same for a PostgreSQL database: each table's row count and an md5 of its rows in text form. */
export async function postgresTableChecksums(url: string): Promise<Record<string, { rows: number; md5: string }>> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    const out: Record<string, { rows: number; md5: string }> = {};
    for (const { name } of tables.rows) {
      const quoted = `"${name.replace(/"/g, '""')}"`;
      const r = await client.query<{ rows: string; md5: string }>(
        `SELECT count(*) AS rows, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS md5 FROM ${quoted} t`,
      );
      out[name] = { rows: Number(r.rows[0].rows), md5: r.rows[0].md5 };
    }
    return out;
  } finally {
    await client.end();
  }
}
