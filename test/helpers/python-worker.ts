// Starts the real Python worker (`python -m atelier_worker`) on a free port, as a GPU box runs it, and
// resolves once it prints its "listening" line; the tests that drive it share this one way in.
import { spawn, type ChildProcess } from 'node:child_process';
import { delimiter } from 'node:path';

export interface PythonWorker {
  proc: ChildProcess;
  url: string;
  /** What the worker wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** SIGTERM, then waits for it to exit (a no-op when it already has). */
  stop(): Promise<void>;
}

export async function startPythonWorker(
  python: string,
  options: { args?: string[]; pythonPath: string[]; env?: Record<string, string>; startTimeoutMs?: number },
): Promise<PythonWorker> {
  let stderr = '';
  const proc = spawn(
    python,
    [
      '-m',
      'atelier_worker',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--heartbeat-seconds',
      '0.2',
      ...(options.args ?? []),
    ],
    {
      env: {
        ...process.env,
        PYTHONPATH: options.pythonPath.join(delimiter),
        PYTHONDONTWRITEBYTECODE: '1',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  proc.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    const timer = setTimeout(
      () => fail(new Error(`the worker did not start:\n${stderr}`)),
      options.startTimeoutMs ?? 30_000,
    );
    proc.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.includes('"listening"'));
      if (line) {
        clearTimeout(timer);
        const info = JSON.parse(line) as { url?: string; port?: number };
        ok(info.url ?? `http://127.0.0.1:${info.port}`);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the worker exited with ${code}:\n${stderr}`));
    });
  });
  return {
    proc,
    url,
    stderr: () => stderr,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
