// `npm run keys -- <command>`: make, list and revoke API keys in the database DATABASE_URL names
// (the same one the server uses; it may be running). A new key is printed once, alone on stdout,
// so `KEY=$(npm run -s keys -- create --name ci --scope write)` captures it; everything else goes
// to stderr. The server notices new and revoked keys without a restart.
import { parseArgs } from 'node:util';

import { loadConfig } from '../config';
import { openDatabase } from '../db/data-source';
import { AtelierError } from '../errors';
import { ApiKeysService } from './api-keys.service';

const USAGE = `Usage:
  npm run keys -- create --name <name> --scope <read|write|admin> [--project <name>]...
  npm run keys -- list [--json]
  npm run keys -- revoke <key id | name | whole key>

Scopes: read (queries, subscriptions), write (also run and ingestion mutations), admin (also key management).
--project (repeatable) limits the key to those projects' runs; without it the key reaches every project.`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: CliIo = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

/** Runs one command; resolves to the exit code. */
export async function runKeysCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io: CliIo = consoleIo,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        scope: { type: 'string' },
        project: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    io.err(`${err instanceof Error ? err.message : err}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  const { values } = parsed;
  if (values.help || !command) {
    io.err(USAGE);
    return values.help ? 0 : 2;
  }
  if (!['create', 'list', 'revoke'].includes(command)) {
    io.err(`unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  if (command === 'create' && (!values.name || !values.scope)) {
    io.err(`create needs --name and --scope\n\n${USAGE}`);
    return 2;
  }
  if (command === 'revoke' && rest.length !== 1) {
    io.err(`revoke needs one key id, name or key\n\n${USAGE}`);
    return 2;
  }

  const config = loadConfig(env);
  // The server may be writing: a command waits for the lock (and says so) rather than failing.
  const db = await openDatabase(config.database, {
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    onLockWait: (message) => io.err(message),
  });
  try {
    const keys = new ApiKeysService(db, { lastUsedWriteIntervalMs: config.auth.lastUsedWriteIntervalMs });
    if (command === 'create') {
      const { key, token } = await keys.create({ name: values.name!, scope: values.scope!, projects: values.project });
      const reach = key.projects ? `projects ${key.projects.join(', ')}` : 'every project';
      io.err(
        `Made API key "${key.name}" (id ${key.keyId}, scope ${key.scope}, ${reach}). It is shown this once; Atelier keeps only a hash:`,
      );
      io.out(token);
      io.err(
        'Send it as "Authorization: Bearer <key>" (HTTP, SSE) or connectionParams { Authorization: "Bearer <key>" } (graphql-ws).',
      );
    } else if (command === 'list') {
      const all = await keys.list();
      if (values.json) io.out(JSON.stringify(all));
      else if (all.length === 0) io.err('No API keys yet.');
      else {
        io.out(['ID', 'NAME', 'SCOPE', 'CREATED', 'LAST USED', 'REVOKED', 'PROJECTS'].join('\t'));
        for (const k of all)
          io.out(
            [
              k.keyId,
              k.name,
              k.scope,
              k.createdAt,
              k.lastUsedAt ?? '-',
              k.revokedAt ?? '-',
              // A project's name may hold commas and spaces, never a tab or a newline: JSON says it exactly.
              k.projects ? JSON.stringify(k.projects) : '*',
            ].join('\t'),
          );
      }
    } else {
      const key = await keys.revoke(rest[0]);
      io.err(
        `Revoked API key "${key.name}" (id ${key.keyId}) at ${key.revokedAt}. Running servers refuse it now and close its subscriptions within seconds.`,
      );
    }
    return 0;
  } catch (err) {
    io.err(
      err instanceof AtelierError
        ? `${err.code}: ${err.message}`
        : `error: ${err instanceof Error ? err.message : err}`,
    );
    return 1;
  } finally {
    await db.close();
  }
}
