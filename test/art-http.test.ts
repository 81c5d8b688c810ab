// The HTTP door of ART folders: scopes, limits, the trajectories.jsonl stream, and export of a run
// recorded through recordTrajectoryGroups keeping what ART's own Parquet drops.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { artRunUuid } from '../src/art-folders/art-folders.service';
import { cli, FIXTURES, snapshot } from './helpers/art-folders';
import { bearer, startServer, useTestServer } from './helpers/server';

const CREATE = `mutation($input: CreateTrainingRunInput!) { createTrainingRun(input: $input) {
  __typename ... on CreateTrainingRunPayload { run { id uuid } } } }`;
const RECORD = `mutation($runId: ID!, $step: Int!, $split: String, $groups: [TrajectoryGroupInput!]!) {
  recordTrajectoryGroups(runId: $runId, step: $step, split: $split, groups: $groups) {
    __typename ... on RecordTrajectoryGroupsPayload { recorded } ... on Error { message } } }`;

describe('ART routes with keys required', () => {
  const server = useTestServer({ keys: { reader: 'read', writer: 'write' } });

  it('import needs the write scope, export and trajectories.jsonl the read scope; refusals change nothing', async () => {
    const plan = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/import/plan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          model: JSON.stringify({ name: 'm', project: 'p' }),
          files: [{ path: 'checkpoints/0001', size: 0, sha256: '' }],
        }),
      });
    const none = await plan({});
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe('UNAUTHENTICATED');
    const reader = await plan(bearer(server.keys.reader));
    expect(reader.status).toBe(403);
    expect((await reader.json()).error.message).toContain('needs the write scope');
    expect(await server.app.services.runs.findByUuid(artRunUuid('p', 'm'))).toBeNull();
    expect((await plan(bearer(server.keys.writer))).status).toBe(200);

    const id = artRunUuid('p', 'm');
    expect((await fetch(`${server.url}/runs/${id}/trajectories.jsonl`)).status).toBe(401);
    expect(
      (await fetch(`${server.url}/runs/${id}/trajectories.jsonl`, { headers: bearer(server.keys.reader) })).status,
    ).toBe(200);
    expect((await fetch(`${server.url}/api/runs/${id}/art`, { headers: bearer(server.keys.reader) })).status).toBe(200);
  });

  it('the CLI takes --key and ATELIER_API_KEY', async () => {
    const path = join(FIXTURES, 'art-0.4/.art');
    const without = await cli(['import', path], { ATELIER_URL: server.url, ATELIER_API_KEY: '' });
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('401');
    expect((await cli(['import', path, '--key', server.keys.writer], { ATELIER_URL: server.url })).code).toBe(0);
    const again = await cli(['import', path], { ATELIER_URL: server.url, ATELIER_API_KEY: server.keys.writer });
    expect(again.stdout).toContain('0 file(s) sent');
  });
});

