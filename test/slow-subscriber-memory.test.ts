// Memory amplification by a subscriber that never reads (issue #11): one WebSocket opening hundreds
// of trajectoriesRecorded subscriptions and pausing drove a server to 1.9 GB. Against a real Atelier
// process with its default limits: subscriptions past MAX_SUBSCRIPTIONS_PER_CONNECTION are refused by
// name, the connection is cut off once its unsent output passes MAX_SOCKET_BUFFER_BYTES, and the
// process's memory stays bounded. (A bound on RSS growth, measured in the child, not a timing.)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { waitFor } from './helpers/subscriptions';

const ROOT = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'atelier-slow-'));
let server: ChildProcess;
let url = '';
let output = '';

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown };
  if (body.errors || !body.data) throw new Error(JSON.stringify(body).slice(0, 500));
  return body.data;
}

beforeAll(async () => {
  const inherited = { ...process.env };
  for (const name of Object.keys(inherited))
    if (/^(MAX_|SOCKET_|REDIS_URL|AUTH|HOST|PORT|ART_|OPENAI_)/.test(name)) delete inherited[name];
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...inherited,
      DATABASE_URL: `sqlite:${join(dir, 'a.sqlite')}`,
      HOST: '127.0.0.1',
      PORT: '0',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      AUTH: 'open',
      SOCKET_DRAIN_TIMEOUT_SECONDS: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  await waitFor(
    () => !!(url = /Atelier is up: .*?(http:\/\/[^/\s]+)\/graphql/.exec(output)?.[1] ?? ''),
    30_000,
    'the server to start',
  );
}, 60_000);

afterAll(async () => {
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('a subscriber that never reads', () => {
  it('gets at most the per-connection cap, is cut off once it does not drain, and leaves memory bounded', async () => {
    const create = await gql<{ createTrainingRun: { run: { id: string } } }>(
      'mutation { createTrainingRun(input: { mode: TRACKED, modelName: "m", projectName: "slow", taskDescription: "t" }) { ... on CreateTrainingRunPayload { run { id } } } }',
    );
    const runId = create.createTrainingRun.run.id;
    const baseline = rssMb(server.pid!);

    const ws = new WebSocket(url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    const refusals: string[] = [];
    let acked = false;
    let closeCode: number | null = null;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as {
        type: string;
        payload?: { errors?: { extensions?: { limit?: string } }[] } | { extensions?: { limit?: string } }[];
      };
      if (m.type === 'connection_ack') acked = true;
      const errors =
        m.type === 'error'
          ? m.payload
          : m.type === 'next' && m.payload && !Array.isArray(m.payload)
            ? m.payload.errors
            : undefined;
      if (Array.isArray(errors)) for (const e of errors) refusals.push(String(e.extensions?.limit));
    });
    ws.on('close', (code) => (closeCode = code));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init' }));
    await waitFor(() => acked, 5000, 'connection_ack');
    const query =
      'subscription($runId: ID!) { trajectoriesRecorded(runId: $runId) { trajectories { messages { content } } } }';
    for (let i = 0; i < 300; i++)
      ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query, variables: { runId } } }));
    await waitFor(() => refusals.length >= 200, 10_000, 'the refusals over the cap');
    expect(new Set(refusals)).toEqual(new Set(['maxSubscriptionsPerConnection']));
    (ws as unknown as { _socket: Socket })._socket.pause();

    // Each batch is about 1 MB, so each event is about 1 MB for every subscription.
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid!))), 25);
    const record =
      'mutation($runId: ID!, $t: [TrajectoryInput!]!) { recordTrajectories(runId: $runId, trajectories: $t) { __typename } }';
    for (let b = 0; b < 3; b++) {
      const t = Array.from({ length: 10 }, () => ({
        uuid: crypto.randomUUID(),
        taskInput: { step: 0, inputText: 'i' },
        messages: [{ role: 'assistant', content: 'w'.repeat(100_000) }],
        reward: 0.5,
      }));
      await gql(record, { runId, t });
    }
    // Still paused: the server gives up on it (here SOCKET_DRAIN_TIMEOUT_SECONDS is 2).
    await waitFor(() => /closed a WebSocket/.test(output), 15_000, 'the server to cut the stalled socket off');
    const held = rssMb(server.pid!);
    clearInterval(sampler);

    // The server still answers others, and the stalled socket was cut off.
    expect(await gql('{ __typename }')).toEqual({ __typename: 'Query' });
    (ws as unknown as { _socket: Socket })._socket.resume();
    await waitFor(() => closeCode !== null, 10_000, 'the stalled socket to be closed by the server');
    expect([1013, 1006]).toContain(closeCode);
    expect(output).toMatch(/closed a WebSocket .*with 1013: .*(MAX_SOCKET_BUFFER_BYTES|SOCKET_DRAIN_TIMEOUT_SECONDS)/);

    const growth = { peak: Math.round(peak - baseline), held: Math.round(held - baseline) };
    console.log(`RSS growth over ${Math.round(baseline)} MB: ${JSON.stringify(growth)}`);
    expect(growth.peak, JSON.stringify(growth)).toBeLessThan(200);
    expect(growth.held, JSON.stringify(growth)).toBeLessThan(200);
  }, 60_000);
});
