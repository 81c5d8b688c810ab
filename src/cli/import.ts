// `atelier import PATH`: each model folder becomes one TRACKED run on the server. The server says
// which files it still needs and from where (its plan); the client ships those, history.jsonl in
// parts of whole lines under the body limit, the other files several to a request
// (POST /api/import/files, one token of the rate limit each). Importing again ships nothing new.
import { createHash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { encodeImportBatch, IMPORT_BATCH_TYPE, MAX_BATCH_FILES, type BatchFile } from '../art-format/import-batch';
import type { AtelierClient } from './client';
import { folderFiles, modelFolders, type HashCache, type LocalFile } from './folders';

export interface ImportSummary {
  folder: string;
  run: { id: number; uuid: string; created: boolean };
  sent: number;
  stored: number;
  /** Files the server refused, with its reason; the others were imported. */
  failed: Array<{ path: string; error: string }>;
}

interface FileResult {
  path: string;
  stored: number;
}
interface FileError {
  path: string;
  status: number;
  error: { code: string; message: string };
}

/** Bytes per request (history.jsonl's parts, a batch of whole files); the server's MAX_BODY_BYTES default is 4 MiB. */
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;

async function readRange(abs: string, from: number, length: number): Promise<Buffer> {
  const fh = await open(abs, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, from);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

async function sendFile(
  client: AtelierClient,
  runUuid: string,
  file: LocalFile,
  from: number,
  chunkBytes: number,
): Promise<number> {
  const post = async (body: Uint8Array, offset: number) => {
    const q = new URLSearchParams({
      run: runUuid,
      path: file.path,
      from: String(offset),
      size: String(file.size),
      sha256: file.sha256,
    });
    return client.json<{ stored: number; consumed: number; pending: boolean }>(
      `/api/import/file?${q}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Blob([body as Uint8Array<ArrayBuffer>]),
      },
      `import ${file.path}`,
    );
  };
  if (!file.abs) return (await post(new Uint8Array(), 0)).stored;
  if (file.path !== 'history.jsonl') return (await post(await readFile(file.abs), 0)).stored;
  // history.jsonl: parts of complete lines, each continuing where the server stopped.
  let stored = 0;
  let offset = from;
  let chunk = chunkBytes;
  while (offset < file.size) {
    const bytes = await readRange(file.abs, offset, Math.min(chunk, file.size - offset));
    const result = await post(bytes, offset);
    stored += result.stored;
    if (result.consumed > offset) {
      offset = result.consumed;
      chunk = chunkBytes;
    } else if (bytes.length < file.size - offset && chunk < chunkBytes * 4) {
      chunk *= 2; // one line longer than a part
    } else break; // what is left is a line still being written
  }
  return stored;
}

export async function importFolder(
  client: AtelierClient,
  folder: string,
  chunkBytes = DEFAULT_CHUNK_BYTES,
  cache?: HashCache,
): Promise<ImportSummary> {
  const files = await folderFiles(folder, cache);
  const model = files.find((f) => f.path === 'model.json');
  const plan = await client.json<{
    run: ImportSummary['run'];
    need: Array<{ path: string; from: number; check?: { offset: number; length: number; sha256: string } }>;
  }>(
    '/api/import/plan',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: model ? await readFile(join(folder, 'model.json'), 'utf8') : null,
        files: files.map(({ path, size, sha256 }) => ({ path, size, sha256 })),
      }),
    },
    `import plan of ${folder}`,
  );
  const byPath = new Map(files.map((f) => [f.path, f]));
  const summary: ImportSummary = { folder, run: plan.run, sent: 0, stored: 0, failed: [] };
  const fail = (path: string, err: unknown) =>
    // One bad file (a corrupt Parquet, say) does not stop the others; it is sent again next time.
    summary.failed.push({ path, error: err instanceof Error ? err.message : String(err) });
  // Whole files (trajectories, checkpoints) go several to a request, up to chunkBytes of them.
  let batch: Array<BatchFile & { bytes: Uint8Array }> = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const sent = batch;
    batch = [];
    batchBytes = 0;
    try {
      const { results } = await client.json<{ results: Array<FileResult | FileError> }>(
        `/api/import/files?${new URLSearchParams({ run: plan.run.uuid })}`,
        {
          method: 'POST',
          headers: { 'content-type': IMPORT_BATCH_TYPE },
          body: new Blob([encodeImportBatch(sent) as Uint8Array<ArrayBuffer>]),
        },
        `import ${sent.length} file(s) of ${folder}`,
      );
      results.forEach((r, i) => {
        if ('error' in r)
          return void fail(sent[i].path, new Error(`import ${sent[i].path}: HTTP ${r.status}: ${r.error.message}`));
        summary.stored += r.stored;
        summary.sent++;
      });
    } catch (err) {
      for (const f of sent) fail(f.path, err);
    }
  };
  for (const need of plan.need) {
    const file = byPath.get(need.path);
    if (!file) continue;
    try {
      if (file.path !== 'history.jsonl') {
        const bytes = file.abs ? await readFile(file.abs) : new Uint8Array();
        if (batch.length && (batchBytes + bytes.length > chunkBytes || batch.length >= MAX_BATCH_FILES)) await flush();
        batch.push({ path: file.path, size: file.size, sha256: file.sha256, from: 0, bytes });
        batchBytes += bytes.length;
        continue;
      }
      // Continue where the server stopped only if this is the file it read (its last line is here).
      let from = need.from;
      if (from > 0 && file.abs) {
        const c = need.check;
        const here = c ? await readRange(file.abs, c.offset, c.length) : null;
        if (!c || !here || createHash('sha256').update(here).digest('hex') !== c.sha256) from = 0;
      }
      summary.stored += await sendFile(client, plan.run.uuid, file, from, chunkBytes);
      summary.sent++;
    } catch (err) {
      fail(need.path, err);
    }
  }
  await flush();
  return summary;
}

export async function importPath(
  client: AtelierClient,
  path: string,
  chunkBytes?: number,
  cache?: HashCache,
): Promise<ImportSummary[]> {
  const out: ImportSummary[] = [];
  for (const folder of modelFolders(path)) out.push(await importFolder(client, folder, chunkBytes, cache));
  return out;
}