describe('ART routes, limits and streams', () => {
  const server = useTestServer({ limits: { maxBodyBytes: 64 * 1024 } });

  it('a body over MAX_BODY_BYTES is refused naming the limit; content types are required', async () => {
    const res = await fetch(`${server.url}/api/import/plan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x'.repeat(100 * 1024), files: [] }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', limit: 'maxBodyBytes' });
    const plain = await fetch(`${server.url}/api/import/plan`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(plain.status).toBe(415);
    // the server keeps serving
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('a history.jsonl larger than one request goes in parts of whole lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-big-'));
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const model = join(dir, 'proj/models/big');
    mkdirSync(model, { recursive: true });
    writeFileSync(join(model, 'model.json'), JSON.stringify({ name: 'big', project: 'proj', base_model: 'b' }));
    const lines = Array.from({ length: 2000 }, (_, step) =>
      JSON.stringify({
        'train/reward': step / 2000,
        'train/note_padding': 1,
        step,
        recorded_at: '2026-01-01T00:00:00',
      }),
    );
    writeFileSync(join(model, 'history.jsonl'), `${lines.join('\n')}\n`);
    const r = await cli(['import', dir, '--chunk-bytes', String(16 * 1024)], { ATELIER_URL: server.url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = await snapshot(server.app, artRunUuid('proj', 'big'));
    expect(rows.points).toHaveLength(2000);
  });

  it('trajectories.jsonl streams one ART trajectory a line, filtered by split and step', async () => {
    expect((await cli(['import', join(FIXTURES, 'art-0.5/.art')], { ATELIER_URL: server.url })).code).toBe(0);
    const id = artRunUuid('support', 'agent-005');
    const lines = async (q: string) =>
      (await (await fetch(`${server.url}/runs/${id}/trajectories.jsonl${q}`)).text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    expect(await lines('')).toHaveLength(33);
    expect(await lines('?split=val')).toHaveLength(15);
    const one = await lines('?split=train&step=2');
    expect(one).toHaveLength(6);
    expect(one[0].messages_and_choices[1].content).toContain('train question 0 at step 2');
    const bad = await fetch(`${server.url}/runs/${id}/trajectories.jsonl?step=-1`);
    expect(bad.status).toBe(400);
    expect((await fetch(`${server.url}/runs/no-such-run/trajectories.jsonl`)).status).toBe(404);
    const out = mkdtempSync(join(tmpdir(), 'atelier-jsonl-'));
    const r = await cli(['export', id, '--format', 'jsonl', '--out', out, '--split', 'val', '--step', '2'], {
      ATELIER_URL: server.url,
    });
    expect(r.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(out, 'trajectories.jsonl'), 'utf8').trim().split('\n')).toHaveLength(6);
  });

  it('exporting a run recorded through recordTrajectoryGroups keeps logprobs, additional histories and exceptions', async () => {
    const created = await server.gql<any, any>(CREATE, {
      input: {
        mode: 'TRACKED',
        modelName: 'base',
        projectName: 'rt',
        trainedModelName: 'gql-run',
        taskDescription: 't',
      },
    });
    const run = created.createTrainingRun.run;
    const choice = {
      finish_reason: 'stop',
      index: 0,
      logprobs: { content: [{ token: 'Hi', logprob: -0.25, bytes: [72, 105], top_logprobs: [] }] },
      message: { role: 'assistant', content: 'Hi' },
    };
    const groups = [
      {
        trajectories: [
          {
            messages_and_choices: [{ role: 'user', content: 'Hello' }, choice],
            additional_histories: [{ messages_and_choices: [{ role: 'user', content: 'sub' }], tools: null }],
            reward: 0.5,
          },
        ],
        exceptions: [{ type: 'ValueError', message: 'boom', traceback: 'tb' }],
      },
    ];
    const rec = await server.gql<any, any>(RECORD, { runId: run.id, step: 1, split: 'train', groups });
    expect(rec.recordTrajectoryGroups.recorded).toBe(1);

    const out = mkdtempSync(join(tmpdir(), 'atelier-export-'));
    expect((await cli(['export', run.uuid, '--format', 'art', '--out', out], { ATELIER_URL: server.url })).code).toBe(
      0,
    );
    const other = await startServer();
    try {
      expect((await cli(['import', out], { ATELIER_URL: other.url })).code).toBe(0);
      const back = await snapshot(other.app, artRunUuid('rt', 'gql-run'));
      const before = await snapshot(server.app, run.uuid);
      expect(back.trajectories.map((t: any) => [t.art, t.group_art])).toEqual(
        before.trajectories.map((t: any) => [t.art, t.group_art]),
      );
      const art = JSON.parse((back.trajectories[0] as any).art);
      expect(art.messages_and_choices[1].logprobs.content[0].logprob).toBe(-0.25);
      expect(art.additional_histories).toHaveLength(1);
      expect(JSON.parse((back.trajectories[0] as any).group_art).exceptions[0].message).toBe('boom');
    } finally {
      await other.stop();
    }
  });
});

describe('ART routes and the mutation rate limit', () => {
  const server = useTestServer({ rateLimit: { mutationsPerSecond: 0.01, burst: 2 } });

  it('each import request takes a token; past the burst it is 429 with Retry-After', async () => {
    const plan = () =>
      fetch(`${server.url}/api/import/plan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: null, files: [] }),
      });
    expect((await plan()).status).toBe(400);
    expect((await plan()).status).toBe(400);
    const refused = await plan();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error.limit).toBe('mutationRate');
  });
});

