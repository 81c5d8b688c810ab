// Every SQL statement on training_runs, with the queries over their status transitions and task
// inputs. Reads go through RunsRepo (the read connection); writes are functions that take the
// write transaction's EntityManager, so callers keep their own transaction and write guard.
import { In, type DataSource, type EntityManager } from 'typeorm';

import type { DbKind } from '../db/data-source';
import {
  RunActivityEntity,
  RunCostEntity,
  RunSummaryEntity,
  RunTagEntity,
  StatusTransitionEntity,
  TaskInputEntity,
  TrainingRunEntity,
  type RunActivityRow,
  type RunSummaryRow,
  type RunTagRow,
  type StatusTransitionRow,
  type TaskInputRow,
  type TrainingRunRow,
} from '../db/entities';
import { keysetPage, type Page, type PageWindow } from '../db/keyset';
import { rowReader, SqlParams, type RowReader } from '../db/rows';
import { toStoredDate } from '../db/timestamps';
import type { QueryNode } from '../domain/run-query';
import { ACTIVE_STATUSES, FINAL_STATUSES, type TrainingStatus } from '../domain/status-machine';
import { EMPTY_METRICS, type TrainingMetrics } from '../domain/training-metrics';
import type { RunStatusEvent } from '../events/topics';
import { RunQueryCompiler } from './run-query-sql';
import { metricsFromJson, metricsToJson } from './run.model';

const FINAL = [...FINAL_STATUSES];
const ACTIVE = [...ACTIVE_STATUSES];

export interface RunFilter {
  status?: TrainingStatus[] | null;
  projectName?: string | null;
  /** The caller's project scope (ProjectScope.projectNames): only these projects; null or absent: every one. */
  projectNames?: readonly string[] | null;
  modelName?: string | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
  /** Case-insensitive substring of taskDescription. */
  taskDescriptionContains?: string | null;
  /** Range on the latest avgReward (inclusive). */
  avgRewardMin?: number | null;
  avgRewardMax?: number | null;
  /** A parsed search query (domain/run-query.ts). */
  query?: QueryNode | null;
}

/** Which stored transitions a replay reads: of one run, of one project, of the caller's projects (null: all). */
export interface StatusEventScope {
  runId?: number | null;
  projectName?: string | null;
  projectNames?: readonly string[] | null;
}

export type RunOrderField = 'createdAt' | 'avgReward' | 'metric';
export interface RunOrder {
  field: RunOrderField;
  desc: boolean;
  /** For 'metric': the summary name, e.g. `val/reward`; runs are ordered by its last value. */
  metric?: string;
}

