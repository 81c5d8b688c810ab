// Trajectories through the public API: recording (all-or-nothing, idempotent by uuid), reading,
// filters, and keyset pagination that neither skips nor repeats a row, in every order and direction.
import { beforeAll, describe, expect, it } from 'vitest';

import type { TrajectoryOrder } from './gql/graphql';
import { createRun, recordTrajectories, trajectory } from './helpers/builders';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { GetNode, GetRun, ListRuns, ListTrajectories, RecordTrajectories, RunTrajectoriesWithRun } from './operations';

const s = useTestServer();

async function count(runId: string, filter = {}) {
  return (await s.gql(ListTrajectories, { runId, filter, first: 0 })).trajectories.totalCount;
}

describe('recordTrajectories', () => {
  it('stores a batch and reads it back as recorded', async () => {
    const run = await createRun(s);
    const input = [trajectory(0, 0.25), trajectory(0, null), trajectory(1, 1)];
    const res = await recordTrajectories(s, run.id, input);
    expect(res).toMatchObject({ recorded: 3, duplicates: 0, uuids: input.map((t) => t.uuid) });
    const page = await s.gql(ListTrajectories, { runId: run.id });
    expect(page.trajectories.edges.map((e) => e.node.uuid)).toEqual(input.map((t) => t.uuid));
    const first = page.trajectories.edges[0].node;
    expect(first).toMatchObject({
      reward: 0.25,
      taskInput: { step: 0, inputText: 'input for step 0', context: { source: 'test' } },
      messages: input[0].messages,
      metadata: { step: 0 },
    });
    const node = await s.gql(GetNode, { id: first.id });
    expect(node.node).toMatchObject({ __typename: 'Trajectory', uuid: first.uuid, run: { id: run.id } });
  });

  it('is idempotent by uuid: the same batch twice is stored once and says so', async () => {
    const run = await createRun(s);
    const batch = [trajectory(0, 0.1), trajectory(0, 0.2)];
    await recordTrajectories(s, run.id, batch);
    const again = await recordTrajectories(s, run.id, [...batch, trajectory(0, 0.3)]);
    expect(again.recorded).toBe(1);
    expect(again.duplicates).toBe(2);
    expect(again.duplicateUuids.sort()).toEqual(batch.map((b) => b.uuid).sort());
    expect(await count(run.id)).toBe(3);
  });

  it('refuses a known uuid with different content and stores nothing of that batch', async () => {
    const run = await createRun(s);
    const t = trajectory(0, 0.1);
    await recordTrajectories(s, run.id, [t]);
    const res = await s.gql(RecordTrajectories, {
      runId: run.id,
      trajectories: [trajectory(0, 0.9), { ...t, reward: 0.2 }],
    });
    expectResult(res.recordTrajectories, 'ConflictError');
    expect(await count(run.id)).toBe(1);
  });

  it('is all-or-nothing: one invalid trajectory rejects the batch with the field named', async () => {
    const run = await createRun(s);
    const batch = [
      trajectory(0, 0.1),
      trajectory(0, 0.2),
      { ...trajectory(0, 0.3), messages: [{ role: 'robot', content: 'x' }] },
    ];
    const res = await s.gql(RecordTrajectories, { runId: run.id, trajectories: batch });
    expect(expectResult(res.recordTrajectories, 'ValidationError').issues[0].field).toBe(
      'trajectories.2.messages.0.role',
    );
    const dup = trajectory(0, 0.1);
    const twice = await s.gql(RecordTrajectories, { runId: run.id, trajectories: [dup, dup] });
    expectResult(twice.recordTrajectories, 'ValidationError');
    expect(await count(run.id)).toBe(0);
  });

  it('refuses more than 1,000 per call, and an unknown run', async () => {
    const run = await createRun(s);
    const big = Array.from({ length: 1001 }, () => trajectory(0, 0.5));
    const res = await s.gql(RecordTrajectories, { runId: run.id, trajectories: big });
    expectResult(res.recordTrajectories, 'ValidationError');
    expect(await count(run.id)).toBe(0);
    const missing = await s.gql(RecordTrajectories, {
      runId: Buffer.from('TrainingRun:777777').toString('base64url'),
      trajectories: [trajectory(0, 1)],
    });
    expectResult(missing.recordTrajectories, 'NotFoundError');
  });

  it('keeps the metrics snapshot total in step with what is stored', async () => {
    const run = await createRun(s);
    const first = [trajectory(0, 0.1), trajectory(0, 0.2)];
    await recordTrajectories(s, run.id, first);
    expect((await s.gql(GetRun, { id: run.id })).run?.metrics).toMatchObject({ totalTrajectories: 2, step: 0 });
    // Duplicates are not counted twice.
    await recordTrajectories(s, run.id, [...first, trajectory(1, 0.3)]);
    expect((await s.gql(GetRun, { id: run.id })).run?.metrics).toMatchObject({ totalTrajectories: 3 });
  });
});

