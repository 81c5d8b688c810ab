// Records trajectories reported by a training script or collected by the pipeline: a batch is
// stored whole or not at all, and is idempotent by uuid (a batch sent twice is stored once).
// Reads hand out Trajectory models, except the pipeline's working set (raw choices included).
import { randomUUID } from 'node:crypto';

import { Between, In, type EntityManager } from 'typeorm';

import type { Database } from '../db/data-source';
import {
  TrajectoryArtEntity,
  TrajectoryEntity,
  TrajectoryGroupEntity,
  type TrainingRunRow,
  type TrajectoryGroupRow,
  type TrajectoryRow,
} from '../db/entities';
import { parseJsonObject } from '../db/json';
import type { Page, PageWindow, Positioned } from '../db/keyset';
import { nowStored } from '../db/timestamps';
import type { WriteTx } from '../db/write-queue';
import { checkArtGroups, type ArtGroupInput, type JsonObject } from '../domain/art-trajectory';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { EventBus } from '../events/event-bus';
import { markActivity } from '../runs/run-activity';
import { lockGuarded, type WriteGuard } from '../runs/write-guard';
import { artGroupRows, derivedUuid } from './art-rows';
import { MAX_TRAJECTORIES_PER_CALL } from './limits';
import { prepareGroups, type PreparedGroups, type PrepareInput } from './prepare-groups';
import { refreshStepStats } from './step-stats';
import {
  insertTrajectories,
  insertTrajectoryArt,
  insertTrajectoryGroups,
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

export type { PreparedGroups };

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

export interface RecordGroupsOptions extends RecordOptions {
  /** Replace what this (split, step) holds, as a second `model.log` of it overwrites ART's file. */
  replace?: boolean;
  /** The pipeline: trajectories still to be scored (or failed) are stored with no reward (the ART JSON keeps its own). */
  pendingReward?: (trajectory: JsonObject) => boolean;
  /** More writes of the caller's (an import's file state), in the same transaction, after the groups' (a no-op retry included). */
  alsoWrite?: (em: EntityManager, run: TrainingRunRow) => Promise<void>;
  /** The argument the groups came in, as error paths name it (`groups` by default; the bulk door's `groupsJson`). */
  field?: string;
}

export type RecordGroupsInput = PrepareInput;

export interface RecordGroupsResult extends RecordTrajectoriesResult {
  /** How many stored trajectories of this (split, step) a replace removed. */
  replaced: number;
}

/** What one recordGroups adds to its transaction's deferred step statistics. */
interface StepPart {
  split: string;
  step: number;
  totalDelta: number;
}

export { MAX_TRAJECTORIES_PER_CALL };
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

async function artByIds(em: EntityManager, ids: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let i = 0; i < ids.length; i += LOOKUP_CHUNK)
    for (const r of await em
      .getRepository(TrajectoryArtEntity)
      .findBy({ trajectoryId: In(ids.slice(i, i + LOOKUP_CHUNK)) }))
      out.set(r.trajectoryId, r.art);
  return out;
}

