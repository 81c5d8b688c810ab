// Decodes the import's step files on a thread of its own, so Parquet, zstd and ART's rules (most of
// an import's CPU beside SQLite's) run beside the event loop instead of on it: requests and
// subscriptions keep being served, and one request's files are decoded while the previous ones are
// written. From the sources (tsx, vitest) the thread loads decode-thread.ts through tsx; from the
// bundle npm start runs, decode-thread.mjs beside it (npm run build:server builds both). If the
// thread cannot start, files are decoded on the event loop, as before; a file that takes longer than
// DECODE_TIMEOUT_MS ends the thread (a new one starts for the next file) and fails, naming the file.
import { Worker } from 'node:worker_threads';

import { ValidationError, type ValidationIssue } from '../errors';
import type { ArtGroupRows } from '../trajectories/art-rows';
import type { PreparedGroups } from '../trajectories/prepare-groups';
import { decodeStepFile, type StepFile } from './decode-step';

export interface DecodeJob extends StepFile {
  id: number;
}

export type DecodeReply =
  | { id: number; total: number; rows: ArtGroupRows[] }
  | { id: number; issues: ValidationIssue[] }
  | { id: number; message: string };

export const DECODE_TIMEOUT_MS = 60_000;

interface Waiting {
  /** The file's identity (its bytes went to the thread). */
  job: Omit<StepFile, 'bytes'>;
  resolve: (p: PreparedGroups) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/** The thread's Worker: the .ts entry through tsx from the sources, the .mjs beside the bundle from dist/. */
export function spawnDecodeThread(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const entry = new URL('./decode-thread.ts', here).href;
    return new Worker(
      `import('tsx/esm/api').then((m) => m.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}))`,
      { eval: true },
    );
  }
  return new Worker(new URL('./decode-thread.mjs', here));
}

export class ArtDecoder {
  private worker: Worker | null = null;
  private ready: Promise<boolean> | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private closed = false;
  /** Set once the thread could not start: from then on files are decoded on the event loop. */
  private unavailable: string | null = null;

  /** How long one file may take on the thread. */
  timeoutMs: number;

  constructor(
    private readonly options: {
      spawn?: () => Worker;
      timeoutMs?: number;
      onUnavailable?: (reason: string) => void;
    } = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DECODE_TIMEOUT_MS;
  }

  /** Why files are decoded on the event loop, if they are. */
  get fallbackReason(): string | null {
    return this.unavailable;
  }

  async decode(job: StepFile): Promise<PreparedGroups> {
    if (this.closed || this.unavailable || !(await this.start()) || !this.worker) return decodeStepFile(job);
    const id = this.nextId++;
    // The thread gets a copy of the file's bytes, handed over; the request's body stays the caller's.
    const bytes = new Uint8Array(job.bytes); // a copy (Buffer.slice would share the body)
    const ms = this.timeoutMs;
    return new Promise<PreparedGroups>((resolve, reject) => {
      const timer = setTimeout(() => this.timedOut(id, ms), ms);
      const { bytes: _sent, ...identity } = job;
      this.waiting.set(id, { job: identity, resolve, reject, timer });
      this.worker!.postMessage({ ...job, id, bytes } satisfies DecodeJob, [bytes.buffer]);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('the server is stopping'));
    if (worker) await worker.terminate();
  }

  /** Starts the thread if it is not running; false if it cannot start (then the event loop decodes). */
  private start(): Promise<boolean> {
    if (this.ready) return this.ready;
    let worker: Worker;
    try {
      worker = (this.options.spawn ?? spawnDecodeThread)();
    } catch (err) {
      return Promise.resolve(this.giveUp(err));
    }
    this.worker = worker;
    // The thread alone must not keep the process alive.
    worker.unref();
    this.ready = new Promise<boolean>((resolve) => {
      let started = false;
      worker.on('message', (m: DecodeReply | { ready: true }) => {
        if ('ready' in m) {
          started = true;
          return resolve(true);
        }
        this.settle(m);
      });
      // Before it is ready, a thread that fails means it cannot run here: the event loop decodes from
      // then on. Once running, a lost thread is replaced by the next file's.
      const ended = (err: Error) => {
        if (this.worker !== worker) return;
        this.lost(worker, err);
        resolve(started ? false : this.giveUp(err));
      };
      worker.once('error', ended);
      worker.once('exit', (code) => ended(new Error(`the decode thread exited with code ${code}`)));
    });
    return this.ready;
  }

  private settle(reply: DecodeReply): void {
    const w = this.waiting.get(reply.id);
    if (!w) return;
    this.waiting.delete(reply.id);
    clearTimeout(w.timer);
    if ('issues' in reply) return w.reject(new ValidationError(reply.issues));
    if ('message' in reply) return w.reject(new Error(reply.message));
    w.resolve({
      prepared: true,
      step: w.job.step,
      split: w.job.split,
      field: 'groups',
      total: reply.total,
      built: { runUuid: w.job.runUuid, rows: reply.rows },
    });
  }

  /** A file that takes too long: the thread is ended (a new one starts next time), the file fails. */
  private timedOut(id: number, ms: number): void {
    const w = this.waiting.get(id);
    if (!w || !this.worker) return;
    this.waiting.delete(id);
    w.reject(
      ValidationError.of(
        w.job.path,
        'timeout',
        `took longer than ${ms} ms to read; it was given up (is it ART's file?)`,
      ),
    );
    const worker = this.worker;
    this.lost(worker, new Error(`the decode thread was restarted: ${w.job.path} took longer than ${ms} ms`));
    void worker.terminate();
  }

  /** The thread is gone: what it still had fails (retried by the client), the next file starts another. */
  private lost(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.ready = null;
    this.failAll(err);
  }

  private failAll(err: Error): void {
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      this.waiting.delete(id);
      w.reject(err);
    }
  }

  private giveUp(err: unknown): false {
    if (!this.unavailable) {
      this.unavailable = err instanceof Error ? err.message : String(err);
      this.options.onUnavailable?.(this.unavailable);
    }
    return false;
  }
}