const SORT_EXPR: Record<Exclude<RunOrderField, 'metric'>, { expr: string; nullable: boolean }> = {
  createdAt: { expr: 'r.created_at', nullable: false },
  avgReward: { expr: 'r.avg_reward', nullable: true },
};

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export class RunsRepo {
  private readonly runs: RowReader<TrainingRunRow>;
  // The runs list's loaders read these for every page (plain SQL: TypeORM's find cost more than the statements).
  private readonly tagRows: RowReader<RunTagRow>;
  private readonly summaryRows: RowReader<RunSummaryRow>;
  private readonly activityRows: RowReader<RunActivityRow>;

  constructor(
    private readonly ds: DataSource,
    private readonly kind: DbKind,
  ) {
    this.runs = rowReader(ds, kind, TrainingRunEntity);
    this.tagRows = rowReader(ds, kind, RunTagEntity);
    this.summaryRows = rowReader(ds, kind, RunSummaryEntity);
    this.activityRows = rowReader(ds, kind, RunActivityEntity);
  }

  /** The filter's conditions on alias `r`. */
  private where(filter: RunFilter): (p: SqlParams) => string[] {
    return (p) => {
      const c: string[] = [];
      if (filter.status?.length) c.push(`r.status IN (${p.list(filter.status)})`);
      if (filter.projectName != null) c.push(`r.project_name = ${p.add(filter.projectName)}`);
      if (filter.projectNames != null)
        c.push(filter.projectNames.length ? `r.project_name IN (${p.list(filter.projectNames)})` : '1 = 0');
      if (filter.modelName != null) c.push(`r.model_name = ${p.add(filter.modelName)}`);
      if (filter.createdAfter) c.push(`r.created_at > ${p.add(toStoredDate(filter.createdAfter))}`);
      if (filter.createdBefore) c.push(`r.created_at < ${p.add(toStoredDate(filter.createdBefore))}`);
      if (filter.taskDescriptionContains) {
        const like = this.kind === 'postgres' ? 'ILIKE' : 'LIKE';
        c.push(`r.task_description ${like} ${p.add(`%${escapeLike(filter.taskDescriptionContains)}%`)} ESCAPE '\\'`);
      }
      if (filter.avgRewardMin != null) c.push(`r.avg_reward >= ${p.add(filter.avgRewardMin)}`);
      if (filter.avgRewardMax != null) c.push(`r.avg_reward <= ${p.add(filter.avgRewardMax)}`);
      if (filter.query) c.push(new RunQueryCompiler(this.kind, p).compile(filter.query));
      return c;
    };
  }

  /** A keyset page; with `properties`, only their columns are read (and id, always); each row with its sort value (`sortValue`: the metric's last value when ordered by one). */
  page(
    filter: RunFilter,
    order: RunOrder,
    window: PageWindow,
    properties?: readonly (keyof TrainingRunRow)[],
  ): Promise<Page<TrainingRunRow & { sortValue?: number | null }>> {
    if (order.field === 'metric') {
      // The metric's summary joined in: the non-null part reads IDX_run_summaries_name_last in order.
      const metric = order.metric ?? '';
      const where = this.where(filter);
      return keysetPage(
        {
          rows: this.runs,
          alias: 'r',
          from: (p) =>
            `${this.runs.table} r LEFT JOIN run_summaries ms ON ms.run_id = r.id AND ms.name = ${p.add(metric)}`,
          select: 'ms.last AS "sortValue"',
          where,
        },
        { expr: 'ms.last', nullable: true, idExpr: 'r.id', desc: order.desc },
        window,
      );
    }
    const sort = SORT_EXPR[order.field];
    return keysetPage(
      {
        rows: this.runs,
        alias: 'r',
        where: this.where(filter),
        properties: properties && [...new Set<string>(['id', ...properties])].sort(),
      },
      { ...sort, idExpr: 'r.id', desc: order.desc },
      window,
    );
  }

  count(filter: RunFilter): Promise<number> {
    const p = new SqlParams(this.kind);
    const where = this.where(filter)(p);
    return this.runs.count(
      `SELECT COUNT(1) AS n FROM ${this.runs.table} r${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`,
      p.values,
    );
  }

  async findByIds(ids: readonly number[]): Promise<TrainingRunRow[]> {
    if (ids.length === 0) return [];
    const p = new SqlParams(this.kind);
    return this.runs.all(
      `SELECT ${this.runs.columns('r')} FROM ${this.runs.table} r WHERE r.id IN (${p.list(ids)})`,
      p.values,
    );
  }

  findByUuid(uuid: string): Promise<TrainingRunRow | null> {
    return this.ds.getRepository(TrainingRunEntity).findOneBy({ uuid });
  }

  async transitionsForRuns(runIds: readonly number[]): Promise<StatusTransitionRow[]> {
    if (runIds.length === 0) return [];
    return this.ds
      .getRepository(StatusTransitionEntity)
      .find({ where: { runId: In([...runIds]) }, order: { id: 'ASC' } });
  }

  /**
   * How many runs are ahead of a PENDING pipeline run on its backend: the active ones and the older
   * PENDING ones. Null for a run that is not waiting.
   */
  async queuePosition(run: {
    id: number;
    status: string;
    mode: string;
    backend: string | null;
  }): Promise<number | null> {
    if (run.status !== 'pending' || run.mode !== 'pipeline') return null;
    const qb = this.ds
      .getRepository(TrainingRunEntity)
      .createQueryBuilder('r')
      .where("r.mode = 'pipeline' AND r.id <> :id", { id: run.id })
      .andWhere("(r.status IN (:...active) OR (r.status = 'pending' AND r.id < :id))", { id: run.id, active: ACTIVE });
    if (run.backend === null) qb.andWhere('r.backend IS NULL');
    else qb.andWhere('r.backend = :backend', { backend: run.backend });
    return qb.getCount();
  }

  /** Stored transitions after an event id, oldest first, for replay to a resuming subscriber. */
  async transitionsAfter(
    afterId: number,
    scope: StatusEventScope,
    limit: number,
  ): Promise<Array<StatusTransitionRow & { projectName: string }>> {
    const qb = this.ds
      .getRepository(StatusTransitionEntity)
      .createQueryBuilder('s')
      .innerJoin('TrainingRun', 'r', 'r.id = s.run_id')
      .select([
        's.id AS id',
        's.run_id AS "runId"',
        's.from_status AS "fromStatus"',
        's.to_status AS "toStatus"',
        's.at AS at',
        's.reason AS reason',
        'r.project_name AS "projectName"',
      ])
      .where('s.id > :afterId', { afterId });
    if (scope.runId != null) qb.andWhere('s.run_id = :runId', { runId: scope.runId });
    if (scope.projectName != null) qb.andWhere('r.project_name = :projectName', { projectName: scope.projectName });
    if (scope.projectNames != null) {
      if (scope.projectNames.length)
        qb.andWhere('r.project_name IN (:...projectNames)', { projectNames: [...scope.projectNames] });
      else qb.andWhere('1 = 0');
    }
    const rows: Array<StatusTransitionRow & { projectName: string }> = await qb
      .orderBy('s.id', 'ASC')
      .limit(limit)
      .getRawMany();
    return rows.map((r) => ({ ...r, id: Number(r.id), runId: Number(r.runId) }));
  }

  /**
   * Pipeline runs that may need a driver: every active one (oldest first) and the oldest PENDING ones.
   * Which of them are free to take is decided by the lease claim, not here.
   */
  async pipelineCandidates(pendingLimit: number): Promise<{ active: TrainingRunRow[]; pending: TrainingRunRow[] }> {
    const repo = this.ds.getRepository(TrainingRunEntity);
    const active = await repo.find({ where: { mode: 'pipeline', status: In(ACTIVE) }, order: { id: 'ASC' } });
    const pending = await repo.find({
      where: { mode: 'pipeline', status: 'pending' },
      order: { id: 'ASC' },
      take: pendingLimit,
    });
    return { active, pending };
  }

  /** Stored transitions after an event id as the events that were published for them, oldest first. */
  async statusEventsAfter(afterId: number, scope: StatusEventScope, limit: number): Promise<RunStatusEvent[]> {
    return (await this.transitionsAfter(afterId, scope, limit)).map((r) => ({
      eventId: r.id,
      runId: r.runId,
      projectName: r.projectName,
      from: r.fromStatus,
      to: r.toStatus,
      at: r.at,
      reason: r.reason,
    }));
  }

  /** The newest transition's id, 0 when there is none. */
  async latestTransitionId(): Promise<number> {
    const row: { id: number | string | null } | undefined = await this.ds
      .getRepository(StatusTransitionEntity)
      .createQueryBuilder('s')
      .select('MAX(s.id)', 'id')
      .getRawOne();
    return Number(row?.id ?? 0);
  }

  async summariesForRuns(runIds: readonly number[]): Promise<RunSummaryRow[]> {
    if (runIds.length === 0) return [];
    const p = new SqlParams(this.kind);
    const rows = this.summaryRows;
    return rows.all(
      `SELECT ${rows.columns('s')} FROM ${rows.table} s WHERE s.run_id IN (${p.list(runIds)}) ORDER BY s.run_id, s.name`,
      p.values,
    );
  }

  /** Each run's costs summed per name, with how many steps reported each. */
  async costTotals(
    runIds: readonly number[],
  ): Promise<Array<{ runId: number; name: string; total: number; steps: number }>> {
    if (runIds.length === 0) return [];
    const p = new SqlParams(this.kind);
    // Atelier's own (run_costs) and the `costs/…` values a script logged with its history, as ART
    // logs them (its cumulative `costs/cum/…` are running totals already, so they are not summed).
    const ids = p.list(runIds);
    const more = p.list(runIds);
    const rows: Array<{ run_id: unknown; name: string; total: unknown; steps: unknown }> = await this.ds.query(
      `SELECT run_id, name, SUM(value) AS total, COUNT(1) AS steps FROM (
         SELECT run_id, name, value FROM run_costs WHERE run_id IN (${ids})
         UNION ALL
         SELECT run_id, name, value FROM metric_values WHERE run_id IN (${more}) AND name LIKE 'costs/%' AND name NOT LIKE 'costs/cum/%'
       ) c GROUP BY run_id, name ORDER BY run_id, name`,
      p.values,
    );
    return rows.map((r) => ({ runId: Number(r.run_id), name: r.name, total: Number(r.total), steps: Number(r.steps) }));
  }

  async tagsForRuns(runIds: readonly number[]): Promise<RunTagRow[]> {
    if (runIds.length === 0) return [];
    const p = new SqlParams(this.kind);
    const rows = this.tagRows;
    return rows.all(
      `SELECT ${rows.columns('t')} FROM ${rows.table} t WHERE t.run_id IN (${p.list(runIds)}) ORDER BY t.run_id, t.tag`,
      p.values,
    );
  }

  /** The activity rows of these runs (runs that never had rows have none). */
  async activityForRuns(runIds: readonly number[]): Promise<RunActivityRow[]> {
    if (runIds.length === 0) return [];
    const p = new SqlParams(this.kind);
    const rows = this.activityRows;
    return rows.all(`SELECT ${rows.columns('a')} FROM ${rows.table} a WHERE a.run_id IN (${p.list(runIds)})`, p.values);
  }

  async taskInputsForRuns(runIds: readonly number[]): Promise<TaskInputRow[]> {
    if (runIds.length === 0) return [];
    return this.ds
      .getRepository(TaskInputEntity)
      .find({ where: { runId: In([...runIds]) }, order: { runId: 'ASC', position: 'ASC' } });
  }
}

