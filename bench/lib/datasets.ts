// The data the scenarios run on, in Atelier's exact row layout: a file is first opened with
// Atelier's openDatabase (so Atelier's own migrations make the schema), then filled with raw
// better-sqlite3 prepared statements in big transactions, which is far faster than any API.
// Text columns are serialized with Atelier's own functions (task_input, messages, metrics).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import BetterSqlite3 from 'better-sqlite3';

import { openDatabase } from '../../src/db/data-source';
import { prng } from '../../src/domain/prng';
import { EMPTY_METRICS } from '../../src/domain/training-metrics';
import { metricsToJson } from '../../src/runs/run.model';
import {
  messagesToJson,
  taskInputToJson,
  type TaskInput,
  type TrajectoryMessage,
} from '../../src/trajectories/trajectory.model';
import { now } from './stats';

const WORDS =
  'the model answers each ticket with one short sentence that names the customer problem and the next step to take quickly reward judge rollout group score policy token'.split(
    ' ',
  );

function words(rand: () => number, bytes: number): string {
  let out = '';
  while (out.length < bytes) out += WORDS[Math.floor(rand() * WORDS.length)] + ' ';
  return out.slice(0, bytes);
}

/** The trajectories as ART JSON: system and user messages, the model's reply as a Choice. */
export function artTrajectory(t: TrajectoryInput) {
  const [system, user, assistant] = t.messages;
  return {
    messages_and_choices: [
      { role: 'system', content: system.content },
      { role: 'user', content: user.content },
      { finish_reason: 'stop', index: 0, logprobs: null, message: { role: 'assistant', content: assistant.content } },
    ],
    tools: null,
    additional_histories: [],
    reward: t.reward ?? 0,
    initial_policy_version: null,
    final_policy_version: null,
    metrics: {},
    metadata: { group: Number(t.metadata.group) },
    logs: [],
  };
}

/** A trajectory as a client sends it to recordTrajectories. */
export interface TrajectoryInput {
  uuid: string;
  taskInput: TaskInput;
  messages: TrajectoryMessage[];
  reward: number | null;
  metadata: Record<string, unknown>;
}

/** Trajectories whose messages serialize to about `messageBytes` bytes; about 2% have no reward. */
export function makeTrajectories(
  count: number,
  options: { messageBytes: number; seed: number; groupSize?: number; firstStep?: number },
): TrajectoryInput[] {
  const rand = prng(options.seed);
  const group = options.groupSize ?? 16;
  // Three messages; the JSON framing adds about 100 bytes.
  const body = Math.max(30, options.messageBytes - 100);
  return Array.from({ length: count }, (_, i) => {
    const step = (options.firstStep ?? 0) + Math.floor(i / group);
    return {
      uuid: randomUUID(),
      taskInput: { step, inputText: `ticket ${i}: ${words(rand, 40)}`, context: null },
      messages: [
        { role: 'system', content: words(rand, Math.floor(body * 0.15)) },
        { role: 'user', content: words(rand, Math.floor(body * 0.35)) },
        { role: 'assistant', content: words(rand, Math.floor(body * 0.5)) },
      ],
      reward: rand() < 0.02 ? null : Math.round(rand() * 1e6) / 1e6,
      metadata: { judge: 'ruler', group: Math.floor(i / 4) },
    };
  });
}

/** The `trajectories` row Atelier writes for an input (see TrajectoriesService.record). */
export function trajectoryRow(t: TrajectoryInput, runId: number, createdAt: string): unknown[] {
  return [
    t.uuid,
    runId,
    taskInputToJson(t.taskInput),
    messagesToJson(t.messages),
    t.reward,
    JSON.stringify(t.metadata),
    createdAt,
    t.taskInput.step,
  ];
}

export const INSERT_TRAJECTORY_SQL =
  'INSERT INTO trajectories (uuid, run_id, task_input, messages, reward, metadata, created_at, step) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';

