// Measures `npm run keys` beside a server that is ingesting (issue #23 item 5): a child Atelier
// process on SQLite, six clients sending recordTrajectories batches back to back, and key commands
// (create, then revoke) run one after another as their own processes, as an operator would.
// Prints how many commands failed, how long they took, and how many ingest calls failed.
// Usage: tsx scripts/probe-keys-under-ingest.ts [commands=20] [batch=100]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const commands = Number(process.argv[2] ?? 20);
const batch = Number(process.argv[3] ?? 100);
const root = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'atelier-probe-keys-'));
const env: Record<string, string | undefined> = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(dir, 'a.sqlite')}`,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
};
delete env.NODE_ENV;
// Each command is its own process, run asynchronously: the ingest clients in this process keep sending meanwhile.
const keys = (...args: string[]) =>
  new Promise<{ code: number | null; out: string; err: string; ms: number }>((resolve) => {
    const started = Date.now();
    const c = spawn(process.execPath, ['--import', 'tsx', 'scripts/keys.ts', ...args], { cwd: root, env });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d));
    c.stderr.on('data', (d: Buffer) => (err += d));
    c.on('close', (code) => resolve({ code, out: out.trim(), err: err.trim(), ms: Date.now() - started }));
  });
const writer = (await keys('create', '--name', 'ingest', '--scope', 'write')).out;
const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: root,
  env: { ...env, LOG_LEVEL: 'info' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let serverLog = '';
const url = await new Promise<string>((resolve, reject) => {
  child.stderr!.on('data', (d: Buffer) => {
    serverLog += d;
    const m = /listening on (http:\/\/[^\s]+)\/graphql/.exec(serverLog);
    if (m) resolve(m[1]);
  });
  child.once('exit', () => reject(new Error(serverLog)));
});
const gql = async (query: string, variables: unknown) =>
  (await (
    await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${writer}` },
      body: JSON.stringify({ query, variables }),
    })
  ).json()) as {
    data?: Record<string, { __typename: string; run?: { id: string } }>;
    errors?: Array<{ message: string }>;
  };

const created = await gql(
  'mutation { createTrainingRun(input: { mode: TRACKED, modelName: "m", projectName: "probe", taskDescription: "t" }) { __typename ... on CreateTrainingRunPayload { run { id } } } }',
  {},
);
const runId = created.data!.createTrainingRun.run!.id;
await gql('mutation($id: ID!) { transitionRun(runId: $id, to: GENERATING) { __typename } }', { id: runId });
await gql('mutation($id: ID!) { transitionRun(runId: $id, to: COLLECTING) { __typename } }', { id: runId });

let stop = false;
const ingest = { ok: 0, failed: [] as string[] };
const record =
  'mutation($runId: ID!, $t: [TrajectoryInput!]!) { recordTrajectories(runId: $runId, trajectories: $t) { __typename } }';
const writers = Array.from({ length: 6 }, async () => {
  while (!stop) {
    const t = Array.from({ length: batch }, () => ({
      uuid: randomUUID(),
      taskInput: { step: 0, inputText: 'probe' },
      messages: [
        { role: 'user', content: 'x'.repeat(500) },
        { role: 'assistant', content: 'y'.repeat(500) },
      ],
      reward: Math.random(),
    }));
    const r = await gql(record, { runId, t }).catch(
      (err: Error) => ({ errors: [{ message: `${err.message} ${err.cause}` }] }) as never,
    );
    if (r.data?.recordTrajectories?.__typename === 'RecordTrajectoriesPayload') ingest.ok++;
    else ingest.failed.push(JSON.stringify(r).slice(0, 200));
  }
});

const results: Array<{ code: number | null; ms: number; err: string }> = [];
for (let i = 0; i < commands; i++) {
  const r = await (i % 2 === 0
    ? keys('create', '--name', `probe-${i}`, '--scope', 'read')
    : keys('revoke', `probe-${i - 1}`));
  results.push(r);
}
stop = true;
await Promise.all(writers);
child.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
const failed = results.filter((r) => r.code !== 0);
const times = results.map((r) => r.ms).sort((a, b) => a - b);
console.log(
  `key commands: ${results.length - failed.length}/${results.length} succeeded; failures: ${JSON.stringify(failed.map((f) => f.err.split('\n').at(-1)))}`,
);
console.log(`command time (process start to exit): median ${times[times.length >> 1]} ms, max ${times.at(-1)} ms`);
console.log(
  `ingest: ${ingest.ok} batches of ${batch} stored, ${ingest.failed.length} failed ${JSON.stringify(ingest.failed.slice(0, 3))}`,
);
if (process.env.PROBE_SERVER_LOG) console.log(serverLog.slice(-3000));
console.log(`server log lines about waiting: ${(serverLog.match(/waiting for it/g) ?? []).length}`);
console.log(`commands that said they waited: ${results.filter((r) => /waiting for it/.test(r.err)).length}`);
