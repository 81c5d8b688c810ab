// Records trajectories reported by a training script or collected by the pipeline: a batch is
// stored whole or not at all, and is idempotent by uuid (a batch sent twice is stored once).
// Reads hand out Trajectory models, except the pipeline's working set (raw choices included).
import { randomUUID } from 'node:crypto';

import { In } from 'typeorm';

import type { Database } from '../db/data-source';
import { TrajectoryEntity, type TrajectoryRow } from '../db/entities';
import { parseJsonObject } from '../db/json';
import type { Page, PageWindow, Positioned } from '../db/keyset';
import { nowStored } from '../db/timestamps';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { EventBus } from '../events/event-bus';
import { addToTrajectoryTotal } from '../runs/runs.repo';
import { lockGuarded, type WriteGuard } from '../runs/write-guard';
import {
  insertTrajectories,
  type TrajectoriesRepo,
  type TrajectoryFilter,
  type TrajectoryOrder,
} from './trajectories.repo';
import {
  messagesToJson,
  taskInputToJson,
  trajectoryFromRow,
  type TaskInput,
  type Trajectory,
  type TrajectoryMessage,
} from './trajectory.model';

export interface RecordTrajectoryInput {
  uuid?: string | null;
  taskInput: TaskInput;
  messages: TrajectoryMessage[];
  reward?: number | null;
  metadata?: Record<string, unknown> | null;
  /** Pipeline rollouts only: the completion choice verbatim, for training. */
  choice?: unknown;
}

export interface RecordOptions {
  /** The pipeline's guard: nothing is written after a cancel or a lost lease. */
  guard?: WriteGuard;
}

export interface ScoreUpdate {
  id: number;
  reward: number | null;
  /** Merged into the trajectory's metadata. */
  metadata: Record<string, unknown>;
}

export interface RecordTrajectoriesResult {
  /** How many were stored by this call. */
  recorded: number;
  /** uuids that were already stored with the same content, and so were not stored again. */
  duplicateUuids: string[];
  /** The uuids of the whole batch, in input order. */
  uuids: string[];
}

export const MAX_TRAJECTORIES_PER_CALL = 1000;
const LOOKUP_CHUNK = 500;

type NewRow = Omit<TrajectoryRow, 'id'>;

function sameContent(
  a: Pick<TrajectoryRow, 'runId' | 'taskInput' | 'messages' | 'reward' | 'metadata'>,
  b: Omit<NewRow, 'choice'>,
): boolean {
  return (
    a.runId === b.runId &&
    a.taskInput === b.taskInput &&
    a.messages === b.messages &&
    a.reward === b.reward &&
    (a.metadata ?? '{}') === (b.metadata ?? '{}')
  );
}