async function deleteGroupRows(em: EntityManager, trajectoryIds: number[], groupIds: number[]): Promise<void> {
  for (let i = 0; i < trajectoryIds.length; i += LOOKUP_CHUNK) {
    const chunk = trajectoryIds.slice(i, i + LOOKUP_CHUNK);
    await em.getRepository(TrajectoryArtEntity).delete({ trajectoryId: In(chunk) });
    await em.getRepository(TrajectoryEntity).delete({ id: In(chunk) });
  }
  if (groupIds.length) await em.getRepository(TrajectoryGroupEntity).delete({ id: In(groupIds) });
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

  /** An upper bound of pageContentChars, cheaper to compute. */
  pageStoredChars(
    runId: number,
    filter: TrajectoryFilter,
    order: TrajectoryOrder,
    window: PageWindow,
  ): Promise<number> {
    return this.repo.pageStoredChars(runId, filter, order, window);
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

  /** A step's train trajectories as stored, raw choices included: the pipeline's working set, not a model. */
  forStep(runId: number, step: number, split = 'train'): Promise<TrajectoryRow[]> {
    return this.repo.forStep(runId, step, split);
  }

  /** The trajectories of a split and step whose ART group index is in [from, to] (an evaluation's). */
  inGroups(runId: number, split: string, step: number, from: number, to: number): Promise<TrajectoryRow[]> {
    return this.repo.inGroups(runId, split, step, from, to);
  }

  /** ART JSON of these trajectories where it was recorded as such, by id. */
  artOf(ids: readonly number[]): Promise<Map<number, string>> {
    return this.repo.artOf(ids);
  }

  /** The ART groups of these ids, by id. */
  groupsOf(ids: readonly number[]): Promise<Map<number, TrajectoryGroupRow>> {
    return this.repo.groupsOf(ids);
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
      split: 'train',
      groupId: null,
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
        await refreshStepStats(
          tx.em,
          run,
          fresh.map((r) => ({ split: r.split, step: r.step! })),
          { totalDelta: fresh.length },
        );
        const steps = new Set(fresh.map((r) => r.step));
        const step = steps.size === 1 ? [...steps][0] : null;
        await markActivity(tx, run, this.events);
        tx.afterCommit(() =>
          this.events.publish('trajectoriesRecorded', { runId, step, count: fresh.length, trajectoryIds: ids }),
        );
      }
      return { recorded: fresh.length, duplicateUuids, uuids: rows.map((r) => r.uuid) };
    });
  }

  /**
   * Stores one log of ART groups (what `model.log(groups, split=, step=)` logs): all or nothing. A
   * retry is a no-op (each trajectory's identity derives from run, split, step, group index and
   * position); the same identity with other content is a ConflictError unless `replace` is set.
   * The (split, step)'s history point gets its reward statistics, as ART's history row does.
   */
  async recordGroups(
    runId: number,
    step: number,
    split: string,
    input: RecordGroupsInput[] | PreparedGroups,
    options: RecordGroupsOptions = {},
  ): Promise<RecordGroupsResult> {
    // Groups the caller prepared (an import's decode thread) come with their checks done and rows built.
    const prepared = 'prepared' in input ? input : prepareGroups(step, split, input, { field: options.field });
    if (prepared.step !== step || prepared.split !== split)
      throw new Error(`prepared groups of ${prepared.split} step ${prepared.step} recorded as ${split} step ${step}`);
    const { checked, field } = prepared;
    return this.db.writes.run(async (tx) => {
      const run = await lockGuarded(tx.em, this.db.kind, runId, options.guard);
      const reuse = prepared.built?.runUuid === run.uuid && prepared.built.pendingReward === options.pendingReward;
      if (!reuse && !checked)
        throw new Error(`groups prepared for run ${prepared.built?.runUuid} recorded into run ${run.uuid}`);
      const built = reuse ? prepared.built!.rows : artGroupRows(run.uuid, split, step, checked!, options.pendingReward);
      const groupRepo = tx.em.getRepository(TrajectoryGroupEntity);
      const storedGroups = await groupRepo.findBy({ runId, split, step });
      const storedByIndex = new Map(storedGroups.map((g) => [g.groupIndex, g]));
      const storedRows = storedGroups.length
        ? await tx.em.getRepository(TrajectoryEntity).findBy({ groupId: In(storedGroups.map((g) => g.id)) })
        : [];
      const storedArt = await artByIds(
        tx.em,
        storedRows.map((r) => r.id),
      );
      const storedByUuid = new Map(storedRows.map((r) => [r.uuid, r]));
      const countsByGroup = new Map<number, number>();
      for (const r of storedRows) countsByGroup.set(r.groupId!, (countsByGroup.get(r.groupId!) ?? 0) + 1);

      // What differs from what is stored, path by path.
      const differences: string[] = [];
      built.forEach((g, gi) => {
        const old = storedByIndex.get(g.groupIndex);
        if (!old) return;
        if (old.art !== g.art) differences.push(`${field}.${gi}`);
        if ((countsByGroup.get(old.id) ?? 0) !== g.trajectories.length) differences.push(`${field}.${gi}.trajectories`);
        g.trajectories.forEach((t, ti) => {
          const row = storedByUuid.get(t.uuid);
          if (row && storedArt.get(row.id) !== t.art) differences.push(`${field}.${gi}.trajectories.${ti}`);
        });
      });
      const sameSet = storedGroups.length === built.length && built.every((g) => storedByIndex.has(g.groupIndex));
      const uuids = built.flatMap((g) => g.trajectories.map((t) => t.uuid));

      let replaced = 0;
      let fresh = built;
      if (options.replace) {
        if (differences.length === 0 && sameSet) {
          await options.alsoWrite?.(tx.em, run);
          return { recorded: 0, duplicateUuids: uuids, uuids, replaced: 0 };
        }
        replaced = storedRows.length;
        await deleteGroupRows(
          tx.em,
          storedRows.map((r) => r.id),
          storedGroups.map((g) => g.id),
        );
      } else {
        if (differences.length > 0)
          throw new ConflictError(
            `${differences.slice(0, 5).join(', ')}: ${split} step ${step} already holds different ART data under the same group index; recorded trajectories are never overwritten (send replace: true to replace this split and step, as a second model.log of it does)`,
          );
        fresh = built.filter((g) => !storedByIndex.has(g.groupIndex));
      }

      // The step's new groups, then all their trajectories, then their ART JSON: one multi-row insert
      // per table (chunked under the databases' parameter limits), inside this one transaction.
      const now = nowStored();
      const groupIds = await insertTrajectoryGroups(
        tx.em,
        this.db.kind,
        fresh.map((g) => ({ runId, split, step, groupIndex: g.groupIndex, art: g.art, createdAt: now })),
      );
      const members = fresh.flatMap((g) => g.trajectories.map((t) => ({ t, groupId: groupIds.get(g.groupIndex)! })));
      const ids = members.length
        ? await insertTrajectories(
            tx.em,
            this.db.kind,
            members.map(({ t, groupId }) => ({
              uuid: t.uuid,
              runId,
              taskInput: t.taskInput,
              messages: t.messages,
              reward: t.reward,
              metadata: t.metadata,
              createdAt: now,
              step,
              choice: null,
              split,
              groupId,
            })),
          )
        : [];
      await insertTrajectoryArt(
        tx.em,
        this.db.kind,
        ids.map((id, i) => ({ trajectoryId: id, art: members[i].t.art })),
      );
      const recorded = ids.length;
      // The step's statistics, the run's summaries and snapshot, its activity: once per transaction,
      // so an import request's files (a batch) refresh them once, not once a file.
      tx.defer<StepPart>(`step-stats:${runId}`, { split, step, totalDelta: recorded - replaced }, (t, parts) =>
        this.flushStepStats(t, runId, options.guard, parts),
      );
      await options.alsoWrite?.(tx.em, run);
      if (recorded > 0) {
        tx.defer(`activity:${runId}`, run, (t, [first]) => markActivity(t, first, this.events));
        tx.afterCommit(() =>
          this.events.publish('trajectoriesRecorded', { runId, step, count: recorded, trajectoryIds: ids }),
        );
      }
      const freshUuids = new Set(fresh.flatMap((g) => g.trajectories.map((t) => t.uuid)));
      return { recorded, duplicateUuids: uuids.filter((u) => !freshUuids.has(u)), uuids, replaced };
    });
  }

  /** The deferred statistics of the steps a transaction's recordGroups wrote (see WriteTx.defer). */
  private async flushStepStats(tx: WriteTx, runId: number, guard: WriteGuard | undefined, parts: StepPart[]) {
    const run = await lockGuarded(tx.em, this.db.kind, runId, guard);
    const totalDelta = parts.reduce((n, p) => n + p.totalDelta, 0);
    await refreshStepStats(tx.em, run, parts, { create: true, totalDelta });
  }

  /**
   * Stores one finished trajectory of an ART group still being played, in its own transaction: the
   * group's row is created (empty until finaliseGroup) when it is the first, and subscribers learn it
   * after commit. Its identity derives from run, split, step, group index and position, so a retry is a
   * no-op and the same identity with other content is a ConflictError. Until its group is finalised it
   * carries only its own metadata; readers of complete groups (RULER, training) run after finalisation.
   */
  async appendToGroup(
    runId: number,
    step: number,
    split: string,
    groupIndex: number,
    position: number,
    trajectory: ArtGroupInput['trajectories'][number],
    options: Pick<RecordGroupsOptions, 'guard' | 'pendingReward'> = {},
  ): Promise<{ recorded: number; uuid: string }> {
    const [checked] = checkArtGroups([{ trajectories: [trajectory] }], `groups.${groupIndex}`);
    return this.db.writes.run(async (tx) => {
      const run = await lockGuarded(tx.em, this.db.kind, runId, options.guard);
      const [built] = artGroupRows(run.uuid, split, step, [{ ...checked, index: groupIndex }], options.pendingReward);
      const row = built.trajectories[0];
      const uuid = derivedUuid('atelier-art-trajectory', run.uuid, split, step, groupIndex, position);
      const groupRepo = tx.em.getRepository(TrajectoryGroupEntity);
      let group = await groupRepo.findOneBy({ runId, split, step, groupIndex });
      const old = await tx.em.getRepository(TrajectoryEntity).findOneBy({ uuid });
      if (old) {
        if (group && old.groupId === group.id && (await artByIds(tx.em, [old.id])).get(old.id) === row.art)
          return { recorded: 0, uuid };
        throw new ConflictError(
          `groups.${groupIndex}.trajectories.${position}: ${split} step ${step} already holds a different trajectory under this identity; recorded trajectories are never overwritten`,
        );
      }
      const stored = group ? await tx.em.getRepository(TrajectoryEntity).countBy({ groupId: group.id }) : 0;
      if (stored !== position)
        throw new ConflictError(
          `groups.${groupIndex}.trajectories.${position}: the group holds ${stored} trajectories; they are appended in position order`,
        );
      const now = nowStored();
      if (!group) {
        const ids = await insertTrajectoryGroups(tx.em, this.db.kind, [
          { runId, split, step, groupIndex, art: JSON.stringify(checked.group), createdAt: now },
        ]);
        group = {
          id: ids.get(groupIndex)!,
          runId,
          split,
          step,
          groupIndex,
          art: JSON.stringify(checked.group),
          createdAt: now,
        };
      }
      const ids = await insertTrajectories(tx.em, this.db.kind, [
        {
          uuid,
          runId,
          taskInput: row.taskInput,
          messages: row.messages,
          reward: row.reward,
          metadata: row.metadata,
          createdAt: now,
          step,
          choice: null,
          split,
          groupId: group.id,
        },
      ]);
      await insertTrajectoryArt(tx.em, this.db.kind, [{ trajectoryId: ids[0], art: row.art }]);
      await refreshStepStats(tx.em, run, [{ split, step }], { create: true, totalDelta: 1 });
      await markActivity(tx, run, this.events);
      tx.afterCommit(() => this.events.publish('trajectoriesRecorded', { runId, step, count: 1, trajectoryIds: ids }));
      return { recorded: 1, uuid };
    });
  }

  /**
   * Completes a group whose trajectories were appended one by one (appendToGroup): in one transaction the
   * group's ART JSON (metadata, exceptions) is written and each trajectory takes its final content (what
   * only the whole group tells, as a dropped group's reason). The stored trajectories must be exactly the
   * group's, position by position; nothing new is announced (each was as it arrived). A group with no
   * appended trajectory is recorded whole (recordGroups).
   */
  async finaliseGroup(
    runId: number,
    step: number,
    split: string,
    input: RecordGroupsInput & { index: number },
    options: Pick<RecordGroupsOptions, 'guard' | 'pendingReward'> = {},
  ): Promise<void> {
    const [checked] = checkArtGroups([input]);
    const appended = await this.db.writes.run(async (tx) => {
      const run = await lockGuarded(tx.em, this.db.kind, runId, options.guard);
      const [built] = artGroupRows(run.uuid, split, step, [{ ...checked, index: input.index }], options.pendingReward);
      const group = await tx.em
        .getRepository(TrajectoryGroupEntity)
        .findOneBy({ runId, split, step, groupIndex: input.index });
      if (!group) return false;
      const repo = tx.em.getRepository(TrajectoryEntity);
      const rows = await repo.findBy({ groupId: group.id });
      const byUuid = new Map(rows.map((r) => [r.uuid, r]));
      if (rows.length !== built.trajectories.length || built.trajectories.some((t) => !byUuid.has(t.uuid)))
        throw new ConflictError(
          `groups.${input.index}: ${split} step ${step} holds ${rows.length} trajectories of this group, not the ${built.trajectories.length} it finishes with`,
        );
      await tx.em.getRepository(TrajectoryGroupEntity).update({ id: group.id }, { art: built.art });
      const art = await artByIds(
        tx.em,
        rows.map((r) => r.id),
      );
      for (const t of built.trajectories) {
        const row = byUuid.get(t.uuid)!;
        if (art.get(row.id) === t.art && row.metadata === t.metadata && row.reward === t.reward) continue;
        await repo.update(
          { id: row.id },
          { taskInput: t.taskInput, messages: t.messages, reward: t.reward, metadata: t.metadata },
        );
        await tx.em.getRepository(TrajectoryArtEntity).update({ trajectoryId: row.id }, { art: t.art });
      }
      await refreshStepStats(tx.em, run, [{ split, step }]);
      return true;
    });
    if (!appended) await this.recordGroups(runId, step, split, [input], options);
  }

  /** Sets rewards (RULER's scores) on a run's trajectories in one transaction, while the guard holds; subscribers learn it after commit. */
  async applyScores(runId: number, updates: ScoreUpdate[], guard: WriteGuard): Promise<void> {
    await this.db.writes.run(async (tx) => {
      const run = await lockGuarded(tx.em, this.db.kind, runId, guard);
      const repo = tx.em.getRepository(TrajectoryEntity);
      const steps = new Set<number | null>();
      /** The (split, step)s touched, as `split\u0000step`: a val or eval log's history point follows its scores too. */
      const splitSteps = new Set<string>();
      for (const u of updates) {
        const row = await repo.findOneBy({ id: u.id, runId });
        if (!row) throw new NotFoundError('Trajectory', String(u.id));
        const metadata = { ...parseJsonObject(row.metadata), ...u.metadata };
        await repo.update({ id: u.id }, { reward: u.reward, metadata: JSON.stringify(metadata) });
        steps.add(row.step);
        if (row.step !== null) splitSteps.add(`${row.split}\u0000${row.step}`);
        // A trajectory stored as ART data carries the score in its ART JSON too, as ART's own dump would.
        if (row.groupId !== null && u.reward !== null) {
          const art = await tx.em.getRepository(TrajectoryArtEntity).findOneBy({ trajectoryId: u.id });
          if (art) {
            const json = JSON.parse(art.art) as JsonObject;
            json.reward = u.reward;
            await tx.em
              .getRepository(TrajectoryArtEntity)
              .update({ trajectoryId: u.id }, { art: JSON.stringify(json) });
          }
        }
      }
      if (updates.length === 0) return;
      await refreshStepSplits(tx.em, run, splitSteps);
      const step = steps.size === 1 ? [...steps][0] : null;
      const trajectoryIds = updates.map((u) => u.id).sort((a, b) => a - b);
      tx.afterCommit(() => this.events.publish('trajectoriesScored', { runId, step, trajectoryIds }));
    });
  }

  /**
   * Removes the trajectories of an interrupted pipeline step (or validation: split `val`) so it can be
   * redone cleanly; with `groupIndexes`, only those of the ART groups with an index in that range (an
   * interrupted evaluation's).
   */
  async deleteStep(
    runId: number,
    step: number,
    guard: WriteGuard,
    split = 'train',
    groupIndexes?: { from: number; to: number },
  ): Promise<number> {
    return this.db.writes.run(async (tx) => {
      const run = await lockGuarded(tx.em, this.db.kind, runId, guard);
      const repo = tx.em.getRepository(TrajectoryEntity);
      const groups = await tx.em.getRepository(TrajectoryGroupEntity).findBy({
        runId,
        split,
        step,
        ...(groupIndexes ? { groupIndex: Between(groupIndexes.from, groupIndexes.to) } : {}),
      });
      const rows = groupIndexes
        ? groups.length
          ? await repo.find({ select: { id: true }, where: { runId, groupId: In(groups.map((g) => g.id)) } })
          : []
        : await repo.find({ select: { id: true }, where: { runId, step, split } });
      const removed = rows.length;
      if (removed === 0 && groups.length === 0) return 0;
      await deleteGroupRows(
        tx.em,
        rows.map((r) => r.id),
        groups.map((g) => g.id),
      );
      await refreshStepStats(tx.em, run, [{ split, step }], { totalDelta: -removed });
      return removed;
    });
  }
}

/** Refreshes the history points of these (split, step)s, given as `split\u0000step`. */
async function refreshStepSplits(em: EntityManager, run: TrainingRunRow, keys: Set<string>): Promise<void> {
  const pairs = [...keys].map((k) => {
    const at = k.lastIndexOf('\u0000');
    return { split: k.slice(0, at), step: Number(k.slice(at + 1)) };
  });
  if (pairs.length) await refreshStepStats(em, run, pairs);
}
