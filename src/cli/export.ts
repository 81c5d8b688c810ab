// `atelier export RUN --format art|jsonl --out DIR`: the server writes ART's formats, the client
// saves them. `art`: the folder ART's own readers load (.art/<project>/models/<name>/: model.json,
// history.jsonl, trajectories/<split>/<step>.parquet, checkpoints/<step>/); `jsonl`: one ART
// trajectory JSON a line, streamed to a file as it comes.
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import type { AtelierClient } from './client';

export async function exportArtFolder(
  client: AtelierClient,
  run: string,
  out: string,
): Promise<{ folder: string; files: number }> {
  const id = encodeURIComponent(run);
  const manifest = await client.json<{ run: { project: string; name: string | null; uuid: string }; files: string[] }>(
    `/api/runs/${id}/art`,
    { method: 'GET' },
    `export of run ${run}`,
  );
  const folder = join(out, manifest.run.project, 'models', manifest.run.name ?? manifest.run.uuid);
  for (const path of manifest.files) {
    const target = join(folder, ...path.split('/'));
    if (path.startsWith('checkpoints/')) {
      await mkdir(target, { recursive: true });
      continue;
    }
    const res = await client.request(
      `/api/runs/${id}/art/${path.split('/').map(encodeURIComponent).join('/')}`,
      { method: 'GET' },
      `export ${path}`,
    );
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, new Uint8Array(await res.arrayBuffer()));
  }
  return { folder, files: manifest.files.length };
}

export async function exportJsonl(
  client: AtelierClient,
  run: string,
  outFile: string,
  filter: { split?: string | null; step?: number | null },
): Promise<void> {
  const q = new URLSearchParams();
  if (filter.split) q.set('split', filter.split);
  if (filter.step != null) q.set('step', String(filter.step));
  const res = await client.request(
    `/runs/${encodeURIComponent(run)}/trajectories.jsonl?${q}`,
    { method: 'GET' },
    `trajectories of run ${run}`,
  );
  await mkdir(dirname(outFile), { recursive: true });
  await pipeline(Readable.fromWeb(res.body as never), createWriteStream(outFile));
}
