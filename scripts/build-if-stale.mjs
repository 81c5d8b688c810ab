// `npm start`'s prestart: builds the server bundle (dist/server/) and the dashboard (dist/web/) only
// when each is missing or older than its sources, so a second start does not pay for a build. Plain
// JavaScript on plain Node (no tsx): it runs before every start. Works in the current directory, the
// project root when npm runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();

/** What each bundle is built from, and the file whose mtime says when it was built. */
const TARGETS = [
  {
    name: 'server',
    script: 'build:server',
    output: 'dist/server/main.mjs',
    sources: ['src', 'package.json', 'package-lock.json', 'tsconfig.json'],
  },
  {
    name: 'dashboard',
    script: 'build:web',
    output: 'dist/web/index.html',
    sources: ['web', 'package.json', 'package-lock.json'],
  },
];

/** The newest mtime under a path (0 when it does not exist); node_modules and dotfiles are skipped. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let latest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

for (const target of TARGETS) {
  const output = join(root, target.output);
  const sources = Math.max(...target.sources.map((s) => newest(join(root, s))));
  if (existsSync(output) && statSync(output).mtimeMs >= sources) {
    console.log(`${target.name}: ${target.output} is up to date, not rebuilt`);
    continue;
  }
  console.log(
    `${target.name}: building ${target.output} (${existsSync(output) ? 'older than its sources' : 'missing'})`,
  );
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', target.script], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', target.script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${target.name}: npm run ${target.script} failed`);
    process.exit(result.status ?? 1);
  }
}
