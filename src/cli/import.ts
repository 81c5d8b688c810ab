// `atelier import PATH`: each model folder becomes one TRACKED run on the server. The server says
// which files it still needs and from where (its plan); the client ships those, history.jsonl in
// parts of whole lines under the body limit. Importing again ships nothing new.
import { createHash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';

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

/** Bytes of history.jsonl per request; the server's MAX_BODY_BYTES default is 4 MiB. */
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
  for (const need of plan.need) {
    const file = byPath.get(need.path);
    if (!file) continue;
    try {
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
      // One bad file (a corrupt Parquet, say) does not stop the others; it is sent again next time.
      summary.failed.push({ path: need.path, error: err instanceof Error ? err.message : String(err) });
    }
  }
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
