// `atelier`: a thin client of a running Atelier's HTTP API (never a second path into its database).
//   atelier import PATH            an .art folder, a project folder or a model folder → TRACKED runs
//   atelier watch PATH             the same, live: every change is shipped as it lands
//   atelier export RUN --format art|jsonl --out DIR
// --url / ATELIER_URL (default http://127.0.0.1:4000), --key / ATELIER_API_KEY.
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { AtelierClient } from './client';
import { exportArtFolder, exportJsonl } from './export';
import { importPath } from './import';
import { watchPath } from './watch';

const USAGE = `usage:
  atelier import PATH [--url URL] [--key KEY]
  atelier watch PATH [--url URL] [--key KEY] [--rescan-seconds N]
  atelier export RUN --format art|jsonl --out DIR [--split S] [--step N] [--url URL] [--key KEY]
PATH: an .art folder, a project folder (<project>/models/…) or one model folder (with model.json).
RUN: a run's uuid or id. --url defaults to ATELIER_URL or http://127.0.0.1:4000; --key to ATELIER_API_KEY.`;

export async function main(argv: string[], env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      format: { type: 'string' },
      out: { type: 'string' },
      split: { type: 'string' },
      step: { type: 'string' },
      'rescan-seconds': { type: 'string' },
      'chunk-bytes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, target] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const client = new AtelierClient({
    url: values.url ?? env.ATELIER_URL ?? 'http://127.0.0.1:4000',
    key: values.key ?? env.ATELIER_API_KEY ?? null,
    signal,
  });
  if (!target) {
    console.error(`atelier ${command}: missing ${command === 'export' ? 'RUN' : 'PATH'}\n${USAGE}`);
    return 2;
  }
  const chunk = values['chunk-bytes'] ? Number(values['chunk-bytes']) : undefined;
  if (command === 'import') {
    let failed = 0;
    for (const s of await importPath(client, target, chunk)) {
      console.log(
        `${s.folder}: run ${s.run.uuid}${s.run.created ? ' (new)' : ''}: ${s.sent} file(s) sent, ${s.stored} row(s) stored`,
      );
      for (const f of s.failed) console.error(`  ${f.path}: ${f.error}`);
      failed += s.failed.length;
    }
    return failed ? 1 : 0;
  }
  if (command === 'watch') {
    const rescan = values['rescan-seconds'] ? Number(values['rescan-seconds']) : 5;
    await watchPath(client, target, { rescanMs: rescan * 1000, signal, chunkBytes: chunk, log: (l) => console.log(l) });
    return 0;
  }
  if (command === 'export') {
    if (!values.out) {
      console.error('atelier export: --out DIR is required');
      return 2;
    }
    if (values.format === 'art') {
      const r = await exportArtFolder(client, target, values.out);
      console.log(`${r.folder}: ${r.files} file(s)`);
      return 0;
    }
    if (values.format === 'jsonl') {
      const file = join(values.out, 'trajectories.jsonl');
      await exportJsonl(client, target, file, {
        split: values.split ?? null,
        step: values.step ? Number(values.step) : null,
      });
      console.log(file);
      return 0;
    }
    console.error('atelier export: --format must be art or jsonl');
    return 2;
  }
  console.error(`atelier: unknown command ${command}\n${USAGE}`);
  return 2;
}
