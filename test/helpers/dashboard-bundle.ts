// Makes sure the dashboard bundle (dist/web) exists and is newer than its sources, building it once
// with vite when it is not, so browser tests drive what `npm start` would serve.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DASHBOARD_DIR = join(ROOT, 'dist', 'web');

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Builds dist/web when it is missing or older than web/ (or the installed packages); returns what it did. */
export function ensureDashboardBuilt(): 'fresh' | 'built' {
  const index = join(DASHBOARD_DIR, 'index.html');
  const sources = Math.max(newestMtime(join(ROOT, 'web')), statSync(join(ROOT, 'package-lock.json')).mtimeMs);
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return 'fresh';
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`building the dashboard failed:\n${result.stdout}\n${result.stderr}`);
  return 'built';
}
