// Start-up as an operator meets it: the real process (`tsx src/main.ts`) refuses to run open on a
// non-loopback address (before it listens), refuses AUTH=required with no key, says so loudly when
// it runs open on loopback, and requires keys once one is made with the real `npm run keys`.
// The policy behind it is checked case by case.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { parseKey } from '../src/auth/key-material';
import { decideStartup, isLoopbackHost, keysRequired } from '../src/auth/policy';

const ROOT = join(import.meta.dirname, '..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const dir = mkdtempSync(join(tmpdir(), 'atelier-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'AUTH',
    'HOST',
    'PORT',
    'DATABASE_URL',
    'REDIS_URL',
    'NODE_ENV',
    'LOG_LEVEL',
    'ART_BACKEND_URL',
    'ART_BACKENDS',
    'OPENAI_BASE_URL',
    'OPENAI_API_KEY',
  ])
    delete env[name];
  return { ...env, PORT: '0', LOG_LEVEL: 'info', ...extra };
}

/** Runs a command to its end (or kills it after timeoutMs). */
function runToEnd(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 20_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the server, waits for its "up" line, runs fn against it, then stops it with SIGTERM. */
async function whileRunning(
  env: NodeJS.ProcessEnv,
  fn: (url: string, output: () => string) => Promise<void>,
): Promise<Run> {
  const child = spawn(TSX, ['src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 20_000;
    let url: string | undefined;
    while (!(url = /Atelier is up: .*?(http:\/\/[^/\s]+)\/graphql/.exec(stdout)?.[1])) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`server did not start:\n${stdout}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await fn(url, () => stdout + stderr);
  } finally {
    child.kill('SIGTERM');
  }
  return { code: await exited, stdout, stderr };
}

describe('the server process', () => {
  it.concurrent(
    'refuses to start open on a non-loopback address, before listening, and says how to fix it',
    async () => {
      const run = await runToEnd(
        TSX,
        ['src/main.ts'],
        baseEnv({ HOST: '0.0.0.0', DATABASE_URL: `sqlite:${join(dir, 'exposed.sqlite')}` }),
      );
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(
        /Refusing to start: HOST=0\.0\.0\.0 is not a loopback address and no API key is active/,
      );
      expect(run.stderr).toContain('npm run keys -- create');
      expect(run.stderr).toContain('AUTH=open');
      expect(run.stdout + run.stderr).not.toMatch(/listening|Atelier is up/);
    },
  );

  it.concurrent('refuses AUTH=required while no key is active, even on loopback', async () => {
    const run = await runToEnd(
      TSX,
      ['src/main.ts'],
      baseEnv({ HOST: '127.0.0.1', AUTH: 'required', DATABASE_URL: `sqlite:${join(dir, 'required.sqlite')}` }),
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/Refusing to start: AUTH=required but no API key is active/);
  });

  it('runs open on loopback with no key and says so; after `npm run keys -- create` it requires keys', async () => {
    const env = baseEnv({ HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'local.sqlite')}` });
    const open = await whileRunning(env, async (url) => {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"{ viewer { openAccess } }"}',
      });
      expect(await res.json()).toEqual({ data: { viewer: { openAccess: true } } });
    });
    expect(open.stderr).toMatch(/Running OPEN \(no API keys\): no key exists and Atelier listens only on loopback/);
    expect(open.code).toBe(0);

    const made = await runToEnd('npm', ['run', '-s', 'keys', '--', 'create', '--name', 'ops', '--scope', 'admin'], env);
    expect(made.code).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(/^atl_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(made.stderr).toContain('shown this once');

    const keyed = await whileRunning(env, async (url) => {
      const ask = (headers: Record<string, string>) =>
        fetch(`${url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: '{"query":"{ viewer { keyName } }"}',
        });
      expect((await ask({})).status).toBe(401);
      expect(await (await ask({ authorization: `Bearer ${key}` })).json()).toEqual({
        data: { viewer: { keyName: 'ops' } },
      });
    });
    expect(keyed.stderr).toMatch(/API keys required \(1 active\)/);
    expect(keyed.stdout + keyed.stderr).not.toContain(parseKey(key)!.secret);
  });
});

describe('the policy', () => {
  it('knows loopback addresses', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      'localhost',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      'app.localhost',
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      '0.0.0.0',
      '::',
      '',
      '10.0.0.5',
      '192.168.1.2',
      'example.com',
      'localhost.example.com',
      '128.0.0.1',
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('requires keys except on loopback before the first key, or with AUTH=open', () => {
    expect(keysRequired('auto', true, false)).toBe(false);
    expect(keysRequired('auto', true, true)).toBe(true);
    expect(keysRequired('auto', false, false)).toBe(true);
    expect(keysRequired('required', true, false)).toBe(true);
    expect(keysRequired('open', false, true)).toBe(false);
  });

  it.each([
    [{ mode: 'auto', host: '0.0.0.0', activeKeys: 0, anyKeyEverMade: false }, false, /Refusing to start/],
    [{ mode: 'auto', host: '0.0.0.0', activeKeys: 0, anyKeyEverMade: true }, false, /Refusing to start/],
    [{ mode: 'auto', host: '0.0.0.0', activeKeys: 2, anyKeyEverMade: true }, true, /API keys required \(2 active\)/],
    [{ mode: 'auto', host: '127.0.0.1', activeKeys: 0, anyKeyEverMade: false }, true, /Running OPEN/],
    [{ mode: 'auto', host: '127.0.0.1', activeKeys: 0, anyKeyEverMade: true }, true, /none is active/],
    [
      { mode: 'required', host: '127.0.0.1', activeKeys: 0, anyKeyEverMade: false },
      false,
      /AUTH=required but no API key is active/,
    ],
    [
      { mode: 'open', host: '0.0.0.0', activeKeys: 0, anyKeyEverMade: false },
      true,
      /!!! AUTH=open on 0\.0\.0\.0:4000.*ANYONE WHO CAN REACH THIS PORT/,
    ],
    [{ mode: 'open', host: '127.0.0.1', activeKeys: 1, anyKeyEverMade: true }, true, /AUTH=open/],
  ] as const)('%j → start %s', (facts, start, message) => {
    const decision = decideStartup({ ...facts, port: 4000 });
    expect(decision.start).toBe(start);
    expect(decision.message).toMatch(message);
  });
});

describe('npm start', () => {
  it('builds and runs compiled JavaScript on plain Node, and stops on SIGTERM to its own PID with nothing left behind', async () => {
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: baseEnv({ HOST: '127.0.0.1', DATABASE_URL: `sqlite:${join(dir, 'npm-start.sqlite')}` }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 90_000;
    let url: string | undefined;
    while (!(url = /Atelier is up: .*?(http:\/\/[^/\s]+)\/graphql/.exec(output)?.[1])) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`npm start did not start the server:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await fetch(`${url}/health`)).status).toBe(200);
    // The server is npm's own child (no shell or tsx in between), running the bundle on plain Node.
    const [serverPid] = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
    const cmdline = readFileSync(`/proc/${serverPid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(cmdline.slice(1)).toEqual(['dist/server/main.mjs']);
    expect(cmdline.join(' ')).not.toMatch(/tsx/);

    child.kill('SIGTERM');
    expect(await exited).not.toBeNull();
    await new Promise((r) => setTimeout(r, 500));
    expect(existsSync(`/proc/${serverPid}`)).toBe(false);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    expect(output).toContain('SIGTERM: shutting down');
  }, 120_000);
});
