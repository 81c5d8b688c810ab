// An instance that loses its database but not its ART backend must not keep training a run that
// another instance takes over. The database link of instance A is stalled (a partition: its calls
// hang rather than fail) while A streams a training step; B takes the run over once A's lease
// expires. A fences itself before that moment, so the backend never trains two steps of the run at
// once and every step is trained exactly once. Before the fix A kept streaming beside B.
import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pipelineEnv, spawnServer, startSims, type ServerProcess, type Sims } from './helpers/pipeline';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { gqlAt } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { CreatePipelineRun, FleetRun } from './operations';

describe.skipIf(!postgresUrl)(postgresSuiteTitle('self-fencing when the database is lost mid-training'), () => {
  let sims: Sims;
  let db: FreshPostgresDatabase;
  let proxy: TcpProxy;
  const instances: ServerProcess[] = [];

  beforeAll(async () => {
    // Each gradient step takes 2.5 s: a training call (two groups, two lines) outlasts A's 2-second lease.
    sims = await startSims({ gradientStepMs: 2500 });
    db = await createPostgresDatabase();
    const direct = new URL(db.url);
    proxy = await startTcpProxy(direct.hostname, Number(direct.port || 5432));
  });
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.kill('SIGKILL')));
    await proxy?.close();
    await sims?.close();
    await db?.drop();
  });

  it('stops its training call before its lease expires; the run completes with every step trained once', async () => {
    const viaProxy = new URL(db.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const base = {
      LEASE_TTL_SECONDS: '2',
      STALL_TIMEOUT_SECONDS: '60',
      REQUEST_TIMEOUT_SECONDS: '30',
      REDIS_PREFIX: `fence-${randomBytes(4).toString('hex')}`,
    };
    const a = await spawnServer({ ...pipelineEnv(sims, viaProxy.toString(), base), INSTANCE_ID: 'instance-a' });
    instances.push(a);
    const created = await gqlAt(a.url, CreatePipelineRun, {
      input: {
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'fence',
        taskDescription: 'Answer briefly',
        numExamples: 4,
        rolloutsPerGroup: 2,
        numEpochs: 1,
        pipeline: { groupsPerStep: 2 },
      },
    });
    const runId = expectResult(created.createTrainingRun, 'CreateTrainingRunPayload').run.id;
    // B reaches the database directly; it waits while A holds the lease.
    const b = await spawnServer({ ...pipelineEnv(sims, db.url, base), INSTANCE_ID: 'instance-b' });
    instances.push(b);

    await waitFor(() => sims.art.trainingInFlight === 1, 30_000, 'A to start training step 0');
    expect((await gqlAt(b.url, FleetRun, { id: runId })).run!.leaseOwner).toBe('instance-a');
    proxy.stall();

    await waitFor(
      async () => (await gqlAt(b.url, FleetRun, { id: runId })).run!.status === 'COMPLETED',
      60_000,
      'B to complete the run',
    );
    const run = (await gqlAt(b.url, FleetRun, { id: runId })).run!;
    expect(run.leaseOwner === null || run.leaseOwner === 'instance-b').toBe(true);
    // Never two training calls at once on the backend, and each step trained exactly once.
    expect(sims.art.overlaps).toBe(0);
    expect(sims.art.completedSteps('fence', run.trainedModelName!)).toEqual([0, 1]);
    expect(a.output()).toMatch(/could not renew its lease for \d+ s; stopping 666 ms before it expires/);
  }, 90_000);
});
