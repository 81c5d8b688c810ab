// The import's decode thread (src/art-folders/decode-pool.ts): ART's own step files (the committed
// fixtures ART's writers made) decode on the thread into exactly the rows the event loop makes; a bad
// file's ValidationError comes back whole, naming the file; a thread that cannot start leaves the
// event loop decoding, and one that hangs on a file is ended, the file failing with rule `timeout`
// and the next file decoded by a new thread.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import { afterEach, describe, expect, it } from 'vitest';

import { ArtDecoder, spawnDecodeThread } from '../src/art-folders/decode-pool';
import { decodeStepFile, type StepFile } from '../src/art-folders/decode-step';
import { ValidationError } from '../src/errors';

const MODEL = join(import.meta.dirname, 'fixtures/art-folders/art-0.5/.art/support/models/agent-005');
const file = (path: string, format: StepFile['format'], step: number, split = 'train'): StepFile => ({
  bytes: readFileSync(join(MODEL, path)),
  format,
  path,
  step,
  split,
  runUuid: '6f1c2b9e-0000-4000-8000-000000000005',
});

const decoders: ArtDecoder[] = [];
afterEach(async () => {
  await Promise.all(decoders.splice(0).map((d) => d.close()));
});
function decoder(options?: ConstructorParameters<typeof ArtDecoder>[0]): ArtDecoder {
  const d = new ArtDecoder(options);
  decoders.push(d);
  return d;
}

describe('ART decode thread', () => {
  it("decodes ART's Parquet and JSONL step files into the rows the event loop makes", async () => {
    const d = decoder();
    for (const f of [
      file('trajectories/train/0001.parquet', 'parquet', 1),
      file('trajectories/val/0002.parquet', 'parquet', 2, 'val'),
      file('trajectories/val/0000.jsonl', 'jsonl', 0, 'val'),
    ]) {
      const local = await decodeStepFile(f);
      const threaded = await d.decode(f);
      expect(threaded.total).toBe(local.total);
      expect(threaded.total).toBeGreaterThan(0);
      expect(threaded.built!.rows).toEqual(local.built!.rows);
    }
    // It ran on the thread, not on the event loop's fallback.
    expect(d.fallbackReason).toBeNull();
  });

  it('gives back a bad file’s ValidationError naming the file, and keeps decoding', async () => {
    const d = decoder();
    const good = file('trajectories/train/0002.parquet', 'parquet', 2);
    const bad = { ...good, path: 'trajectories/train/0009.parquet', bytes: good.bytes.subarray(0, 200) };
    const err = await d.decode(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]).toMatchObject({
      field: 'trajectories/train/0009.parquet',
      rule: 'parquet',
    });
    expect((await d.decode(good)).total).toBeGreaterThan(0);
    // The caller's bytes are its own still (the thread got a copy).
    expect(good.bytes.byteLength).toBeGreaterThan(200);
  });

  it('decodes on the event loop when the thread cannot start, and says why', async () => {
    const reasons: string[] = [];
    const d = decoder({
      spawn: () => new Worker('throw new Error("no threads here")', { eval: true }),
      onUnavailable: (r) => reasons.push(r),
    });
    const f = file('trajectories/train/0003.parquet', 'parquet', 3);
    expect((await d.decode(f)).built!.rows).toEqual((await decodeStepFile(f)).built!.rows);
    expect(reasons).toEqual(['no threads here']);
    expect(d.fallbackReason).toBe('no threads here');
  });

  it('ends a thread that hangs on a file: the file fails with rule timeout, the next gets a new thread', async () => {
    let spawned = 0;
    const d = decoder({
      timeoutMs: 300,
      // The first thread says it is ready and then never answers (a file it cannot get out of).
      spawn: () =>
        spawned++ === 0
          ? new Worker(
              "const { parentPort } = require('node:worker_threads'); parentPort.on('message', () => {}); parentPort.postMessage({ ready: true });",
              { eval: true },
            )
          : spawnDecodeThread(),
    });
    const f = file('trajectories/train/0001.parquet', 'parquet', 1);
    const err = await d.decode(f).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]).toMatchObject({ field: f.path, rule: 'timeout' });
    d.timeoutMs = 600_000; // the new thread's decode is not raced against a clock
    expect((await d.decode(f)).built!.rows).toEqual((await decodeStepFile(f)).built!.rows);
    expect(spawned).toBe(2);
    expect(d.fallbackReason).toBeNull();
    // The README's figure: by default a file may take a minute.
    expect(new ArtDecoder().timeoutMs).toBe(60_000);
  });
});
