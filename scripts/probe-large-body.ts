// Measures how one large request body affects everyone else (issue #11 item 12): a child Atelier
// process; one client sends recordTrajectories bodies of the given size while another polls
// `{ __typename }` back to back; prints the poller's latency percentiles during the large requests.
// Usage: tsx scripts/probe-large-body.ts [megabytes=13.5] [repeats=3] [MAX_BODY_BYTES]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const megabytes = Number(process.argv[2] ?? 13.5);
const repeats = Number(process.argv[3] ?? 3);
const maxBody = process.argv[4];
const dir = mkdtempSync(join(tmpdir(), 'atelier-probe-'));
const env: Record<string, string | undefined> = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(dir, 'a.sqlite')}`,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  AUTH: 'open',
};
delete env.NODE_ENV;
if (maxBody) env.MAX_BODY_BYTES = maxBody;
const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: join(import.meta.dirname, '..'),
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
});
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stderr!.on('data', (d: Buffer) => {
    out += d;
    const m = /listening on (http:\/\/[^\s]+)\/graphql/.exec(out);
    if (m) resolve(m[1]);
  });
  child.once('exit', () => reject(new Error(out)));
});
const post = (body: string) =>
  fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

const created = (await (
  await post(
    JSON.stringify({
      query: `mutation { createTrainingRun(input: { mode: TRACKED, modelName: "m", projectName: "probe", taskDescription: "t" }) { ... on CreateTrainingRunPayload { run { id } } } }`,
    }),
  )
).json()) as { data: { createTrainingRun: { run: { id: string } } } };
const runId = created.data.createTrainingRun.run.id;
const perTrajectory = 135_000;
const count = Math.max(1, Math.round((megabytes * 1e6) / perTrajectory));
const bigBody = () =>
  JSON.stringify({
    query:
      'mutation($runId: ID!, $t: [TrajectoryInput!]!) { recordTrajectories(runId: $runId, trajectories: $t) { __typename } }',
    variables: {
      runId,
      t: Array.from({ length: count }, () => ({
        uuid: randomUUID(),
        taskInput: { step: 0, inputText: 'probe' },
        messages: [{ role: 'assistant', content: 'z'.repeat(perTrajectory) }],
        reward: 0.5,
      })),
    },
  });

const bodies = Array.from({ length: repeats }, bigBody);
let polling = true;
const latencies: number[] = [];
const t0All = performance.now();
const poller = (async () => {
  while (polling) {
    const t0 = performance.now();
    await (await post('{"query":"{ __typename }"}')).text();
    latencies.push(performance.now() - t0);
  }
})();
await new Promise((r) => setTimeout(r, 300));
latencies.length = 0;
const statuses: number[] = [];
const bodyBytes: number[] = [];
for (let i = 0; i < repeats; i++) {
  const body = bodies[i];
  bodyBytes.push(Buffer.byteLength(body));
  const res = await post(body);
  statuses.push(res.status);
  const text = await res.text();
  if (res.status !== 200) console.error(text.slice(0, 300));
}
polling = false;
await poller;
const elapsedMs = performance.now() - t0All;
const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
console.log(
  JSON.stringify({
    bodyMB: +(bodyBytes[0] / 1e6).toFixed(2),
    MAX_BODY_BYTES: maxBody ?? 'default',
    statuses,
    seconds: +(elapsedMs / 1000).toFixed(1),
    polls: sorted.length,
    p50ms: pct(50),
    p99ms: pct(99),
    maxMs: sorted.at(-1)?.toFixed(1),
  }),
);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(dir, { recursive: true, force: true });