export class TrajectoriesService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly repo: TrajectoriesRepo,
  ) {}

  // ---- reads ----

  /** A keyset page of one run's trajectories, each with the position its cursor encodes. */
  async page(
    runId: number,
    filter: TrajectoryFilter,
    order: TrajectoryOrder,
    window: PageWindow,
  ): Promise<Page<Positioned<Trajectory>>> {
    const page = await this.repo.page(runId, filter, order, window);
    return {
      ...page,
      rows: page.rows.map((row) => ({
        node: trajectoryFromRow(row),
        position: { value: order.field === 'reward' ? row.reward : row.createdAt, id: row.id },
      })),
    };
  }

  /** A lower bound of the message content characters the page holds, before it is read (0: unknown). */
  pageContentChars(
    runId: number,
    filter: TrajectoryFilter,
    order: TrajectoryOrder,
    window: PageWindow,
  ): Promise<number> {
    return this.repo.pageContentChars(runId, filter, order, window);
  }

  count(runId: number, filter: TrajectoryFilter): Promise<number> {
    return this.repo.count(runId, filter);
  }

  /** The trajectories of these ids that exist, by ascending id. */
  async getMany(ids: readonly number[]): Promise<Trajectory[]> {
    return (await this.repo.findByIds(ids)).sort((a, b) => a.id - b.id).map(trajectoryFromRow);
  }

  /** The trajectory stored under a uuid, or NotFoundError. */
  async getByUuid(uuid: string): Promise<Trajectory> {
    const row = await this.repo.findByUuid(uuid);
    if (!row) throw new NotFoundError('Trajectory', uuid);
    return trajectoryFromRow(row);
  }

  /** A step's trajectories as stored, raw choices included: the pipeline's working set, not a model. */
  forStep(runId: number, step: number): Promise<TrajectoryRow[]> {
    return this.repo.forStep(runId, step);
  }

  // ---- writes ----

  async record(
    runId: number,
    items: RecordTrajectoryInput[],
    options: RecordOptions = {},
  ): Promise<RecordTrajectoriesResult> {
    if (items.length > MAX_TRAJECTORIES_PER_CALL) {
      throw ValidationError.of(
        'trajectories',
        'max',
        `at most ${MAX_TRAJECTORIES_PER_CALL} trajectories per call, got ${items.length}`,
      );
    }
    const now = nowStored();
    const rows: NewRow[] = items.map((t) => ({
      uuid: t.uuid ?? randomUUID(),
      runId,
      taskInput: taskInputToJson(t.taskInput),
      messages: messagesToJson(t.messages),
      reward: t.reward ?? null,
      metadata: JSON.stringify(t.metadata ?? {}),
      createdAt: now,
      step: t.taskInput.step,
      choice: t.choice === undefined ? null : JSON.stringify(t.choice),
    }));
    const seen = new Map<string, number>();
    rows.forEach((r, i) => {
      const first = seen.get(r.uuid);
      if (first !== undefined)
        throw ValidationError.of(
          `trajectories.${i}.uuid`,
          'unique',
          `uuid ${r.uuid} appears twice in this batch (also at ${first})`,
        );
      seen.set(r.uuid, i);
    });

    return this.db.writes.run(async (tx) => {
      const run = await lockGuarded(tx.em, this.db.kind, runId, options.guard);
      const repo = tx.em.getRepository(TrajectoryEntity);

      const existing = new Map<string, TrajectoryRow>();
      for (let i = 0; i < rows.length; i += LOOKUP_CHUNK) {
        const uuids = rows.slice(i, i + LOOKUP_CHUNK).map((r) => r.uuid);
        for (const row of await repo.findBy({ uuid: In(uuids) })) existing.set(row.uuid, row);
      }
      const fresh: NewRow[] = [];
      const duplicateUuids: string[] = [];
      rows.forEach((r, i) => {
        const old = existing.get(r.uuid);
        if (!old) return void fresh.push(r);
        if (!sameContent(old, r)) {
          throw new ConflictError(
            `trajectories.${i}: uuid ${r.uuid} is already stored with different content${old.runId !== runId ? ' in another run' : ''}; a recorded trajectory is never overwritten`,
          );
        }
        duplicateUuids.push(r.uuid);
      });

      const ids = fresh.length > 0 ? await insertTrajectories(tx.em, this.db.kind, fresh) : [];

      if (fresh.length > 0) {
        await addToTrajectoryTotal(tx.em, run, fresh.length);
        const steps = new Set(fresh.map((r) => r.step));
        const step = steps.size === 1 ? [...steps][0] : null;
        tx.afterCommit(() =>
          this.events.publish('trajectoriesRecorded', { runId, step, count: fresh.length, trajectoryIds: ids }),
        );
      }
      return { recorded: fresh.length, duplicateUuids, uuids: rows.map((r) => r.uuid) };
    });
  }

  /** Sets rewards (RULER's scores) on a run's trajectories in one transaction, while the guard holds; subscribers learn it after commit. */
  async applyScores(runId: number, updates: ScoreUpdate[], guard: WriteGuard): Promise<void> {
    await this.db.writes.run(async (tx) => {
      await lockGuarded(tx.em, this.db.kind, runId, guard);
      const repo = tx.em.getRepository(TrajectoryEntity);
      const steps = new Set<number | null>();
      for (const u of updates) {
        const row = await repo.findOneBy({ id: u.id, runId });
        if (!row) throw new NotFoundError('Trajectory', String(u.id));
        const metadata = { ...parseJsonObject(row.metadata), ...u.metadata };
        await repo.update({ id: u.id }, { reward: u.reward, metadata: JSON.stringify(metadata) });
        steps.add(row.step);
      }
      if (updates.length === 0) return;
      const step = steps.size === 1 ? [...steps][0] : null;
      const trajectoryIds = updates.map((u) => u.id).sort((a, b) => a - b);
      tx.afterCommit(() => this.events.publish('trajectoriesScored', { runId, step, trajectoryIds }));
    });
  }

  /** Removes the trajectories of an interrupted pipeline step so it can be redone cleanly. */
  async deleteStep(runId: number, step: number, guard: WriteGuard): Promise<number> {
    return this.db.writes.run(async (tx) => {
      const run = await lockGuarded(tx.em, this.db.kind, runId, guard);
      const repo = tx.em.getRepository(TrajectoryEntity);
      const removed = await repo.countBy({ runId, step });
      if (removed === 0) return 0;
      await repo.delete({ runId, step });
      await addToTrajectoryTotal(tx.em, run, -removed);
      return removed;
    });
  }
}
