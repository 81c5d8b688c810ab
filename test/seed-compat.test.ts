// The `training_runs` and `trajectories` tables keep the seed's layout: the user's own pydantic code
// (shared/seed/models.py, run by Python with pydantic 2) reads the rows Atelier writes with
// TrainingRun.from_row / TrajectoryRecord.from_row, and Atelier serves rows the seed's to_dict()
// wrote, both through a real server on a real SQLite file. Python is the source of truth on its
// side: the scripts in test/seed/ print what the seed's models hold, and the test compares that with
// what GraphQL answers, field by field.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { beforeAll, describe, expect, it } from 'vitest';

import type { GetRunQuery, ListTrajectoriesQuery, ListTrajectoriesQueryVariables } from './gql/graphql';
import { ART_FIXTURE } from './helpers/art-fixture';
import { createRun, recordTrajectories, trajectory, transition } from './helpers/builders';
import { expectResult } from './helpers/results';
import { useTestServer, type TestServer } from './helpers/server';
import { GetRun, ListRuns, ListTrajectories, RecordMetrics, RecordTrajectoryGroups } from './operations';

const here = dirname(fileURLToPath(import.meta.url));
const SCRIPTS = join(here, 'seed');
/** CI checks the repository out with shared/ as its sibling. */
const SEED_MODELS = resolve(here, '..', '..', 'shared', 'seed', 'models.py');
const PYTHON = 'python3';

function seedSkipReason(): string | undefined {
  const prefix = 'Seed compatibility tests skipped:';
  if (!existsSync(SEED_MODELS))
    return `${prefix} the seed's models.py is not at ${SEED_MODELS} (shared/ must sit next to the repository)`;
  const probe = spawnSync(
    PYTHON,
    ['-c', 'import sys, pydantic; print(pydantic.VERSION); sys.exit(0 if pydantic.VERSION.startswith("2.") else 3)'],
    { encoding: 'utf8' },
  );
  if (probe.error)
    return `${prefix} ${PYTHON} is not available (${probe.error.message}); install Python 3 with pydantic 2 to run them`;
  if (probe.status === 3) return `${prefix} pydantic ${probe.stdout.trim()} is installed but the seed needs pydantic 2`;
  if (probe.status !== 0)
    return `${prefix} ${PYTHON} cannot import pydantic (${probe.stderr.trim().split('\n').at(-1)}); install pydantic 2 to run them`;
  return undefined;
}

const SKIP = seedSkipReason();
if (SKIP) console.warn(SKIP);

const execFileP = promisify(execFile);

