// PostgreSQL for tests: when ATELIER_TEST_POSTGRES_URL points at a server (CI sets it to
// postgres://postgres@127.0.0.1:5432/test), each suite gets a fresh database of its own, created
// next to the given one and dropped afterwards. Without it, the suites report as skipped, with the
// reason both in their title and on the console.
import { randomBytes } from 'node:crypto';

import pg from 'pg';

const configured = process.env.ATELIER_TEST_POSTGRES_URL?.trim();

/** The server to create test databases on, or undefined when PostgreSQL tests are off. */
export const postgresUrl: string | undefined = configured ? configured : undefined;

export const POSTGRES_SKIP_REASON =
  'PostgreSQL tests skipped: set ATELIER_TEST_POSTGRES_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run them';

let warned = false;

/**
 * The title for a describe block that needs PostgreSQL: the title itself when PostgreSQL is
 * configured, otherwise the title with the skip reason, printed once as a warning so the skip is
 * visible in any reporter. Use with `describe.skipIf(!postgresUrl)(postgresSuiteTitle('…'), …)`.
 */
export function postgresSuiteTitle(title: string): string {
  if (postgresUrl) return title;
  if (!warned) {
    warned = true;
    console.warn(POSTGRES_SKIP_REASON);
  }
  return `${title} [${POSTGRES_SKIP_REASON}]`;
}

export interface FreshPostgresDatabase {
  /** The database's name, atelier_test_<random>. */
  name: string;
  /** A URL for it: the configured URL with its database replaced. */
  url: string;
  /** Ends every connection to it and drops it; safe to call twice. */
  drop(): Promise<void>;
}

async function withAdmin<T>(baseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty, uniquely named database on the configured server. */
export async function createPostgresDatabase(
  baseUrl: string | undefined = postgresUrl,
): Promise<FreshPostgresDatabase> {
  if (!baseUrl) throw new Error(POSTGRES_SKIP_REASON);
  const name = `atelier_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(baseUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin(baseUrl, async (c) => {
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        await c.query(`DROP DATABASE IF EXISTS "${name}"`);
      });
    },
  };
}
