// `atelier watch PATH`: follows ART model folders live. fs.watch (recursive) wakes it on a change;
// a periodic rescan covers what fs.watch misses (network file systems, folders made later). Each
// pass is an import: the server's plan says what it has, so a watcher restarted or killed resumes
// where the server is, with nothing lost or sent twice.
import { watch, type FSWatcher } from 'node:fs';

import type { AtelierClient } from './client';
import type { HashCache } from './folders';
import { importPath, type ImportSummary } from './import';

export interface WatchOptions {
  rescanMs: number;
  signal?: AbortSignal;
  chunkBytes?: number;
  log?: (line: string) => void;
  /** Called after each pass (tests wait on it). */
  onPass?: (summaries: ImportSummary[]) => void;
}

export async function watchPath(client: AtelierClient, path: string, options: WatchOptions): Promise<void> {
  const log = options.log ?? (() => {});
  let wake: (() => void) | null = null;
  let dirty = true;
  const poke = () => {
    dirty = true;
    wake?.();
  };
  // Files unchanged since the last pass are not read again (a long run's folder is mostly old files).
  const hashes: HashCache = new Map();
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(path, { recursive: true }, poke);
    watcher.on('error', () => (watcher = null));
  } catch {
    log(`fs.watch is not available for ${path}: rescanning every ${options.rescanMs / 1000} s`);
  }
  const timer = setInterval(poke, options.rescanMs);
  options.signal?.addEventListener('abort', () => wake?.(), { once: true });
  try {
    while (!options.signal?.aborted) {
      if (dirty) {
        dirty = false;
        try {
          const summaries = await importPath(client, path, options.chunkBytes, hashes);
          for (const s of summaries) {
            if (s.sent) log(`${s.folder}: ${s.sent} file(s) sent, ${s.stored} row(s) stored`);
            for (const f of s.failed) log(`${s.folder}: ${f.path}: ${f.error} (sent again on the next change)`);
          }
          options.onPass?.(summaries);
        } catch (err) {
          if (options.signal?.aborted) break;
          log(`import failed: ${err instanceof Error ? err.message : String(err)} (trying again)`);
        }
      }
      if (!dirty) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    clearInterval(timer);
    watcher?.close();
  }
}