describe('ART 0.4 JSONL under a .yaml name, and credentials in model.json', () => {
  const server = useTestServer();

  it('reads JSONL groups whatever the file is called, and keeps no field named like a credential', async () => {
    const { mkdirSync, writeFileSync, readFileSync, readdirSync } = await import('node:fs');
    const dir = mkdtempSync(join(tmpdir(), 'atelier-yaml-'));
    const model = join(dir, 'p/models/m');
    mkdirSync(join(model, 'trajectories/train'), { recursive: true });
    writeFileSync(
      join(model, 'model.json'),
      JSON.stringify({
        name: 'm',
        project: 'p',
        inference_api_key: 'sk-aaaa1111bbbb2222',
        wandb_token: 'tok-zzz-999',
        base_model: 'b',
      }),
    );
    const jsonl = readFileSync(join(FIXTURES, 'art-0.4/.art/support/models/agent-004/trajectories/train/0001.jsonl'));
    writeFileSync(join(model, 'trajectories/train/0001.yaml'), jsonl);
    const r = await cli(['import', dir], { ATELIER_URL: server.url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = await snapshot(server.app, artRunUuid('p', 'm'));
    expect(rows.trajectories).toHaveLength(6);
    const config = JSON.parse((rows.run[0] as any).config);
    expect(config.art.model).toEqual({ name: 'm', project: 'p', base_model: 'b' });
    for (const n of readdirSync(server.dir).filter((f) => f.startsWith('atelier.sqlite'))) {
      const bytes = readFileSync(join(server.dir, n));
      expect(bytes.includes('sk-aaaa1111bbbb2222') || bytes.includes('tok-zzz-999')).toBe(false);
    }
  });
});

describe('POST /api/import/files: several files in one request', () => {
  const server = useTestServer({
    keys: { reader: 'read', writer: 'write' },
    rateLimit: { mutationsPerSecond: 0.01, burst: 3 },
  });
  const folder = join(FIXTURES, 'art-0.5/.art/support/models/agent-005');

  it('takes one token for many files, imports each whole, answers each file, and again stores nothing', async () => {
    const { readFileSync } = await import('node:fs');
    const { encodeImportBatch, IMPORT_BATCH_TYPE } = await import('../src/art-format/import-batch');
    const { folderFiles } = await import('../src/cli/folders');
    const files = await folderFiles(folder);
    const writer = bearer(server.keys.writer);
    // token 1: the plan
    const planned = await fetch(`${server.url}/api/import/plan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...writer },
      body: JSON.stringify({
        model: readFileSync(join(folder, 'model.json'), 'utf8'),
        files: files.map(({ path, size, sha256 }) => ({ path, size, sha256 })),
      }),
    });
    expect(planned.status).toBe(200);
    const plan = (await planned.json()) as { run: { uuid: string }; need: Array<{ path: string }> };
    const parquet = files.filter((f) => f.path.endsWith('.parquet'));
    expect(plan.need.map((n) => n.path)).toEqual(expect.arrayContaining(parquet.map((f) => f.path)));
    const corrupt = {
      path: 'trajectories/train/0009.parquet',
      size: 5,
      sha256: 'x',
      from: 0,
      bytes: Buffer.from('PAR1!'),
    };
    const body = encodeImportBatch([
      ...parquet.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256, from: 0, bytes: readFileSync(f.abs!) })),
      corrupt,
    ]);
    const post = (headers: Record<string, string>, bytes: Uint8Array = body, type = IMPORT_BATCH_TYPE) =>
      fetch(`${server.url}/api/import/files?run=${plan.run.uuid}`, {
        method: 'POST',
        headers: { 'content-type': type, ...headers },
        body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
      });
    const stored = async () => (await server.app.services.runs.findByUuid(plan.run.uuid))!.id;
    const count = async () => server.app.services.trajectories.count(await stored(), {});

    // refusals take no token and change nothing
    expect((await post({})).status).toBe(401);
    expect((await post(bearer(server.keys.reader))).status).toBe(403);
    expect(await count()).toBe(0);

    // token 2: every Parquet file and a corrupt one, in one request
    const res = await post(writer);
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: Array<Record<string, unknown>> };
    expect(results).toHaveLength(parquet.length + 1);
    const stats = results.slice(0, -1).map((r) => r.stored as number);
    expect(stats.every((n) => n > 0)).toBe(true);
    expect(results.at(-1)).toMatchObject({ path: corrupt.path, status: 400 });
    expect(String((results.at(-1)!.error as { message: string }).message)).toContain(corrupt.path);
    const total = stats.reduce((a, b) => a + b, 0);
    expect(await count()).toBe(total);

    // a malformed batch names what is wrong (token 3) and changes nothing
    const short = body.subarray(0, body.length - 1);
    const bad = await post(writer, short);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.issues[0]).toMatchObject({ field: 'body', rule: 'length' });
    expect(await count()).toBe(total);

    // the burst of 3 is spent: the next request is 429, whatever it holds
    const limited = await post(writer);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /api/import/files again', () => {
  const server = useTestServer();
  const folder = join(FIXTURES, 'art-0.5/.art/support/models/agent-005');

  it('a batch sent twice stores its files once; the content type is required', async () => {
    const { readFileSync } = await import('node:fs');
    const { encodeImportBatch, IMPORT_BATCH_TYPE } = await import('../src/art-format/import-batch');
    const { folderFiles } = await import('../src/cli/folders');
    const files = await folderFiles(folder);
    const plan = (await (
      await fetch(`${server.url}/api/import/plan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: readFileSync(join(folder, 'model.json'), 'utf8'),
          files: files.map(({ path, size, sha256 }) => ({ path, size, sha256 })),
        }),
      })
    ).json()) as { run: { uuid: string } };
    const parquet = files.filter((f) => f.path.endsWith('.parquet'));
    const body = encodeImportBatch(
      parquet.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256, from: 0, bytes: readFileSync(f.abs!) })),
    );
    const post = (type: string) =>
      fetch(`${server.url}/api/import/files?run=${plan.run.uuid}`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: new Blob([body as Uint8Array<ArrayBuffer>]),
      });
    expect((await post('application/octet-stream')).status).toBe(415);
    const first = (await (await post(IMPORT_BATCH_TYPE)).json()) as { results: Array<{ stored: number }> };
    const again = (await (await post(IMPORT_BATCH_TYPE)).json()) as { results: Array<{ stored: number }> };
    expect(first.results.reduce((n, r) => n + r.stored, 0)).toBeGreaterThan(0);
    expect(again.results.map((r) => r.stored)).toEqual(parquet.map(() => 0));
    const id = (await server.app.services.runs.findByUuid(plan.run.uuid))!.id;
    expect(await server.app.services.trajectories.count(id, {})).toBe(first.results.reduce((n, r) => n + r.stored, 0));
  });
});