// ---- writes, inside a write transaction ----

/** Reads a run inside a write transaction, locking its row on PostgreSQL so transitions of one run serialize. */
export async function lockRun(em: EntityManager, kind: DbKind, id: number): Promise<TrainingRunRow | null> {
  const qb = em.getRepository(TrainingRunEntity).createQueryBuilder('r').where('r.id = :id', { id });
  if (kind === 'postgres') qb.setLock('pessimistic_write');
  return qb.getOne();
}

export function uuidTaken(em: EntityManager, uuid: string): Promise<boolean> {
  return em.getRepository(TrainingRunEntity).existsBy({ uuid });
}

export async function insertRun(em: EntityManager, row: Omit<TrainingRunRow, 'id'>): Promise<TrainingRunRow> {
  const runs = em.getRepository(TrainingRunEntity);
  return runs.save(runs.create(row));
}

export type RunChanges = Partial<Omit<TrainingRunRow, 'id' | 'uuid' | 'metrics' | 'avgReward'>>;

export async function updateRun(em: EntityManager, id: number, changes: RunChanges): Promise<void> {
  if (Object.keys(changes).length > 0) await em.getRepository(TrainingRunEntity).update({ id }, changes);
}

/** Adds each value to the run's cost of that name at that step. */
export async function addCosts(
  em: EntityManager,
  runId: number,
  step: number,
  entries: Array<[string, number]>,
): Promise<void> {
  const repo = em.getRepository(RunCostEntity);
  for (const [name, value] of entries) {
    const row = await repo.findOneBy({ runId, step, name });
    if (row) await repo.update({ id: row.id }, { value: row.value + value });
    else await repo.insert({ runId, step, name, value });
  }
}

