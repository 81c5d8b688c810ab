// Helpers of the ART folder tests: the `atelier` CLI run as a child process (as a user runs it), a
// snapshot of every row an import writes (to compare imports), and ART's own Python readers.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import type { App } from '../../src/app';

export const FIXTURES = resolve('test/fixtures/art-folders');
const BIN = resolve('bin/atelier.mjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `atelier …` against a server, as a child process. */
export function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** A long-running `atelier …` (watch). */
export function cliProcess(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A copy of a fixture's .art folder to change freely. */
export function copyFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-art-'));
  cpSync(join(FIXTURES, name, '.art'), join(dir, '.art'), { recursive: true });
  return join(dir, '.art');
}

/** Every row an import of a run wrote, without ids and times: equal snapshots are identical rows. */
export async function snapshot(app: App, runUuid: string): Promise<Record<string, unknown[]>> {
  const q = (sql: string, params: unknown[]) => app.db.reader.query(sql, params) as Promise<unknown[]>;
  const ph = app.db.kind === 'postgres' ? (i: number) => `$${i}` : () => '?';
  const [run] = (await q(
    `SELECT id, uuid, status, model_name, project_name, trained_model_name, mode, config, current_step FROM training_runs WHERE uuid = ${ph(1)}`,
    [runUuid],
  )) as Array<Record<string, unknown>>;
  if (!run) return { run: [] };
  const id = run.id;
  delete run.id;
  return {
    run: [run],
    trajectories: await q(
      `SELECT t.uuid, t.split, t.step, t.task_input, t.messages, t.reward, t.metadata, a.art, g.group_index, g.art AS group_art
       FROM trajectories t LEFT JOIN trajectory_art a ON a.trajectory_id = t.id LEFT JOIN trajectory_groups g ON g.id = t.group_id
       WHERE t.run_id = ${ph(1)} ORDER BY t.split, t.step, g.group_index, t.uuid`,
      [id],
    ),
    points: await q(
      `SELECT split, step, epoch, total_trajectories, avg_reward, min_reward, max_reward, reward_std, training_loss FROM metric_points WHERE run_id = ${ph(1)} ORDER BY split, step`,
      [id],
    ),
    values: await q(
      `SELECT split, step, name, value FROM metric_values WHERE run_id = ${ph(1)} ORDER BY split, step, name`,
      [id],
    ),
    checkpoints: await q(`SELECT step, name, uri FROM checkpoints WHERE run_id = ${ph(1)} ORDER BY step`, [id]),
  };
}

const ART_GIT = process.env.ATELIER_TEST_ART_GIT ?? '/work/.mirror/PeterWofford+ART/repo';
const MIRROR = [
  '--index-url',
  'file:///opt/pypi/simple',
  '--extra-index-url',
  'file:///opt/pypi-more/simple',
  '--find-links',
  '/opt/wheels',
];

/**
 * A Python with ART's readers' dependencies (pyarrow, duckdb, pydantic, openai, pyyaml) and ART's
 * source, or why not: ATELIER_TEST_ART_PYTHON, else a venv made once from the local package mirror.
 */
export function artPython(): { python: string; artGit: string } | { skip: string } {
  if (!existsSync(ART_GIT)) return { skip: `no ART git mirror at ${ART_GIT} (set ATELIER_TEST_ART_GIT)` };
  const given = process.env.ATELIER_TEST_ART_PYTHON;
  if (given) return { python: given, artGit: ART_GIT };
  const venv = resolve('node_modules/.cache/atelier-art-venv');
  const python = join(venv, 'bin/python');
  const ok = () =>
    spawnSync(python, ['-c', 'import pyarrow, duckdb, pydantic, openai, yaml'], { stdio: 'ignore' }).status === 0;
  if (existsSync(python) && ok()) return { python, artGit: ART_GIT };
  if (!existsSync('/opt/pypi/simple'))
    return { skip: 'no local Python package mirror to build a venv with pyarrow and duckdb' };
  spawnSync('python3', ['-m', 'venv', venv], { stdio: 'ignore' });
  spawnSync(python, ['-m', 'pip', 'install', '-q', ...MIRROR, 'pyarrow', 'duckdb', 'pydantic', 'openai', 'pyyaml'], {
    stdio: 'ignore',
    timeout: 300_000,
  });
  return ok() ? { python, artGit: ART_GIT } : { skip: 'could not install pyarrow and duckdb from the local mirror' };
}

/** What ART's own readers load from a model folder (scripts/art-fixtures/read_with_art.py). */
export function readWithArt(python: string, artGit: string, folder: string): Record<string, unknown> {
  const r = spawnSync(python, [resolve('scripts/art-fixtures/read_with_art.py'), artGit, folder], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`ART's readers failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}
