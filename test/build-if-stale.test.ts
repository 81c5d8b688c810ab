// `npm start` builds only what is stale: its prestart (scripts/build-if-stale.mjs) rebuilds the
// server bundle or the dashboard when either is missing or older than its sources, and leaves a
// fresh one alone. Run here as npm runs it (`npm start` in a project), on a small project whose
// build scripts only record that they ran, so the real builds and dist/ of this checkout are untouched.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', 'scripts', 'build-if-stale.mjs');
const dir = mkdtempSync(join(tmpdir(), 'atelier-build-if-stale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each build writes its output and appends its name to builds.log. */
const build = (name: string, output: string) =>
  `node -e "const f=require('fs');f.mkdirSync(require('path').dirname('${output}'),{recursive:true});f.writeFileSync('${output}','x');f.appendFileSync('builds.log','${name}\\\\n')"`;

function project(): string {
  const root = mkdtempSync(join(dir, 'project-'));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'web', 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'main.ts'), 'export {};\n');
  writeFileSync(join(root, 'web', 'src', 'main.tsx'), 'export {};\n');
  writeFileSync(join(root, 'package-lock.json'), '{}\n');
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({
      name: 'p',
      private: true,
      scripts: {
        prestart: `node ${JSON.stringify(SCRIPT).slice(1, -1)}`,
        start: 'node -e "0"',
        'build:server': build('server', 'dist/server/main.mjs'),
        'build:web': build('web', 'dist/web/index.html'),
      },
    }),
  );
  return root;
}

function npmStart(root: string): string[] {
  const result = spawnSync('npm', ['start', '--silent'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`npm start failed:\n${result.stdout}\n${result.stderr}`);
  try {
    const log = readFileSync(join(root, 'builds.log'), 'utf8').trim();
    rmSync(join(root, 'builds.log'));
    return log ? log.split('\n') : [];
  } catch {
    return [];
  }
}

/** Sets a file's modification time to `seconds` from now. */
const age = (path: string, seconds: number) => {
  const t = new Date(Date.now() + seconds * 1000);
  utimesSync(path, t, t);
};

describe('npm start builds only what is stale', () => {
  it('builds both on a fresh checkout, then neither while dist/ is newer than the sources', () => {
    const root = project();
    expect(npmStart(root)).toEqual(['server', 'web']);
    expect(npmStart(root)).toEqual([]);
  }, 60_000);

  it('rebuilds the server alone when a file under src/ is newer than its bundle', () => {
    const root = project();
    npmStart(root);
    age(join(root, 'dist', 'server', 'main.mjs'), -60);
    age(join(root, 'dist', 'web', 'index.html'), -60);
    for (const f of ['web', 'web/src', 'web/src/main.tsx', 'src', 'package.json', 'package-lock.json'])
      age(join(root, f), -120);
    age(join(root, 'src', 'main.ts'), -30);
    expect(npmStart(root)).toEqual(['server']);
    expect(npmStart(root)).toEqual([]);
  }, 60_000);

  it('rebuilds the dashboard alone when web/ changed, and both when the installed packages did', () => {
    const root = project();
    npmStart(root);
    for (const f of ['dist/server/main.mjs', 'dist/web/index.html']) age(join(root, f), -60);
    for (const f of ['src', 'src/main.ts', 'web', 'web/src', 'web/src/main.tsx', 'package.json', 'package-lock.json'])
      age(join(root, f), -120);
    writeFileSync(join(root, 'web', 'src', 'new-page.tsx'), 'export {};\n');
    expect(npmStart(root)).toEqual(['web']);
    writeFileSync(join(root, 'package-lock.json'), '{"changed":true}\n');
    expect(npmStart(root)).toEqual(['server', 'web']);
  }, 60_000);
});
