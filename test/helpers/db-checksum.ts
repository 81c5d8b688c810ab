// A checksum of every table of an SQLite database, read through its own read-only connection:
// equal checksums before and after mean the database holds byte-for-byte the same rows.
import { createHash } from 'node:crypto';
import Sqlite from 'better-sqlite3';

export function tableChecksums(path: string): Record<string, { rows: number; sha256: string }> {
  const db = new Sqlite(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
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