/** Sets a run's tags to exactly these. */
export async function replaceTags(em: EntityManager, runId: number, tags: readonly string[]): Promise<void> {
  const repo = em.getRepository(RunTagEntity);
  await repo.delete({ runId });
  if (tags.length) await repo.insert(tags.map((tag) => ({ runId, tag })));
}

export async function deleteRun(em: EntityManager, id: number): Promise<void> {
  await em.getRepository(TrainingRunEntity).delete({ id });
}

/** Writes the run's `metrics` snapshot (the seed's JSON) and the avg_reward column ordering and filters read. */
export async function writeMetricsSnapshot(em: EntityManager, runId: number, snapshot: TrainingMetrics): Promise<void> {
  await em
    .getRepository(TrainingRunEntity)
    .update({ id: runId }, { metrics: metricsToJson(snapshot), avgReward: snapshot.avgReward });
}

/** Adds to the snapshot's trajectory total (negative: trajectories removed); a run without a snapshot gets one when adding. */
export async function addToTrajectoryTotal(em: EntityManager, run: TrainingRunRow, delta: number): Promise<void> {
  const stored = metricsFromJson(run.metrics);
  if (!stored && delta < 0) return;
  const metrics = stored ?? { ...EMPTY_METRICS };
  metrics.totalTrajectories = Math.max(0, metrics.totalTrajectories + delta);
  run.metrics = metricsToJson(metrics);
  await em.getRepository(TrainingRunEntity).update({ id: run.id }, { metrics: run.metrics });
}

// ---- leases: exactly one instance drives a pipeline run (see pipeline/leases.ts) ----

export interface LeaseClaim {
  runId: number;
  backend: string;
  owner: string;
  expiresAt: Date;
  now: Date;
}

/**
 * Claims a run in one conditional UPDATE, atomic on SQLite and PostgreSQL alike: the run is free (no
 * lease, an expired one, or ours), nobody else drives a run of its backend, and a PENDING run waits
 * for every active run of its backend and for older PENDING ones. True when this claim took it.
 */
