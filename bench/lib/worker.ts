// Child processes for the benchmarks: a server, a load generator or a crowd of subscribers each run
// in their own Node process, driven by a small request/reply protocol over the IPC channel. Keeping
// them apart is what lets a measurement see one process's CPU or memory. Workers run as `npm start`
// runs Atelier: bundled by esbuild and run on plain Node (tsx only when asked, for comparison).
import { fork, type ChildProcess } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

type Handler = (params: any) => unknown;
interface Request {
  id: number;
  method: string;
  params: unknown;
}
interface Reply {
  id: number;
  result?: unknown;
  error?: string;
}

export interface Worker {
  readonly pid: number;
  readonly name: string;
  call<T = unknown>(method: string, params?: unknown, timeoutMs?: number): Promise<T>;
  /** Asks the worker to close what it opened, then waits for it to exit (killing it if it hangs). */
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();

/** Kills every worker still running: the runner's last resort on errors and interrupts. */
export function killAllWorkers(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

const builds = new Map<string, Promise<string>>();

/**
 * The worker compiled to one JavaScript file with the options `npm run build:server` bundles
 * src/main.ts with (its npm dependencies left as imports), for running on plain Node as `npm start`
 * does. It is written to dist/bench/ of this checkout, so those imports resolve from its
 * node_modules and checkouts running benchmarks at once do not overwrite each other's bundles; each
 * worker is built once per benchmark run.
 */
function compiledWorker(name: string): Promise<string> {
  let built = builds.get(name);
  if (!built) {
    built = (async () => {
      const { build } = await import('esbuild');
      const outfile = fileURLToPath(new URL(`../../dist/bench/${name}.mjs`, import.meta.url));
      // The import's decode thread beside it, as npm run build:server builds it (decode-pool.ts).
      await build({
        entryPoints: [
          fileURLToPath(new URL(`./workers/${name}.ts`, import.meta.url)),
          fileURLToPath(new URL('../../src/art-folders/decode-thread.ts', import.meta.url)),
        ],
        outdir: dirname(outfile),
        entryNames: '[name]',
        outExtension: { '.js': '.mjs' },
        bundle: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        target: 'node20',
        logLevel: 'warning',
      });
      return outfile;
    })();
    builds.set(name, built);
    built.catch(() => builds.delete(name));
  }
  return built;
}

/**
 * Starts bench/lib/workers/<name>.ts in its own process and waits until it is ready: bundled by
 * esbuild and run on plain Node, as `npm start` runs Atelier, or with `tsx`, through tsx as
 * `npm run dev` runs it. With BENCH_CPU_PROF=<dir> in the environment, every worker writes V8 CPU
 * profiles (one per thread) to <dir>/<name>/ on exit.
 */
export async function startWorker(
  name: string,
  options: { exposeGc?: boolean; tsx?: boolean; env?: Record<string, string> } = {},
): Promise<Worker> {
  const entry = options.tsx
    ? fileURLToPath(new URL(`./workers/${name}.ts`, import.meta.url))
    : await compiledWorker(name);
  const profileDir = process.env.BENCH_CPU_PROF;
  const execArgv = [
    ...(options.tsx ? ['--import', 'tsx'] : []),
    ...(options.exposeGc ? ['--expose-gc'] : []),
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}/${name}`] : []),
  ];
  const child = fork(entry, [], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...options.env },
  });
  live.add(child);
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      live.delete(child);
      for (const p of pending.values())
        p.reject(new Error(`worker ${name} exited (${signal ?? code}) before replying`));
      pending.clear();
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker ${name} did not start within 60 s`)), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`worker ${name} exited with ${code} while starting`)));
    child.once('message', (m: unknown) => {
      clearTimeout(timer);
      if ((m as { ready?: boolean })?.ready) resolve();
      else reject(new Error(`worker ${name} sent ${JSON.stringify(m)} instead of ready`));
    });
  });
  child.on('message', (m: Reply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error !== undefined) p.reject(new Error(`${name}: ${m.error}`));
    else p.resolve(m.result);
  });

  return {
    pid: child.pid!,
    name,
    call<T>(method: string, params?: unknown, timeoutMs = 120_000): Promise<T> {
      if (exited) return Promise.reject(new Error(`worker ${name} has exited`));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${name}.${method} took longer than ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (v) => (clearTimeout(timer), resolve(v as T)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
        child.send({ id, method, params } satisfies Request);
      });
    },
    async stop() {
      if (exited) return;
      const id = nextId++;
      child.send({ id, method: '__exit', params: null } satisfies Request);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** The worker side: answers requests with the handlers; `close` (if given) runs before exiting. */
export function serveWorker(handlers: Record<string, Handler> & { close?: () => unknown }): void {
  if (!process.send) throw new Error('a benchmark worker must be started with startWorker()');
  process.on('message', async (m: Request) => {
    if (m.method === '__exit') {
      try {
        await handlers.close?.();
      } finally {
        process.exit(0);
      }
    }
    const handler = handlers[m.method];
    try {
      if (!handler) throw new Error(`no method ${m.method}`);
      const result = await handler(m.params);
      process.send!({ id: m.id, result: result ?? null } satisfies Reply);
    } catch (err) {
      process.send!({
        id: m.id,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      } satisfies Reply);
    }
  });
  // The parent going away (crash, Ctrl-C) must not leave servers or sockets behind.
  process.on('disconnect', () => process.exit(0));
  process.send({ ready: true });
}