describe('keyset pagination', () => {
  let runId: string;
  const N = 2400;
  const rewards = new Map<string, number | null>();

  beforeAll(async () => {
    const run = await createRun(s);
    runId = run.id;
    // Rewards with many ties and a share of nulls, over 12 steps.
    for (let i = 0; i < N; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, N - i) }, (_, j) => {
        const k = i + j;
        const reward = k % 7 === 0 ? null : Math.round(Math.sin(k) * 10) / 10;
        const t = trajectory(k % 12, reward);
        rewards.set(t.uuid!, reward);
        return t;
      });
      await recordTrajectories(s, runId, batch);
    }
  }, 60_000);

  async function walk(orderBy: TrajectoryOrder | undefined, pageSize: number, backward = false, filter = {}) {
    const seen: { uuid: string; reward: number | null }[] = [];
    let cursor: string | null | undefined;
    for (let pages = 0; pages < 1000; pages++) {
      const vars = backward
        ? { runId, orderBy, filter, last: pageSize, before: cursor }
        : { runId, orderBy, filter, first: pageSize, after: cursor };
      const { trajectories: conn } = await s.gql(ListTrajectories, vars);
      const nodes = conn.edges.map((e) => ({ uuid: e.node.uuid, reward: e.node.reward ?? null }));
      if (backward) seen.unshift(...nodes);
      else seen.push(...nodes);
      const more = backward ? conn.pageInfo.hasPreviousPage : conn.pageInfo.hasNextPage;
      if (!more) break;
      cursor = backward ? conn.pageInfo.startCursor : conn.pageInfo.endCursor;
    }
    return seen;
  }

  function expectSorted(rows: { reward: number | null }[], desc: boolean) {
    const nonNull = rows.filter((r) => r.reward !== null).map((r) => r.reward!);
    const firstNull = rows.findIndex((r) => r.reward === null);
    if (firstNull >= 0) expect(rows.slice(firstNull).every((r) => r.reward === null)).toBe(true);
    const sorted = [...nonNull].sort((a, b) => (desc ? b - a : a - b));
    expect(nonNull).toEqual(sorted);
  }

  it.each([
    ['createdAt asc', undefined, false],
    ['reward desc', { field: 'REWARD', direction: 'DESC' } as TrajectoryOrder, true],
    ['reward asc', { field: 'REWARD', direction: 'ASC' } as TrajectoryOrder, false],
    ['createdAt desc', { field: 'CREATED_AT', direction: 'DESC' } as TrajectoryOrder, true],
  ])('visits every row exactly once, forwards and backwards: %s', async (_name, orderBy, desc) => {
    const forward = await walk(orderBy, 97);
    expect(forward).toHaveLength(N);
    expect(new Set(forward.map((r) => r.uuid)).size).toBe(N);
    if (orderBy?.field === 'REWARD') expectSorted(forward, desc);
    const backward = await walk(orderBy, 100, true);
    expect(backward.map((r) => r.uuid)).toEqual(forward.map((r) => r.uuid));
  });

  it('paginates a filtered view and counts it', async () => {
    const filter = { step: 3, rewardMin: 0, hasReward: true };
    const rows = await walk({ field: 'REWARD', direction: 'DESC' }, 13, false, filter);
    const expected = [...rewards.values()].filter((_, k) => k % 12 === 3).filter((r) => r !== null && r >= 0).length;
    expect(rows).toHaveLength(expected);
    expect(await count(runId, filter)).toBe(expected);
    expect(rows.every((r) => r.reward !== null && r.reward >= 0)).toBe(true);
    expect(await count(runId, { hasReward: false })).toBe([...rewards.values()].filter((r) => r === null).length);
  });

  it('refuses forged, stale and oversize page requests with a clear error', async () => {
    const first = await s.gql(ListTrajectories, { runId, first: 5, orderBy: { field: 'REWARD', direction: 'DESC' } });
    const cursor = first.trajectories.pageInfo.endCursor!;
    const stale = await s.request(ListTrajectories, {
      runId,
      first: 5,
      after: cursor,
      orderBy: { field: 'REWARD', direction: 'ASC' },
    });
    expect(stale.errors?.[0].message).toMatch(/after: this cursor belongs to a different ordering/);
    const forged = await s.request(ListTrajectories, { runId, first: 5, after: 'bm90IGEgY3Vyc29y' });
    expect(forged.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(forged.errors?.[0].message).toMatch(/cursor/);
    const tampered = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(cursor, 'base64url').toString()), v: 'x' }),
    ).toString('base64url');
    expect(
      (
        await s.request(ListTrajectories, {
          runId,
          first: 5,
          after: tampered,
          orderBy: { field: 'REWARD', direction: 'DESC' },
        })
      ).errors?.[0].message,
    ).toMatch(/cursor/);
    const tooMany = await s.request(ListTrajectories, { runId, first: 101 });
    expect(tooMany.errors?.[0].message).toMatch(/first must be at most 100/);
    expect((await s.gql(ListTrajectories, { runId })).trajectories.edges).toHaveLength(20);
  });

  it("loads each trajectory's run with a dataloader: a page of 100 costs a fixed number of queries, whatever runs beside it", async () => {
    const cost = async (first: number) => {
      const counted: number[] = [];
      const stop = s.app.operationQueries.listen(
        (c) => c.operationName === 'RunTrajectoriesWithRun' && counted.push(c.queries),
      );
      // Other clients read at the same moment: their queries are theirs, not this page's.
      const [res] = await Promise.all([
        s.gql(RunTrajectoriesWithRun, { id: runId, first }),
        s.gql(ListRuns, { first: 100 }),
        s.gql(ListTrajectories, { runId, first: 100 }),
      ]);
      stop();
      expect(res.run?.trajectories.edges).toHaveLength(first);
      expect(res.run?.trajectories.edges.every((e) => e.node.run.id === runId)).toBe(true);
      // Counted once the operation executed, before its answer was sent.
      expect(counted).toHaveLength(1);
      return counted[0];
    };
    const queries = await cost(100);
    expect(await cost(10)).toBe(queries);
    // The run lookup, the page and the count: each trajectory's run comes from the loader the lookup filled.
    expect(queries).toBe(3);
  });
});