export async function claimLease(em: EntityManager, c: LeaseClaim): Promise<boolean> {
  const now = toStoredDate(c.now);
  const result = await em
    .createQueryBuilder()
    .update(TrainingRunEntity)
    .set({ leaseOwner: c.owner, leaseExpiresAt: toStoredDate(c.expiresAt), backend: c.backend })
    .where(`id = :runId AND mode = 'pipeline' AND status NOT IN (:...final)`, { runId: c.runId, final: FINAL })
    .andWhere('(lease_owner IS NULL OR lease_expires_at < :now OR lease_owner = :owner)', { now, owner: c.owner })
    .andWhere(
      `NOT EXISTS (SELECT 1 FROM training_runs o WHERE o.backend = :backend AND o.id <> :runId AND o.status NOT IN (:...final) AND o.lease_owner IS NOT NULL AND o.lease_expires_at >= :now)`,
      { backend: c.backend },
    )
    .andWhere(
      `(status <> 'pending' OR NOT EXISTS (SELECT 1 FROM training_runs o WHERE o.backend = :backend AND o.mode = 'pipeline' AND o.id <> :runId AND (o.status IN (:...active) OR (o.status = 'pending' AND o.id < :runId))))`,
      { active: ACTIVE },
    )
    .execute();
  return (result.affected ?? 0) === 1;
}

/** Extends a lease its owner holds; false when it was lost (expired and taken) or the run has ended. */
export async function renewLease(em: EntityManager, runId: number, owner: string, expiresAt: Date): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .update(TrainingRunEntity)
    .set({ leaseExpiresAt: toStoredDate(expiresAt) })
    .where(`id = :runId AND lease_owner = :owner AND status NOT IN (:...final)`, { runId, owner, final: FINAL })
    .execute();
  return (result.affected ?? 0) === 1;
}

/** Gives a lease back (graceful shutdown, or the run ended). */
export async function releaseLease(em: EntityManager, runId: number, owner: string): Promise<void> {
  await em
    .createQueryBuilder()
    .update(TrainingRunEntity)
    .set({ leaseOwner: null, leaseExpiresAt: null })
    .where('id = :runId AND lease_owner = :owner', { runId, owner })
    .execute();
}

/** Voids every lease (SQLite at start: the file's one process died, so nobody holds them). */
export async function voidLeases(em: EntityManager): Promise<void> {
  await em
    .createQueryBuilder()
    .update(TrainingRunEntity)
    .set({ leaseOwner: null, leaseExpiresAt: null })
    .where('lease_owner IS NOT NULL')
    .execute();
}

// ---- stalled TRACKED runs (stall-monitor.ts) ----

const FINAL_LIST = [...FINAL_STATUSES];

/** TRACKED runs not finished, not yet marked stalled, silent since before `cutoff` (last rows, else start). */
export async function silentTrackedRuns(
  reader: DataSource,
  kind: DbKind,
  cutoff: string,
  limit: number,
): Promise<Array<{ id: number | string; project_name: string; last: string; known: unknown }>> {
  // SQLite's ? are bound in the order they appear in the text: the finals come first there.
  const ph = (i: number) => (kind === 'postgres' ? `$${i}` : '?');
  const finals = FINAL_LIST.map((_, i) => ph(i + 1)).join(', ');
  const last = ph(FINAL_LIST.length + 1);
  return reader.query(
    `SELECT r.id, r.project_name, COALESCE(a.last_activity_at, r.started_at, r.created_at) AS last, a.run_id AS known
     FROM training_runs r LEFT JOIN run_activity a ON a.run_id = r.id
     WHERE r.mode = 'tracked' AND r.status NOT IN (${finals}) AND a.stalled_since IS NULL
       AND COALESCE(a.last_activity_at, r.started_at, r.created_at) < ${last}
     ORDER BY r.id LIMIT ${Math.trunc(limit)}`,
    [...FINAL_LIST, cutoff],
  );
}

/**
 * Marks the run stalled as of `at` if it still is silent, unmarked, TRACKED and not final: true only
 * for the one caller (of any process) whose UPDATE changed the row.
 */
export async function markStalled(em: EntityManager, runId: number, cutoff: string, at: string): Promise<boolean> {
  const marked = await em
    .getRepository(RunActivityEntity)
    .createQueryBuilder()
    .update()
    .set({ stalledSince: at })
    .where(
      `run_id = :runId AND stalled_since IS NULL AND last_activity_at < :cutoff AND EXISTS (SELECT 1 FROM training_runs r WHERE r.id = :runId AND r.mode = 'tracked' AND r.status NOT IN (:...finals))`,
      { runId, cutoff, finals: FINAL_LIST },
    )
    .execute();
  return (marked.affected ?? 0) > 0;
}
