// Several instances and several ART backends on the PostgreSQL and Redis of this machine: three
// Atelier processes drive ten pipeline runs over two simulated backends while one of them is
// SIGKILLed. Every run completes; each backend trains every step exactly once and never two runs at
// a time; no trajectory is duplicated; a subscriber on a surviving instance sees every transition.
// A graceful stop (SIGTERM) hands runs over within seconds, long before their leases would expire.
import { randomBytes } from 'node:crypto';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startArtBackendSim, type ArtBackendSim } from './fixtures/art-backend-sim';
import type { OnRunStatusSubscription } from './gql/graphql';
import { pipelineEnv, PROVIDER_KEY, spawnServer, startSims, type ServerProcess, type Sims } from './helpers/pipeline';
import {
  createPostgresDatabase,
  POSTGRES_SKIP_REASON,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { REDIS_SKIP_REASON, redisUrl } from './helpers/redis';
import { expectResult } from './helpers/results';
import { gqlAt } from './helpers/server';
import { subscribe, take, waitFor, wsClient, type Iter } from './helpers/subscriptions';
import { CreatePipelineRun, FleetRun, OnQueue, OnRunStatus } from './operations';

const missing = [!postgresUrl && POSTGRES_SKIP_REASON, !redisUrl && REDIS_SKIP_REASON].filter(Boolean).join('; ');
if (missing) console.warn(missing);

/** Reads events until every one of `eventIds` has arrived (sentinel runs' events are skipped). */
async function takeUntil(iter: Iter<OnRunStatusSubscription>, eventIds: string[], timeoutMs: number) {
  const wanted = new Set(eventIds);
  const out = [];
  while (wanted.size) {
    const [e] = await take(iter, 1, timeoutMs);
    if (wanted.delete(e.runStatusChanged.eventId)) out.push(e);
  }
  return out;
}

describe.skipIf(Boolean(missing))(`several instances and backends${missing ? ` [${missing}]` : ''}`, () => {
  let sims: Sims;
  let h100: ArtBackendSim;
  let db: FreshPostgresDatabase;
  let instances: ServerProcess[] = [];

  beforeAll(async () => {
    // Runs last a second or two each, so there is time to find and kill an instance mid-run even on a loaded machine.
    sims = await startSims({ gradientStepMs: 250 });
    h100 = await startArtBackendSim({
      inferenceUrl: sims.openai.url,
      inferenceApiKey: PROVIDER_KEY,
      gradientStepMs: 250,
    });
    sims.openai.faults.setLatency(20, 'rollout');
  });
  afterAll(async () => {
    await h100?.close();
    await sims?.close();
  });
  afterEach(async () => {
    await Promise.all(instances.map((i) => i.kill('SIGKILL')));
    instances = [];
    await db?.drop();
  });

  async function fleet(n: number, leaseTtlSeconds: number) {
    db = await createPostgresDatabase();
    const env = pipelineEnv(sims, db.url, {
      ART_BACKENDS: `a100=${sims.art.url},h100=${h100.url}`,
      REDIS_URL: redisUrl!,
      REDIS_PREFIX: `atelier-fleet-${randomBytes(4).toString('hex')}`,
      LEASE_TTL_SECONDS: String(leaseTtlSeconds),
      // One run per instance, so the work spreads over the instances.
      MAX_CONCURRENT_RUNS: '1',
    });
    // The first instance runs the migrations; the others start on a migrated database.
    instances = [await spawnServer({ ...env, INSTANCE_ID: 'instance-0' })];
    for (let i = 1; i < n; i++) instances.push(await spawnServer({ ...env, INSTANCE_ID: `instance-${i}` }));
    return instances;
  }

  async function createRuns(url: string, project: string, count: number) {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await gqlAt(url, CreatePipelineRun, {
        input: {
          modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
          projectName: project,
          taskDescription: `Task ${i}`,
          numExamples: 4,
          rolloutsPerGroup: 2,
          numEpochs: 1,
          pipeline: { groupsPerStep: 2, backend: i % 2 ? 'h100' : 'a100' },
        },
      });
      ids.push(expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run.id);
    }
    return ids;
  }

  it('drives every run exactly once across three instances while one is SIGKILLed', async () => {
    const [survivor] = await fleet(3, 2);
    const client = wsClient(survivor.url);
    const watched = subscribe(client, OnRunStatus, { projectName: 'fleet' });
    // A tracked run's creation shows that the subscription is live before the real runs start.
    const sentinelEvent = watched.next();
    await waitFor(
      async () => {
        await gqlAt(survivor.url, CreatePipelineRun, {
          input: { mode: 'TRACKED', modelName: 'm', projectName: 'fleet', taskDescription: 'sentinel' },
        });
        return Promise.race([
          sentinelEvent.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), 200)),
        ]);
      },
      10_000,
      'the subscription to go live',
    );
    const ids = await createRuns(survivor.url, 'fleet', 10);

    // A waiting run knows its place in its backend's queue.
    const last = await gqlAt(survivor.url, FleetRun, { id: ids[9] });
    expect(last.run!.queuePosition).toBeGreaterThan(0);

    // Kill an instance while it drives a run.
    let victim: ServerProcess | undefined;
    await waitFor(
      async () => {
        for (const id of ids) {
          const owner = (await gqlAt(survivor.url, FleetRun, { id })).run!.leaseOwner;
          const index = owner ? Number(/instance-(\d)/.exec(owner)?.[1]) : 0;
          if (index > 0) {
            victim = instances[index];
            return true;
          }
        }
        return false;
      },
      30_000,
      'a run driven by instance 1 or 2',
    );
    await victim!.kill('SIGKILL');

    await waitFor(
      async () => {
        const statuses = await Promise.all(
          ids.map(async (id) => (await gqlAt(survivor.url, FleetRun, { id })).run!.status),
        );
        return statuses.every((s) => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(s));
      },
      120_000,
      'all ten runs to finish',
    );
    const runs = await Promise.all(ids.map(async (id) => (await gqlAt(survivor.url, FleetRun, { id })).run!));
    expect(runs.map((r) => [r.status, r.error])).toEqual(runs.map(() => ['COMPLETED', null]));

    const intervals = new Map<string, [number, number][]>();
    for (const run of runs) {
      const sim = run.backend === 'h100' ? h100 : sims.art;
      // Every step exactly once on its own backend, never on the other.
      expect(sim.completedSteps('fleet', run.trainedModelName!)).toEqual([0, 1]);
      expect((run.backend === 'h100' ? sims.art : h100).completedSteps('fleet', run.trainedModelName!)).toEqual([]);
      // 2 steps × 2 groups × 2 rollouts, none duplicated.
      expect(run.trajectories.totalCount).toBe(8);
      expect(new Set(run.trajectories.edges.map((e) => e.node.uuid)).size).toBe(8);
      const start = Date.parse(run.statusHistory.find((h) => h.to === 'GENERATING')!.at);
      const end = Date.parse(run.statusHistory.at(-1)!.at);
      intervals.set(run.backend!, [...(intervals.get(run.backend!) ?? []), [start, end]]);
    }
    // Two runs on one backend never overlap in time.
    for (const list of intervals.values()) {
      list.sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < list.length; i++) expect(list[i][0]).toBeGreaterThanOrEqual(list[i - 1][1]);
    }
    expect(sims.art.maxTrainingInFlight).toBeLessThanOrEqual(1);
    expect(h100.maxTrainingInFlight).toBeLessThanOrEqual(1);

    // The subscriber on the surviving instance saw every transition of every run, in order per run.
    const stored = runs.flatMap((r) => r.statusHistory.map((h) => h.eventId));
    const seen = await takeUntil(watched, stored, 30_000);
    expect(seen).toHaveLength(stored.length);
    for (const run of runs) {
      const mine = seen.filter((e) => e.runStatusChanged.run.id === run.id).map((e) => e.runStatusChanged.to);
      expect(mine).toEqual(run.statusHistory.map((h) => h.to));
    }
    await client.dispose();
  }, 180_000);

  it('hands runs over within seconds on SIGTERM, long before the lease would expire', async () => {
    sims.art.setGradientStepMs(400);
    try {
      const [first, second] = await fleet(2, 60);
      const [id] = await createRuns(first.url, 'handover', 1);
      let owner = '';
      await waitFor(
        async () => Boolean((owner = (await gqlAt(first.url, FleetRun, { id })).run!.leaseOwner ?? '')),
        20_000,
        'a driver',
      );
      const [driver, other] = owner === 'instance-0' ? [first, second] : [second, first];
      const queue = subscribe(wsClient(other.url), OnQueue, { runId: id });
      expect((await take(queue, 1))[0].runQueuePosition.position).toBeNull();

      const t0 = Date.now();
      await driver.kill('SIGTERM');
      await waitFor(
        async () => {
          const o = (await gqlAt(other.url, FleetRun, { id })).run!.leaseOwner;
          return o !== null && o !== owner;
        },
        10_000,
        'the other instance to take the run over',
      );
      expect(Date.now() - t0).toBeLessThan(10_000);
      await waitFor(
        async () => (await gqlAt(other.url, FleetRun, { id })).run!.status === 'COMPLETED',
        60_000,
        'the run to complete',
      );
      const run = (await gqlAt(other.url, FleetRun, { id })).run!;
      expect(sims.art.completedSteps('handover', run.trainedModelName!)).toEqual([0, 1]);
      expect(run.trajectories.totalCount).toBe(8);
    } finally {
      sims.art.setGradientStepMs(250);
    }
  }, 120_000);
});
