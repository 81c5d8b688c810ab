// Checkpoints an SQLite file's write-ahead log from a thread of its own, on a timer. SQLite's
// automatic checkpoint runs inside the commit that crosses 1,000 WAL pages: that request pays for
// copying the log into the database and its fsync (about a quarter of an ingest call's time). With
// it turned off on the writer, this thread's own connection runs PASSIVE checkpoints, which never
// wait for or block the writer or the readers, so no request waits on a checkpoint.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface WalCheckpointer {
  /** Runs a last checkpoint and ends the thread. */
  stop(): Promise<void>;
}

/** The thread's code: better-sqlite3 by its resolved path, so it works from the bundle as from the sources. */
function threadCode(driverPath: string): string {
  return `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(${JSON.stringify(driverPath)});
const db = new Database(workerData.path, { timeout: 5000 });
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    // Busy or locked: the next tick tries again.
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;
}

/**
 * Starts the thread for the file at `path` (already in WAL mode). `onFailure` is called if the thread
 * dies: the caller turns SQLite's automatic checkpoint back on, so the log cannot grow without end.
 */
export async function startWalCheckpointer(
  path: string,
  intervalMs: number,
  onFailure: (err: Error) => void,
): Promise<WalCheckpointer> {
  const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(threadCode(driverPath), { eval: true, workerData: { path, intervalMs } });
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  worker.on('error', (err) => {
    if (!stopping) onFailure(err);
  });
  worker.once('exit', (code) => {
    if (!stopping) onFailure(new Error(`the WAL checkpoint thread exited with code ${code}`));
  });
  // The thread alone must not keep the process alive.
  worker.unref();
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