describe('runs listing', () => {
  const t = useTestServer();

  it('filters by status, project, model, text, date and reward range, orders both ways, and counts', async () => {
    const made: { id: string; project: string; reward: number | null }[] = [];
    for (let i = 0; i < 30; i++) {
      const project = i % 3 === 0 ? 'alpha' : 'beta';
      const run = await createRun(t, {
        projectName: project,
        modelName: i % 2 ? 'Qwen/Qwen2.5-7B' : 'Qwen/Qwen2.5-1.5B-Instruct',
        taskDescription: i % 5 === 0 ? 'Write SQL queries' : 'Classify emails',
      });
      let reward: number | null = null;
      if (i % 4 !== 0) {
        reward = (i % 10) / 10;
        await recordTrajectories(t, run.id, [trajectory(0, reward), trajectory(0, reward)]);
        await t.gql((await import('./operations')).RecordMetrics, { runId: run.id, points: [{ step: 0, epoch: 0 }] });
      }
      made.push({ id: run.id, project, reward });
    }
    const all = await t.gql(ListRuns, { first: 100 });
    expect(all.runs.totalCount).toBe(30);
    expect(all.runs.edges.map((e) => e.node.id)).toEqual([...made].reverse().map((m) => m.id));

    const alpha = await t.gql(ListRuns, { filter: { projectName: 'alpha' }, first: 100 });
    expect(alpha.runs.totalCount).toBe(made.filter((m) => m.project === 'alpha').length);
    const sql = await t.gql(ListRuns, { filter: { taskDescriptionContains: 'sql' }, first: 100 });
    expect(sql.runs.totalCount).toBe(6);
    const pct = await t.gql(ListRuns, { filter: { taskDescriptionContains: '%' }, first: 100 });
    expect(pct.runs.totalCount).toBe(0);
    const qwen7 = await t.gql(ListRuns, { filter: { modelName: 'Qwen/Qwen2.5-7B' }, first: 100 });
    expect(qwen7.runs.totalCount).toBe(15);
    const rewardRange = await t.gql(ListRuns, { filter: { avgReward: { min: 0.3, max: 0.6 } }, first: 100 });
    expect(rewardRange.runs.totalCount).toBe(
      made.filter((m) => m.reward !== null && m.reward >= 0.3 && m.reward <= 0.6).length,
    );
    const future = await t.gql(ListRuns, { filter: { createdAfter: new Date(Date.now() + 60_000).toISOString() } });
    expect(future.runs.totalCount).toBe(0);
    const past = await t.gql(ListRuns, {
      filter: { createdBefore: new Date(Date.now() + 60_000).toISOString(), status: ['PENDING'] },
    });
    expect(past.runs.totalCount).toBe(30);
    expect((await t.gql(ListRuns, { filter: { status: ['COMPLETED', 'FAILED'] } })).runs.totalCount).toBe(0);

    const byReward: string[] = [];
    let after: string | null | undefined;
    do {
      const page = await t.gql(ListRuns, { orderBy: { field: 'AVG_REWARD', direction: 'DESC' }, first: 7, after });
      byReward.push(...page.runs.edges.map((e) => e.node.id));
      after = page.runs.pageInfo.hasNextPage ? page.runs.pageInfo.endCursor : null;
    } while (after);
    expect(byReward).toHaveLength(30);
    const expected = [...made].sort(
      (a, b) => (b.reward ?? -Infinity) - (a.reward ?? -Infinity) || (a.reward === null && b.reward === null ? 0 : 0),
    );
    expect(byReward.map((id) => made.find((m) => m.id === id)!.reward)).toEqual(expected.map((m) => m.reward));

    const bad = await t.request(ListRuns, { filter: { avgReward: { min: 1, max: 0 } } });
    expect(bad.errors?.[0].message).toMatch(/min must not be greater than max/);
  });
});
