// ART's .art folders in and out through the doors a user has: the `atelier` CLI as a child process
// against a real server on a free port, real files (the fixtures ART's own writers made, in
// test/fixtures/art-folders/, see scripts/art-fixtures/generate.py), ART's own Python readers.
import { execFile, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { artRunUuid } from '../src/art-folders/art-folders.service';
import { encodeGlobalId } from '../src/graphql/global-id';
import { artPython, cli, cliProcess, copyFixture, FIXTURES, readWithArt, snapshot } from './helpers/art-folders';
import { startServer, type TestServer } from './helpers/server';
import { subscribe, take, waitFor, wsClient } from './helpers/subscriptions';

const FOLDERS = [
  { fixture: 'art-0.3', name: 'agent-003', trajectories: 15, steps: { train: [0, 1], val: [1] }, history: false },
  { fixture: 'art-0.4', name: 'agent-004', trajectories: 18, steps: { train: [1, 2], val: [2] }, history: true },
  {
    fixture: 'art-0.5',
    name: 'agent-005',
    trajectories: 33,
    steps: { train: [1, 2, 3], val: [0, 2, 3] },
    history: true,
  },
  { fixture: 'art-newer', name: 'agent-newer', trajectories: 6, steps: { train: [1] }, history: true },
];

let a: TestServer;
let b: TestServer;
const on = (s: () => TestServer) => ({ ATELIER_URL: s().url });

beforeAll(async () => {
  [a, b] = await Promise.all([startServer(), startServer()]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

async function importAt(server: TestServer, path: string) {
  const r = await cli(['import', path], { ATELIER_URL: server.url });
  return r;
}

describe('atelier import of every fixture', () => {
  for (const f of FOLDERS) {
    it(`${f.fixture}: one TRACKED run with its history, trajectories by split and step, checkpoints; again is a no-op`, async () => {
      const r = await importAt(a, join(FIXTURES, f.fixture, '.art'));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const uuid = artRunUuid('support', f.name);
      expect(r.stdout).toContain(`run ${uuid} (new)`);
      const rows = await snapshot(a.app, uuid);
      const run = rows.run[0] as Record<string, unknown>;
      expect(run).toMatchObject({
        mode: 'tracked',
        status: 'training',
        project_name: 'support',
        trained_model_name: f.name,
        model_name: 'Qwen/Qwen2.5-0.5B-Instruct',
      });
      expect(rows.trajectories).toHaveLength(f.trajectories);
      for (const [split, steps] of Object.entries(f.steps))
        expect([...new Set(rows.trajectories.filter((t: any) => t.split === split).map((t: any) => t.step))]).toEqual(
          steps,
        );
      // every trajectory carries its ART JSON and its group
      expect(rows.trajectories.every((t: any) => t.art && t.group_art !== null)).toBe(true);
      expect(rows.values.length > 0).toBe(f.history);
      const dirs = join(FIXTURES, f.fixture, '.art/support/models', f.name, 'checkpoints');
      expect((rows.checkpoints as any[]).map((c) => c.name)).toEqual(
        (existsSync(dirs) ? readdirSync(dirs) : []).sort().map((s) => `${f.name}@${Number(s)}`),
      );

      const again = await importAt(a, join(FIXTURES, f.fixture, '.art'));
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('0 file(s) sent, 0 row(s) stored');
      expect(await snapshot(a.app, uuid)).toEqual(rows);
    });
  }

  it('history keeps every key under the split ART logged its row with, several rows of a step merged', async () => {
    const rows = await snapshot(a.app, artRunUuid('support', 'agent-005'));
    const at = (split: string, step: number) =>
      Object.fromEntries(
        (rows.values as any[]).filter((v) => v.split === split && v.step === step).map((v) => [v.name, v.value]),
      );
    // train step 2: the reward row and the trainer's row (loss/*) of the same step; NaN was dropped by ART
    expect(at('train', 2)).toMatchObject({
      'train/reward': 0.65,
      'loss/train': 0.25,
      'data/step_num_trajectories': 6,
      training_step: 2,
    });
    expect(at('val', 2)).toMatchObject({ 'val/reward': 0.65, 'val/correct': 0.5 });
    expect(at('val', 2)).not.toHaveProperty('loss/train');
    expect(Object.keys(at('train', 1))).not.toContain('train/not_a_number');
    // the first row's wall clock of a step wins (every row of a step has one)
    const first = JSON.parse(
      readFileSync(join(FIXTURES, 'art-0.5/.art/support/models/agent-005/history.jsonl'), 'utf8').split('\n')[0],
    );
    expect(at('train', 1)['time/wall_clock_sec']).toBe(first['time/wall_clock_sec']);
    const point = (rows.points as any[]).find((p) => p.split === 'train' && p.step === 2);
    expect(point.training_loss).toBe(0.25);
    expect(point.total_trajectories).toBe(6);
  });

  it('keeps the columns a newer ART adds on each trajectory', async () => {
    const rows = await snapshot(a.app, artRunUuid('support', 'agent-newer'));
    const art = JSON.parse((rows.trajectories[0] as any).art);
    expect(art.exchanges).toBe('[{"model": "agent-newer@1"}]'); // as the column held it
    expect(art.initial_policy_version).toBe(1);
  });

  it("never stores model.json's inference_api_key: the SQLite files do not contain it", async () => {
    const files = readdirSync(a.dir).filter((n) => n.startsWith('atelier.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    for (const n of files) expect(readFileSync(join(a.dir, n)).includes('sk-fixture-secret')).toBe(false);
    const res = await fetch(`${a.url}/api/runs/${artRunUuid('support', 'agent-005')}/art/model.json`);
    const model = await res.json();
    expect(model).not.toHaveProperty('inference_api_key');
    expect(model).toMatchObject({ name: 'agent-005', project: 'support', run_id: 'run-0005-fixture' });
  });
});

const python3 = spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!python3)(
  `atelier-worker sync (Python, standard library)${python3 ? '' : ' (skipped: no python3)'}`,
  () => {
    it('ships every fixture to the same rows as the CLI, and again ships nothing', async () => {
      const c = await startServer();
      try {
        for (const f of FOLDERS) {
          // async: the server answers from this very process
          const sync = (path: string) =>
            new Promise<{ status: number; stdout: string; stderr: string }>((done) =>
              execFile(
                'python3',
                ['-m', 'atelier_worker', 'sync', path, '--to', c.url],
                { cwd: 'worker', timeout: 120_000 },
                (err, stdout, stderr) => done({ status: err ? 1 : 0, stdout, stderr }),
              ),
            );
          const r = await sync(join(FIXTURES, f.fixture, '.art'));
          expect(r.stderr).toBe('');
          expect(r.status).toBe(0);
          const uuid = artRunUuid('support', f.name);
          expect(await snapshot(c.app, uuid)).toEqual(await snapshot(a.app, uuid));
          const again = await sync(join(FIXTURES, f.fixture, '.art'));
          expect(again.stdout).toContain('0 file(s) sent, 0 row(s) stored');
        }
      } finally {
        await c.stop();
      }
    }, 240_000);
  },
);

describe('round trip: import → export → import', () => {
  for (const f of FOLDERS) {
    it(`${f.fixture}: the exported folder imports into a fresh server as identical rows`, async () => {
      const uuid = artRunUuid('support', f.name);
      const out = mkdtempSync(join(tmpdir(), 'atelier-export-'));
      const exported = await cli(
        ['export', uuid, '--format', 'art', '--out', out],
        on(() => a),
      );
      expect(exported.stderr).toBe('');
      expect(exported.code).toBe(0);
      const r = await importAt(b, out);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const before = await snapshot(a.app, uuid);
      const after = await snapshot(b.app, uuid);
      expect(after).toEqual(before);
      rmSync(out, { recursive: true, force: true });
    });
  }

  const py = artPython();
  it.skipIf('skip' in py)(
    `ART's own readers load the export${'skip' in py ? ` (skipped: ${py.skip})` : ''}`,
    async () => {
      const { python, artGit } = py as { python: string; artGit: string };
      const uuid = artRunUuid('support', 'agent-005');
      const out = mkdtempSync(join(tmpdir(), 'atelier-export-'));
      expect(
        (
          await cli(
            ['export', uuid, '--format', 'art', '--out', out],
            on(() => a),
          )
        ).code,
      ).toBe(0);
      const exported = readWithArt(python, artGit, join(out, 'support/models/agent-005'));
      const original = readWithArt(python, artGit, join(FIXTURES, 'art-0.5/.art/support/models/agent-005'));
      expect(exported.model).toEqual({ ...(original.model as object), inference_api_key: undefined });
      expect(exported.model).not.toHaveProperty('inference_api_key');
      const files = exported.trajectories as Record<string, any>;
      for (const [path, file] of Object.entries(original.trajectories as Record<string, any>)) {
        expect(files[path].compression).toBe('ZSTD');
        // ART's columns with ART's types; Atelier's two extra columns come after
        for (const [name, type] of Object.entries(file.schema)) expect(files[path].schema[name]).toBe(type);
        expect(files[path].groups).toEqual(file.groups);
      }
      expect(exported.checkpoints).toEqual(original.checkpoints);
      // ART's history rows of a step merged into one per (split, step), every key kept
      const keys = (rows: any[]) => new Set(rows.flatMap((r) => Object.keys(r)).filter((k) => k !== 'recorded_at'));
      expect(keys(exported.history as any[])).toEqual(keys(original.history as any[]));
      rmSync(out, { recursive: true, force: true });
    },
  );
});

describe('a run that goes on', () => {
  it('after more steps adds only those; an overwritten step file replaces that step, never duplicates', async () => {
    const art = copyFixture('art-0.5');
    const model = join(art, 'support/models/agent-005');
    // a copy is another folder of the same model: same run; what the fixture import stored is there
    const first = await importAt(b, art);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const uuid = artRunUuid('support', 'agent-005');
    const before = await snapshot(b.app, uuid);

    copyFileSync(join(model, 'trajectories/train/0003.parquet'), join(model, 'trajectories/train/0004.parquet'));
    appendFileSync(
      join(model, 'history.jsonl'),
      `${JSON.stringify({ 'train/reward': 0.9, training_step: 4, step: 4, recorded_at: '2026-12-01T23:59:00' })}\n`,
    );
    mkdirSync(join(model, 'checkpoints/0004'));
    const more = await importAt(b, art);
    expect(more.code).toBe(0);
    expect(more.stdout).toContain('3 file(s) sent');
    const after = await snapshot(b.app, uuid);
    expect(after.trajectories).toHaveLength(before.trajectories.length + 6);
    expect((after.values as any[]).filter((v) => v.step === 4).map((v) => v.name)).toEqual([
      'train/reward',
      'training_step',
    ]);
    expect((after.checkpoints as any[]).map((c) => c.step)).toEqual([1, 2, 3, 4]);
    expect((after.run[0] as any).current_step).toBe(4);

    // a second model.log of train step 2 overwrites its file
    copyFileSync(join(model, 'trajectories/train/0001.parquet'), join(model, 'trajectories/train/0002.parquet'));
    expect((await importAt(b, art)).code).toBe(0);
    const replaced = await snapshot(b.app, uuid);
    const step = (rows: any, s: number) => rows.trajectories.filter((t: any) => t.split === 'train' && t.step === s);
    expect(step(replaced, 2)).toHaveLength(6);
    const rewards = (rows: any[]) => rows.map((t: any) => t.reward).sort();
    expect(rewards(step(replaced, 2))).toEqual(rewards(step(replaced, 1)));
    expect(replaced.trajectories).toHaveLength(after.trajectories.length);
  });

  it('a truncated last history line waits for its newline; a corrupt Parquet names the file, stores nothing and is retried', async () => {
    const art = copyFixture('art-0.4');
    const model = join(art, 'support/models/agent-004');
    const uuid = artRunUuid('support', 'agent-004');
    expect((await importAt(b, art)).code).toBe(0);
    appendFileSync(join(model, 'history.jsonl'), '{"train/reward": 0.9, "step": 7');
    writeFileSync(join(model, 'trajectories/train/0007.jsonl'), '{"trajectories": [');
    const r = await importAt(b, art);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('trajectories/train/0007.jsonl');
    let rows = await snapshot(b.app, uuid);
    expect((rows.values as any[]).some((v) => v.step === 7)).toBe(false);
    expect((rows.trajectories as any[]).some((t) => t.step === 7)).toBe(false);

    appendFileSync(join(model, 'history.jsonl'), ', "recorded_at": "2026-12-01T23:59:00"}\n');
    copyFileSync(join(model, 'trajectories/train/0002.jsonl'), join(model, 'trajectories/train/0007.jsonl'));
    const fixed = await importAt(b, art);
    expect(fixed.stderr).toBe('');
    expect(fixed.code).toBe(0);
    rows = await snapshot(b.app, uuid);
    expect((rows.values as any[]).filter((v) => v.step === 7)).toEqual([
      { split: 'train', step: 7, name: 'train/reward', value: 0.9 },
    ]);
    expect((rows.trajectories as any[]).filter((t) => t.step === 7)).toHaveLength(6);

    const parquet = copyFixture('art-0.5');
    writeFileSync(join(parquet, 'support/models/agent-005/trajectories/train/0009.parquet'), 'PAR1 not really');
    const bad = await importAt(b, parquet);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/trajectories\/train\/0009\.parquet.*not a readable Parquet file/);
  });

  it('a folder that is not ART says what it expected', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-notart-'));
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const r = await importAt(b, dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('expected an .art folder');
    writeFileSync(join(dir, 'model.json'), JSON.stringify({ name: 'x', project: 'p' }));
    const only = await importAt(b, dir);
    expect(only.code).toBe(1);
    expect(only.stderr).toContain('hold nothing ART writes besides model.json');
    writeFileSync(join(dir, 'model.json'), '{"name": 1}');
    mkdirSync(join(dir, 'checkpoints/0001'), { recursive: true });
    const broken = await importAt(b, dir);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('model.json.name');
  });
});

describe('atelier watch', () => {
  it('ships new files as they land to subscribers; a watcher killed and restarted resumes with nothing lost or doubled', async () => {
    const server = await startServer();
    const art = copyFixture('art-0.4');
    const model = join(art, 'support/models/agent-004');
    const uuid = artRunUuid('support', 'agent-004');
    const env = { ATELIER_URL: server.url };
    const count = async () => (await snapshot(server.app, uuid)).trajectories?.length ?? 0;
    let watcher = cliProcess(['watch', art, '--rescan-seconds', '1'], env);
    const ws = wsClient(server.url);
    try {
      await waitFor(async () => (await count()) === 18, 60_000, 'the first import');
      const run = await server.app.services.runs.findByUuid(uuid);
      const events = subscribe(
        ws,
        parse(`subscription($id: ID!) { trajectoriesRecorded(runId: $id) { step count } }`) as never,
        {
          id: encodeGlobalId('TrainingRun', run!.id),
        },
      );
      const first = take(events as never, 1, 60_000);
      await waitFor(() => server.app.events.listenerCount('trajectoriesRecorded') > 0, 30_000, 'the subscription');
      copyFileSync(join(model, 'trajectories/train/0002.jsonl'), join(model, 'trajectories/train/0003.jsonl'));
      appendFileSync(
        join(model, 'history.jsonl'),
        `${JSON.stringify({ 'train/reward': 0.3, step: 3, recorded_at: '2026-12-02T00:00:00' })}\n`,
      );
      const [event] = (await first) as Array<{
        trajectoriesRecorded: { step: number; count: number };
      }>;
      expect(event.trajectoriesRecorded).toEqual({ step: 3, count: 6 });
      await waitFor(
        async () => (await snapshot(server.app, uuid)).values!.some((v: any) => v.step === 3),
        60_000,
        'history row 3',
      );

      watcher.kill('SIGKILL');
      await new Promise((r) => watcher.once('exit', r));
      copyFileSync(join(model, 'trajectories/train/0002.jsonl'), join(model, 'trajectories/train/0004.jsonl'));
      appendFileSync(
        join(model, 'history.jsonl'),
        `${JSON.stringify({ 'train/reward': 0.4, step: 4, recorded_at: '2026-12-02T00:00:01' })}\n`,
      );
      watcher = cliProcess(['watch', art, '--rescan-seconds', '1'], env);
      await waitFor(async () => (await count()) === 30, 60_000, 'step 4 after the restart');
      await waitFor(
        async () => (await snapshot(server.app, uuid)).values!.some((v: any) => v.step === 4),
        60_000,
        'history row 4',
      );
      const rows = await snapshot(server.app, uuid);
      expect(rows.trajectories).toHaveLength(30);
      expect([...new Set((rows.points as any[]).filter((p) => p.split === 'train').map((p) => p.step))]).toEqual([
        1, 2, 3, 4,
      ]);
      expect((rows.values as any[]).filter((v) => v.name === 'train/reward').map((v) => [v.step, v.value])).toEqual([
        [1, 0.45],
        [2, 0.65],
        [3, 0.3],
        [4, 0.4],
      ]);
    } finally {
      watcher.kill('SIGTERM');
      await ws.dispose();
      await server.stop();
    }
  }, 240_000);
});