async function python<T>(script: string, args: string[]): Promise<T> {
  try {
    const { stdout } = await execFileP(PYTHON, [join(SCRIPTS, script), ...args], {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 15_000,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    return JSON.parse(stdout) as T;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`test/seed/${script} failed: ${e.stderr || e.message}`);
  }
}

// ---- What the Python side prints ----------------------------------------------------------------

type Json = Record<string, unknown>;
interface Instant {
  epoch_us: number;
  aware: boolean;
}
type ReadEntry =
  { ok: true; model: Json; instants: Record<string, Instant | null> } | { ok: false; error: string; row: Json };
interface ReadRows {
  runs: ReadEntry[];
  trajectories: ReadEntry[];
}
interface WrittenEntry {
  id: number;
  model: Json;
  row: Json;
  instants: Record<string, Instant | null>;
}
interface WriteRows {
  runs: Record<string, WrittenEntry>;
  trajectories: Record<string, WrittenEntry>;
}

// ---- Both sides in one shape: the seed's field names, dates as epoch milliseconds ----------------

type GqlRun = NonNullable<GetRunQuery['run']>;
type GqlTrajectory = ListTrajectoriesQuery['trajectories']['edges'][number]['node'];

const ms = (iso: string | null | undefined) => (iso == null ? null : Date.parse(iso));
/** JavaScript dates hold milliseconds: a seed date with microseconds is read truncated to them. */
const usToMs = (i: Instant | null | undefined) => (i == null ? null : Math.floor(i.epoch_us / 1000));

function runFromGraphql(r: GqlRun) {
  return {
    id: r.databaseId,
    uuid: r.uuid,
    status: r.status.toLowerCase(),
    model_name: r.modelName,
    project_name: r.projectName,
    trained_model_name: r.trainedModelName ?? null,
    task_description: r.taskDescription,
    num_examples: r.numExamples,
    rollouts_per_group: r.rolloutsPerGroup,
    learning_rate: r.learningRate,
    num_epochs: r.numEpochs,
    max_steps: r.maxSteps ?? null,
    system_prompt: r.systemPrompt ?? null,
    created_at: ms(r.createdAt),
    started_at: ms(r.startedAt),
    completed_at: ms(r.completedAt),
    metrics: r.metrics
      ? {
          total_trajectories: r.metrics.totalTrajectories,
          avg_reward: r.metrics.avgReward ?? null,
          min_reward: r.metrics.minReward ?? null,
          max_reward: r.metrics.maxReward ?? null,
          training_loss: r.metrics.trainingLoss ?? null,
          epoch: r.metrics.epoch,
          step: r.metrics.step,
        }
      : null,
    error: r.error ?? null,
    config: r.config,
  };
}

function runFromSeed(model: Json, instants: Record<string, Instant | null>) {
  return {
    ...model,
    created_at: usToMs(instants.created_at),
    started_at: usToMs(instants.started_at),
    completed_at: usToMs(instants.completed_at),
  };
}

function trajectoryFromGraphql(t: GqlTrajectory, runDatabaseId: number) {
  return {
    id: t.databaseId,
    uuid: t.uuid,
    run_id: runDatabaseId,
    task_input: { step: t.taskInput.step, input_text: t.taskInput.inputText, context: t.taskInput.context ?? null },
    messages: t.messages.map((m) => ({ role: m.role, content: m.content })),
    reward: t.reward ?? null,
    metadata: t.metadata,
    created_at: ms(t.createdAt),
  };
}

function trajectoryFromSeed(model: Json, instants: Record<string, Instant | null>) {
  return { ...model, created_at: usToMs(instants.created_at) };
}

async function getRun(s: TestServer, by: { id: string } | { uuid: string }): Promise<GqlRun> {
  const run = (await s.gql(GetRun, by)).run;
  if (!run) throw new Error(`no run ${JSON.stringify(by)}`);
  return run;
}

async function trajectoriesOf(s: TestServer, runId: string, extra: Omit<ListTrajectoriesQueryVariables, 'runId'> = {}) {
  const res = await s.gql(ListTrajectories, { runId, first: 100, ...extra });
  return res.trajectories;
}

function failures(entries: ReadEntry[]): string {
  return entries
    .filter((e): e is Extract<ReadEntry, { ok: false }> => !e.ok)
    .map((e) => `row ${JSON.stringify(e.row)}:\n${e.error}`)
    .join('\n\n');
}

describe.skipIf(Boolean(SKIP))(
  SKIP ? `seed compatibility [${SKIP}]` : "seed compatibility (shared/seed/models.py on Atelier's SQLite file)",
  () => {
    const s = useTestServer();
    let dbFile: string;
    beforeAll(async () => {
      dbFile = join(s.dir, 'atelier.sqlite');
      expect(existsSync(dbFile)).toBe(true);
    });

    describe('the seed reads the rows Atelier writes (TrainingRun.from_row, TrajectoryRecord.from_row)', () => {
      const runIds: string[] = [];
      let read: ReadRows;

      beforeAll(async () => {
        // No config, nothing else: every default.
        const plain = await createRun(s);
        // Everything set, a full lifecycle with trajectories and metrics.
        const full = await createRun(s, {
          projectName: 'seed-compat',
          trainedModelName: 'support-agent-v1',
          systemPrompt: 'You are a support agent.\nBe brief.',
          numExamples: 50,
          rolloutsPerGroup: 8,
          learningRate: 3e-5,
          numEpochs: 3,
          maxSteps: 12,
          config: {
            groups_per_step: 2,
            judge: { model: 'o3', weights: [0.5, 0.25] },
            note: 'naïve “quotes” ✓ 🎉',
            flag: true,
            nothing: null,
          },
        });
        await transition(s, full.id, 'GENERATING');
        await transition(s, full.id, 'COLLECTING');
        await recordTrajectories(s, full.id, [
          trajectory(0, 0.75, {
            taskInput: {
              step: 0,
              inputText: 'Refund “order” #42 — café',
              context: { ticket: 42, tags: ['refund', 'vip'], nested: { ok: true } },
            },
            metadata: { judge: 'ruler', scores: [0.1, 0.2], emoji: '🎉' },
          }),
          trajectory(0, null, { taskInput: { step: 0, inputText: 'no context', context: null }, metadata: undefined }),
          trajectory(0, 0, { messages: [{ role: 'user', content: 'line 1\nline 2 "quoted" \\ backslash' }] }),
          trajectory(999, -1.5, { taskInput: { step: 999, inputText: 'held-out test input' }, messages: [] }),
        ]);
        const metrics = await s.gql(RecordMetrics, {
          runId: full.id,
          points: [{ step: 0, epoch: 0, trainingLoss: 0.5, values: [{ name: 'kl', value: 0.01 }] }],
        });
        expectResult(metrics.recordMetrics, 'RecordMetricsPayload');
        for (const to of ['SCORING', 'TRAINING', 'COMPLETED'] as const) await transition(s, full.id, to);
        // FAILED with an error.
        const failed = await createRun(s, { maxSteps: 3, config: {} });
        await transition(s, failed.id, 'GENERATING');
        await transition(s, failed.id, 'FAILED', 'backend out of memory: "CUDA"\nat step 0');
        // CANCELLED straight from PENDING.
        const cancelled = await createRun(s, { config: { k: 1 } });
        await transition(s, cancelled.id, 'CANCELLED');
        // Trajectories but no recorded metrics: metrics only counts them.
        const collecting = await createRun(s);
        await advanceToCollecting(collecting.id);
        await recordTrajectories(s, collecting.id, [trajectory(1, 0.5), trajectory(1, 0.25)]);

        // ART groups with tool calls, null and part-list content, choices and a val split (made by ART's own classes).
        const art = await createRun(s, { projectName: 'seed-compat-art' });
        await transition(s, art.id, 'TRAINING');
        for (const split of ['train', 'val']) {
          const res = await s.gql(RecordTrajectoryGroups, {
            runId: art.id,
            step: 2,
            split,
            groups: ART_FIXTURE.groups as never,
          });
          expectResult(res.recordTrajectoryGroups, 'RecordTrajectoryGroupsPayload');
        }

        runIds.push(plain.id, full.id, failed.id, cancelled.id, collecting.id, art.id);
        read = await python<ReadRows>('read_rows.py', [SEED_MODELS, dbFile]);
      });

      async function advanceToCollecting(id: string) {
        await transition(s, id, 'GENERATING');
        await transition(s, id, 'COLLECTING');
      }

      it('reads every training_runs row, equal field by field to what GraphQL returns', async () => {
        expect(failures(read.runs), 'TrainingRun.from_row failed on Atelier rows').toBe('');
        expect(read.runs).toHaveLength(runIds.length);
        for (const id of runIds) {
          const run = await getRun(s, { id });
          const entry = read.runs.find((e) => e.ok && e.model.uuid === run.uuid);
          expect(entry, `the seed did not read run ${run.uuid}`).toBeDefined();
          if (!entry?.ok) continue;
          expect(runFromSeed(entry.model, entry.instants), `run ${run.uuid}`).toEqual(runFromGraphql(run));
          // Atelier writes UTC instants: the seed gets timezone-aware datetimes, exact to the microsecond.
          for (const [field, i] of Object.entries(entry.instants)) {
            if (i)
              expect({ field, aware: i.aware, sub_ms: i.epoch_us % 1000 }).toEqual({ field, aware: true, sub_ms: 0 });
          }
        }
        const byUuid = (uuid: string) =>
          read.runs.find((e) => e.ok && e.model.uuid === uuid) as Extract<ReadEntry, { ok: true }>;
        // The cases this test is about really are in there.
        const [plain, full, failed] = await Promise.all(runIds.slice(0, 3).map((id) => getRun(s, { id })));
        expect(byUuid(plain.uuid).model).toMatchObject({
          config: {},
          metrics: null,
          max_steps: null,
          status: 'pending',
        });
        expect(byUuid(full.uuid).model).toMatchObject({
          status: 'completed',
          max_steps: 12,
          metrics: {
            total_trajectories: 4,
            avg_reward: 0.375,
            min_reward: 0,
            max_reward: 0.75,
            training_loss: 0.5,
            epoch: 0,
            step: 0,
          },
          config: { note: 'naïve “quotes” ✓ 🎉', nothing: null },
        });
        expect(byUuid(failed.uuid).model).toMatchObject({
          status: 'failed',
          error: 'backend out of memory: "CUDA"\nat step 0',
          config: {},
        });
      });

      const models = () => read.trajectories.map((e) => (e.ok ? e.model : {}));

      it('reads every trajectories row, equal field by field to what GraphQL returns', async () => {
        expect(failures(read.trajectories), 'TrajectoryRecord.from_row failed on Atelier rows').toBe('');
        let seen = 0;
        for (const id of runIds) {
          const run = await getRun(s, { id });
          for (const { node } of (await trajectoriesOf(s, id)).edges) {
            seen++;
            const entry = read.trajectories.find((e) => e.ok && e.model.uuid === node.uuid);
            expect(entry, `the seed did not read trajectory ${node.uuid}`).toBeDefined();
            if (!entry?.ok) continue;
            expect(trajectoryFromSeed(entry.model, entry.instants), `trajectory ${node.uuid}`).toEqual(
              trajectoryFromGraphql(node, run.databaseId),
            );
            expect(entry.instants.created_at?.aware).toBe(true);
          }
        }
        expect(seen).toBe(6 + 2 * 4);
        expect(read.trajectories).toHaveLength(seen);
        // A tool-calling ART trajectory: the seed gets every turn as role and text (a tool call's null content as "").
        expect(models()).toContainEqual(
          expect.objectContaining({
            task_input: { step: 2, input_text: 'How much is the March invoice?', context: null },
            reward: 1,
            messages: expect.arrayContaining([
              { role: 'assistant', content: '' },
              { role: 'tool', content: 'Total due: 1,240.00 EUR by April 3.' },
            ]),
          }),
        );
        expect(models()).toContainEqual(
          expect.objectContaining({
            reward: null,
            metadata: {},
            task_input: { step: 0, input_text: 'no context', context: null },
          }),
        );
        expect(models()).toContainEqual(
          expect.objectContaining({
            reward: -1.5,
            messages: [],
            task_input: { step: 999, input_text: 'held-out test input', context: null },
          }),
        );
        expect(models()).toContainEqual(
          expect.objectContaining({ reward: 0.75, metadata: { judge: 'ruler', scores: [0.1, 0.2], emoji: '🎉' } }),
        );
      });
    });

    describe('Atelier reads the rows the seed writes (to_dict, inserted while the server runs)', () => {
      let written: WriteRows;
      let host: Awaited<ReturnType<typeof createRun>>;
      let hostUuids: string[];

      beforeAll(async () => {
        host = await createRun(s, { projectName: 'seed-compat-host' });
        await transition(s, host.id, 'GENERATING');
        await transition(s, host.id, 'COLLECTING');
        hostUuids = (await recordTrajectories(s, host.id, [trajectory(0, 0.9), trajectory(0, null)])).uuids;
        written = await python<WriteRows>('write_rows.py', [SEED_MODELS, dbFile, String(host.databaseId)]);
      });

      it('wrote the seed layout: no avg_reward or step, NULL for an empty config or metadata', () => {
        const runRow = written.runs.defaults.row;
        expect(Object.keys(runRow)).not.toContain('avg_reward');
        expect(runRow).toMatchObject({ config: null, metrics: null });
        const trajectoryRow = written.trajectories.defaults.row;
        expect(Object.keys(trajectoryRow)).not.toContain('step');
        expect(trajectoryRow).toMatchObject({ metadata: null, messages: '[]', reward: null });
      });

      it('serves every seed run through run(uuid:), every field equal to the seed model', async () => {
        expect(Object.keys(written.runs).length).toBeGreaterThanOrEqual(12);
        for (const [key, entry] of Object.entries(written.runs)) {
          const run = (await s.gql(GetRun, { uuid: String(entry.model.uuid) })).run;
          expect(run, `run ${key} (${entry.model.uuid}) not found`).not.toBeNull();
          // The seed's object has no id (None); SQLite assigned the row's.
          expect(runFromGraphql(run!), `run ${key}`).toEqual({
            ...runFromSeed(entry.model, entry.instants),
            id: entry.id,
          });
          expect(run!.statusHistory).toEqual([]);
        }
        // Every seed status maps onto the GraphQL enum.
        const statuses = await s.gql(ListRuns, { filter: { projectName: 'seed-compat-status' }, first: 20 });
        expect(statuses.runs.edges.map((e) => e.node.status).sort()).toEqual([
          'CANCELLED',
          'COLLECTING',
          'COMPLETED',
          'FAILED',
          'GENERATING',
          'PENDING',
          'SCORING',
          'TRAINING',
        ]);
        // The cases this test is about really are in there.
        const full = await getRun(s, { uuid: String(written.runs.full.model.uuid) });
        expect(full).toMatchObject({
          status: 'FAILED',
          error: 'CUDA out of memory: "tried to allocate 2 GiB"\nat step 4',
          startedAt: '2026-03-04T05:08:09.005Z',
          createdAt: '2026-03-04T05:06:07.891Z',
          metrics: {
            totalTrajectories: 3,
            avgReward: 0.5,
            minReward: -1.25,
            maxReward: 1,
            trainingLoss: 0.125,
            epoch: 1,
            step: 4,
          },
          config: { judge: { model: 'o3', weights: [0.5, 0.25] }, note: 'naïve ✓', nothing: null },
        });
        expect(await getRun(s, { uuid: String(written.runs.defaults.model.uuid) })).toMatchObject({
          config: {},
          metrics: null,
          numExamples: 100,
          learningRate: 1e-5,
        });
        expect(await getRun(s, { uuid: String(written.runs.metrics_defaults.model.uuid) })).toMatchObject({
          metrics: {
            totalTrajectories: 0,
            avgReward: null,
            minReward: null,
            maxReward: null,
            trainingLoss: null,
            epoch: 0,
            step: 0,
          },
        });
      });

      it('serves every seed trajectory through trajectories(runId:), every field equal to the seed model', async () => {
        const full = await getRun(s, { uuid: String(written.runs.full.model.uuid) });
        const fullList = await trajectoriesOf(s, full.id);
        expect(fullList.totalCount).toBe(3);
        const hostList = await trajectoriesOf(s, host.id);
        expect(hostList.totalCount).toBe(3);
        const shared = await getRun(s, { uuid: String(written.runs.shared.model.uuid) });
        const sharedList = await trajectoriesOf(s, shared.id);

        const served = [
          ...fullList.edges.map((e) => trajectoryFromGraphql(e.node, full.databaseId)),
          ...hostList.edges.map((e) => trajectoryFromGraphql(e.node, host.databaseId)),
          ...sharedList.edges.map((e) => trajectoryFromGraphql(e.node, shared.databaseId)),
        ];
        for (const [key, entry] of Object.entries(written.trajectories)) {
          const got = served.find((t) => t.uuid === entry.model.uuid);
          expect(got, `trajectory ${key} (${entry.model.uuid}) not served`).toBeDefined();
          expect(got, `trajectory ${key}`).toEqual({
            ...trajectoryFromSeed(entry.model, entry.instants),
            id: entry.id,
          });
        }
        expect(served.find((t) => t.uuid === written.trajectories.defaults.model.uuid)).toMatchObject({
          messages: [],
          reward: null,
          metadata: {},
          task_input: { step: 0, input_text: 'What is 2 + 2?', context: null },
        });
        expect(served.find((t) => t.uuid === written.trajectories.full.model.uuid)).toMatchObject({
          reward: 0,
          created_at: Date.parse('2026-03-04T05:10:00.120Z'),
          metadata: { emoji: '🎉' },
          task_input: { context: { ticket: 42, tags: ['refund', 'vip'], nested: { ok: true } } },
        });
        // In Atelier's own run the seed's row sits with Atelier's, and orders by reward with them.
        const byReward = await trajectoriesOf(s, host.id, { orderBy: { field: 'REWARD', direction: 'DESC' } });
        expect(byReward.edges.map((e) => e.node.uuid)).toEqual([
          hostUuids[0],
          written.trajectories.into_atelier_run.model.uuid,
          hostUuids[1],
        ]);
      });

      it('continues a seed-written run, and the seed still reads it back', async () => {
        const shared = await getRun(s, { uuid: String(written.runs.shared.model.uuid) });
        expect(shared).toMatchObject({ status: 'PENDING', metrics: null, config: { owner: 'seed' } });
        await transition(s, shared.id, 'GENERATING');
        await transition(s, shared.id, 'COLLECTING');
        const [mine] = (await recordTrajectories(s, shared.id, [trajectory(0, 0.75)])).uuids;
        const after = await getRun(s, { id: shared.id });
        expect(after).toMatchObject({
          status: 'COLLECTING',
          metrics: { totalTrajectories: 1 },
          config: { owner: 'seed' },
        });
        const read = await python<ReadRows>('read_rows.py', [SEED_MODELS, dbFile]);
        const entry = read.runs.find((e) => (e.ok ? e.model.uuid : e.row.uuid) === shared.uuid)!;
        expect(entry.ok ? '' : entry.error, 'TrainingRun.from_row on the continued run').toBe('');
        if (entry.ok) expect(runFromSeed(entry.model, entry.instants)).toEqual(runFromGraphql(after));
        for (const uuid of [mine, written.trajectories.into_shared_run.model.uuid]) {
          const t = read.trajectories.find((e) => (e.ok ? e.model.uuid : e.row.uuid) === uuid)!;
          expect(t.ok ? '' : t.error, `TrajectoryRecord.from_row on ${uuid}`).toBe('');
        }
      });

      it('finds seed trajectories by step (the seed writes no step column)', async () => {
        const full = await getRun(s, { uuid: String(written.runs.full.model.uuid) });
        const step3 = await trajectoriesOf(s, full.id, { filter: { step: 3 } });
        expect(
          step3.edges.map((e) => e.node.uuid),
          'trajectories(filter: {step: 3}) misses the seed row with task_input.step = 3',
        ).toEqual([written.trajectories.full.model.uuid]);
        const host0 = await trajectoriesOf(s, host.id, { filter: { step: 0 } });
        expect(host0.totalCount, 'trajectories(filter: {step: 0}) of the host run should count the seed row too').toBe(
          3,
        );
      });

      it('computes metrics over seed trajectories too (recordMetrics reward statistics of a step)', async () => {
        const res = await s.gql(RecordMetrics, { runId: host.id, points: [{ step: 0, epoch: 0 }] });
        const recorded = expectResult(res.recordMetrics, 'RecordMetricsPayload');
        // Step 0 of the host run: Atelier's 0.9 and NULL, and the seed's 0.625.
        expect(recorded.points[0], 'the seed-written trajectory of step 0 is left out of the statistics').toMatchObject(
          {
            totalTrajectories: 3,
            avgReward: expect.closeTo((0.9 + 0.625) / 2, 10),
            minReward: 0.625,
            maxReward: 0.9,
          },
        );
      });

      it('filters and orders seed runs by the avgReward their metrics hold (the seed writes no avg_reward column)', async () => {
        const full = written.runs.full.model;
        const inRange = await s.gql(ListRuns, {
          filter: { projectName: 'seed-compat', avgReward: { min: 0.4, max: 0.6 } },
          first: 50,
        });
        expect(
          inRange.runs.edges.map((e) => e.node.metrics?.avgReward),
          'avgReward filter ignores a seed run with metrics.avg_reward = 0.5',
        ).toContain(0.5);
        const ordered = await s.gql(ListRuns, {
          filter: { projectName: 'seed-compat' },
          orderBy: { field: 'AVG_REWARD', direction: 'DESC' },
          first: 1,
        });
        expect(
          ordered.runs.edges[0]?.node.databaseId,
          `AVG_REWARD DESC should list run ${String(full.uuid)} (avg 0.5) first`,
        ).toBe(written.runs.full.id);
      });
    });
  },
);
