// `atelier watch` hashes only the files that changed since its last pass (src/cli/folders.ts): an
// unchanged file's hash comes from the pass before, a grown or rewritten one is read again.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { folderFiles, type HashCache } from '../src/cli/folders';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the watcher’s hash cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-hashes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reuses the hash of an unchanged file and reads a changed one again', async () => {
    mkdirSync(join(dir, 'trajectories/train'), { recursive: true });
    writeFileSync(join(dir, 'model.json'), '{}');
    writeFileSync(join(dir, 'history.jsonl'), '{"step": 1}\n');
    writeFileSync(join(dir, 'trajectories/train/0001.parquet'), 'one');
    const cache: HashCache = new Map();
    const first = Object.fromEntries((await folderFiles(dir, cache)).map((f) => [f.path, f.sha256]));
    expect(first['trajectories/train/0001.parquet']).toBe(sha('one'));
    // Mark what the cache holds for the unchanged file: if it is read again, the mark is lost.
    const abs = join(dir, 'trajectories/train/0001.parquet');
    cache.set(abs, { ...cache.get(abs)!, sha256: 'from-the-last-pass' });
    appendFileSync(join(dir, 'history.jsonl'), '{"step": 2}\n');
    const second = Object.fromEntries((await folderFiles(dir, cache)).map((f) => [f.path, f.sha256]));
    expect(second['trajectories/train/0001.parquet']).toBe('from-the-last-pass');
    expect(second['history.jsonl']).toBe(sha('{"step": 1}\n{"step": 2}\n'));
    // Rewritten (another size): read again.
    writeFileSync(abs, 'one, complete');
    expect((await folderFiles(dir, cache)).find((f) => f.path === 'trajectories/train/0001.parquet')!.sha256).toBe(
      sha('one, complete'),
    );
    // No cache (a one-shot import): every file is read.
    expect((await folderFiles(dir)).find((f) => f.path === 'trajectories/train/0001.parquet')!.sha256).toBe(
      sha('one, complete'),
    );
  });
});