/** A fresh SQLite file with Atelier's schema, made by Atelier's own migrations. */
export async function migratedSqliteFile(path: string): Promise<string> {
  const db = await openDatabase({ kind: 'sqlite', path });
  await db.close();
  return path;
}

/** better-sqlite3 on a migrated file with the pragmas Atelier's writer uses (WAL, synchronous NORMAL, a busy timeout). */
export function rawConnection(path: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Wait for the server's writer (a deferred write, its checkpoint thread) as Atelier's writer waits, rather than failing a round.
  db.pragma('busy_timeout = 10000');
  return db;
}

/** Messages of the shared 1,000,000-trajectory database: about what an ART trajectory carries. */
export const LARGE_MESSAGE_BYTES = 2048;

export interface LargeDatabase {
  path: string;
  runs: number;
  trajectoriesPerRun: number;
  buildMs: number;
}

const STATUS_PATH = ['pending', 'generating', 'collecting', 'scoring', 'training'] as const;

/**
 * `runs` runs with `perRun` trajectories each, the runs in varied statuses and modes with their
 * metrics and status history, as Atelier would have stored them. `pageSize` makes the file with that
 * page size first, as a file made before Atelier chose its own would be.
 */
export async function buildRunsDatabase(
  dir: string,
  options: {
    runs: number;
    perRun: number;
    messageBytes: number;
    name?: string;
    pageSize?: number;
    /** Every run also gets a name, a group, two tags and train/reward and val/reward summaries, as the runs list shows them. */
    labels?: boolean;
  },
): Promise<LargeDatabase> {
  const started = now();
  const file = join(dir, options.name ?? 'runs.sqlite');
  if (options.pageSize) {
    // A file made before Atelier chose its page size: Atelier's migrations then keep this one.
    const empty = new BetterSqlite3(file);
    empty.pragma(`page_size = ${options.pageSize}`);
    empty.exec('VACUUM');
    empty.close();
  }
  const path = await migratedSqliteFile(file);
  const db = new BetterSqlite3(path);
  // Building only: nothing else has the file open, and a crash just means building again.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -400000');
  db.pragma('temp_store = MEMORY');
  const insertRun = db.prepare(
    `INSERT INTO training_runs (id, uuid, status, model_name, project_name, trained_model_name, task_description, num_examples, rollouts_per_group,
       learning_rate, num_epochs, max_steps, system_prompt, created_at, started_at, completed_at, metrics, error, config, avg_reward, mode)
     VALUES (?, ?, ?, ?, ?, NULL, ?, 100, 4, 0.00001, 2, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTransition = db.prepare(
    'INSERT INTO status_transitions (run_id, from_status, to_status, at, reason) VALUES (?, ?, ?, ?, ?)',
  );
  const insertTrajectory = db.prepare(INSERT_TRAJECTORY_SQL);
  const label = db.prepare('UPDATE training_runs SET name = ?, group_name = ? WHERE id = ?');
  const insertTag = db.prepare('INSERT INTO run_tags (run_id, tag) VALUES (?, ?)');
  const insertSummary = db.prepare(
    'INSERT INTO run_summaries (run_id, split, name, source, step, last, min, max) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const rand = prng(7);
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const iso = (ms: number) => new Date(ms).toISOString();

  // Messages come from a pool made once (at 2 KB each, making a million of them would take longer
  // than inserting them); every row has its own uuid, reward and step.
  const pool = makeTrajectories(Math.min(options.perRun, 500), { messageBytes: options.messageBytes, seed: 1 }).map(
    (t) => ({ inputText: t.taskInput.inputText, messages: messagesToJson(t.messages) }),
  );
  type Row = Omit<TrajectoryInput, 'messages'> & { messagesJson: string };
  const makeRows = (id: number): Row[] => {
    const r = prng(id);
    return Array.from({ length: options.perRun }, (_, k) => {
      const from = pool[k % pool.length];
      const step = Math.floor(k / 16);
      return {
        uuid: randomUUID(),
        taskInput: { step, inputText: from.inputText, context: null },
        messagesJson: from.messages,
        reward: r() < 0.02 ? null : Math.round(r() * 1e6) / 1e6,
        metadata: { judge: 'ruler', group: Math.floor(k / 4) },
      };
    });
  };
  const row = (t: Row, runId: number, createdAt: string): unknown[] => [
    t.uuid,
    runId,
    taskInputToJson(t.taskInput),
    t.messagesJson,
    t.reward,
    JSON.stringify(t.metadata),
    createdAt,
    t.taskInput.step,
  ];

  const addRun = (id: number) => {
    const created = base + id * 3_600_000;
    const trajectories = makeRows(id);
    const rewards = trajectories.map((t) => t.reward).filter((r): r is number => r !== null);
    const roll = rand();
    const final = roll < 0.8 ? 'completed' : roll < 0.88 ? 'failed' : roll < 0.92 ? 'cancelled' : 'training';
    const path = [...STATUS_PATH, ...(final === 'training' ? [] : [final])];
    const at = path.map((_, i) => iso(created + i * 60_000));
    const lastStep = trajectories.length ? trajectories[trajectories.length - 1].taskInput.step : 0;
    const metrics = {
      ...EMPTY_METRICS,
      totalTrajectories: trajectories.length,
      avgReward: rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : null,
      // A loop, not Math.min(...rewards): spreading a run of 200,000 overflows the call stack.
      minReward: rewards.length ? rewards.reduce((a, b) => Math.min(a, b)) : null,
      maxReward: rewards.length ? rewards.reduce((a, b) => Math.max(a, b)) : null,
      trainingLoss: Math.round(rand() * 1e4) / 1e4,
      epoch: 1,
      step: lastStep,
    };
    const error = final === 'failed' ? 'the trainer stopped: CUDA out of memory' : null;
    const pipeline = final !== 'training' && id % 4 !== 0;
    insertRun.run(
      id,
      randomUUID(),
      final,
      ['Qwen/Qwen2.5-1.5B-Instruct', 'Qwen/Qwen2.5-7B-Instruct', 'meta-llama/Llama-3.2-3B-Instruct'][id % 3],
      `project-${id % 20}`,
      `Summarise support tickets in one sentence (variant ${id})`,
      at[0],
      at[1],
      final === 'training' ? null : at[at.length - 1],
      metricsToJson(metrics),
      error,
      // Most finished runs are pipeline runs with their own settings, as the dashboard lists them
      // (the active ones stay TRACKED: no runner of a benchmark server would pick them up).
      pipeline ? JSON.stringify({ pipeline: { groupsPerStep: 2 + (id % 3), temperature: 0.7 } }) : '{}',
      metrics.avgReward,
      pipeline ? 'pipeline' : 'tracked',
    );
    path.forEach((to, i) =>
      insertTransition.run(id, i === 0 ? null : path[i - 1], to, at[i], to === 'failed' ? error : null),
    );
    trajectories.forEach((t, k) => insertTrajectory.run(...row(t, id, iso(created + 120_000 + k * 250))));
    if (options.labels) {
      label.run(`run ${id}`, `sweep-${id % 10}`, id);
      for (const tag of ['baseline', `lr-${id % 5}`]) insertTag.run(id, tag);
      for (const split of ['train', 'val'])
        insertSummary.run(id, split, `${split}/reward`, 'values', lastStep, metrics.avgReward ?? 0, 0, 1);
    }
  };

  const batch = db.transaction((from: number, to: number) => {
    for (let id = from; id <= to; id++) addRun(id);
  });
  const perTransaction = Math.max(1, Math.floor(200_000 / Math.max(1, options.perRun)));
  for (let id = 1; id <= options.runs; id += perTransaction) batch(id, Math.min(options.runs, id + perTransaction - 1));
  // No ANALYZE: Atelier never runs it, so the query planner sees what it sees in production.
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { path, runs: options.runs, trajectoriesPerRun: options.perRun, buildMs: now() - started };
}
