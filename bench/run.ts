// The benchmark runner: `npm run bench` runs every scenario in bench/scenarios/ and writes
// BENCHMARKS.md; `npm run bench -- <scenario> [...]` runs those alone and rewrites only their
// sections. A scenario is one file exporting `scenario` (see lib/types.ts): adding one is adding it.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { buildRunsDatabase, LARGE_MESSAGE_BYTES, type LargeDatabase } from './lib/datasets';
import { machineFacts, openFilesLimit } from './lib/machine';
import { renderSection, writeReport } from './lib/report';
import { fmt, now } from './lib/stats';
import type { Scenario, ScenarioContext } from './lib/types';
import { killAllWorkers } from './lib/worker';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPORT = join(ROOT, 'BENCHMARKS.md');
/** Enough for 5,000 subscriber sockets on each side plus a baseline's 5,000, with room to spare. */
const FILES_NEEDED = 12_000;

async function loadScenarios(): Promise<Scenario[]> {
  const dir = fileURLToPath(new URL('./scenarios/', import.meta.url));
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  const list = await Promise.all(
    files.map(async (f) => (await import(pathToFileURL(join(dir, f)).href)).scenario as Scenario),
  );
  return list.filter(Boolean).sort((a, b) => a.order - b.order);
}

async function main(): Promise<number> {
  const all = await loadScenarios();
  const names = process.argv.slice(2).filter((a) => a !== '--');
  const unknown = names.filter((n) => !all.some((s) => s.name === n));
  if (unknown.length) {
    console.error(`unknown scenario ${unknown.join(', ')}; the scenarios are: ${all.map((s) => s.name).join(', ')}`);
    return 2;
  }
  const chosen = names.length ? all.filter((s) => names.includes(s.name)) : all;
  const limit = openFilesLimit();
  if (limit < FILES_NEEDED)
    console.warn(
      `warning: open-files limit is ${limit}; the fanout and memory scenarios need about ${FILES_NEEDED} (run through npm run bench, which raises it, or ulimit -n ${FILES_NEEDED})`,
    );

  const machine = machineFacts();
  const tempDir = mkdtempSync(join(tmpdir(), 'atelier-bench-'));
  const started = now();
  const stamp = () => `${fmt((now() - started) / 1000, 1)}s`.padStart(7);
  let large: Promise<LargeDatabase> | null = null;
  const order = new Map(all.map((s) => [s.name, s.order]));
  const written = new Map<string, string>();
  let failures = 0;

  const cleanup = () => {
    killAllWorkers();
    rmSync(tempDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => (cleanup(), process.exit(130)));
  process.once('SIGTERM', () => (cleanup(), process.exit(143)));

  console.log(
    `Atelier benchmarks: ${chosen.map((s) => s.name).join(', ')} on ${machine.cores} cores, Node ${machine.node}; data in ${tempDir}`,
  );
  try {
    for (const s of chosen) {
      const log = (message: string) => console.log(`${stamp()} [${s.name}] ${message}`);
      const ctx: ScenarioContext = {
        tempDir,
        log,
        largeDatabase: () =>
          (large ??= (async () => {
            console.log(`${stamp()} building the 1,000,000-trajectory database (1,000 runs × 1,000, 2 KB messages)…`);
            const db = await buildRunsDatabase(tempDir, {
              runs: 1000,
              perRun: 1000,
              messageBytes: LARGE_MESSAGE_BYTES,
              name: 'large.sqlite',
            });
            console.log(`${stamp()} built in ${fmt(db.buildMs / 1000, 1)} s`);
            return db;
          })()),
      };
      const t0 = now();
      log('starting');
      let text: string;
      try {
        const result = await s.run(ctx);
        for (const c of result.checks)
          log(
            `${c.name}: ${fmt(c.value)}${c.target.includes('×') ? '×' : ''} (target ${c.target}) ${c.pass ? 'pass' : 'MISS'}`,
          );
        if (result.status === 'unavailable') log(result.notes[0] ?? 'not available');
        text = renderSection(s, result, machine, (now() - t0) / 1000);
      } catch (err) {
        failures++;
        const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
        log(`FAILED: ${message}`);
        killAllWorkers();
        text = renderSection(s, { error: message }, machine, (now() - t0) / 1000);
      }
      written.set(s.name, text);
      writeReport(REPORT, written, order);
      log(`done in ${fmt((now() - t0) / 1000, 1)} s`);
    }
  } finally {
    cleanup();
  }
  console.log(`${stamp()} wrote ${REPORT}${failures ? ` (${failures} scenario(s) failed)` : ''}`);
  return failures ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    killAllWorkers();
    process.exit(1);
  },
);
