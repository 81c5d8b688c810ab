// Queries over training runs, their status transitions and task inputs.
import { In, type DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { StatusTransitionEntity, TaskInputEntity, TrainingRunEntity, type StatusTransitionRow, type TaskInputRow, type TrainingRunRow } from '../db/entities';
import { toStoredDate } from '../db/timestamps';
import { keysetPage, type Page, type PageWindow } from '../db/keyset';
import type { TrainingStatus } from '../domain/status-machine';

export interface RunFilter {
  status?: TrainingStatus[] | null;
  projectName?: string | null;
  modelName?: string | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
  /** Case-insensitive substring of taskDescription. */
  taskDescriptionContains?: string | null;
  /** Range on the latest avgReward (inclusive). */
  avgRewardMin?: number | null;
  avgRewardMax?: number | null;
}

export type RunOrderField = 'createdAt' | 'avgReward';
export interface RunOrder {
  field: RunOrderField;
  desc: boolean;
}

const SORT_EXPR: Record<RunOrderField, { expr: string; nullable: boolean }> = {
  createdAt: { expr: 'r.created_at', nullable: false },
  avgReward: { expr: 'r.avg_reward', nullable: true },
};

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export class RunsRepo {
  constructor(
    private readonly ds: DataSource,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  private filtered(filter: RunFilter): SelectQueryBuilder<TrainingRunRow> {
    const qb = this.ds.getRepository(TrainingRunEntity).createQueryBuilder('r');
    if (filter.status?.length) qb.andWhere('r.status IN (:...statuses)', { statuses: filter.status });
    if (filter.projectName != null) qb.andWhere('r.project_name = :projectName', { projectName: filter.projectName });
    if (filter.modelName != null) qb.andWhere('r.model_name = :modelName', { modelName: filter.modelName });
    if (filter.createdAfter) qb.andWhere('r.created_at > :createdAfter', { createdAfter: toStoredDate(filter.createdAfter) });
    if (filter.createdBefore) qb.andWhere('r.created_at < :createdBefore', { createdBefore: toStoredDate(filter.createdBefore) });
    if (filter.taskDescriptionContains) {
      const like = this.kind === 'postgres' ? 'ILIKE' : 'LIKE';
      qb.andWhere(`r.task_description ${like} :taskText ESCAPE '\\'`, { taskText: `%${escapeLike(filter.taskDescriptionContains)}%` });
    }
    if (filter.avgRewardMin != null) qb.andWhere('r.avg_reward >= :avgRewardMin', { avgRewardMin: filter.avgRewardMin });
    if (filter.avgRewardMax != null) qb.andWhere('r.avg_reward <= :avgRewardMax', { avgRewardMax: filter.avgRewardMax });
    return qb;
  }

  page(filter: RunFilter, order: RunOrder, window: PageWindow): Promise<Page<TrainingRunRow>> {
    const sort = SORT_EXPR[order.field];
    return keysetPage(() => this.filtered(filter), { ...sort, idExpr: 'r.id', desc: order.desc }, window);
  }

  count(filter: RunFilter): Promise<number> {
    return this.filtered(filter).getCount();
  }

  async findByIds(ids: readonly number[]): Promise<TrainingRunRow[]> {
    if (ids.length === 0) return [];
    return this.ds.getRepository(TrainingRunEntity).findBy({ id: In([...ids]) });
  }

  findByUuid(uuid: string): Promise<TrainingRunRow | null> {
    return this.ds.getRepository(TrainingRunEntity).findOneBy({ uuid });
  }

  async transitionsForRuns(runIds: readonly number[]): Promise<StatusTransitionRow[]> {
    if (runIds.length === 0) return [];
    return this.ds.getRepository(StatusTransitionEntity).find({ where: { runId: In([...runIds]) }, order: { id: 'ASC' } });
  }

  /**
   * How many runs are ahead of a PENDING pipeline run on its backend: the active ones and the older
   * PENDING ones. Null for a run that is not waiting.
   */
  async queuePosition(run: { id: number; status: string; mode: string; backend: string | null }): Promise<number | null> {
    if (run.status !== 'pending' || run.mode !== 'pipeline') return null;
    const qb = this.ds
      .getRepository(TrainingRunEntity)
      .createQueryBuilder('r')
      .where("r.mode = 'pipeline' AND r.id <> :id", { id: run.id })
      .andWhere("(r.status IN ('generating', 'collecting', 'scoring', 'training') OR (r.status = 'pending' AND r.id < :id))", { id: run.id });
    if (run.backend === null) qb.andWhere('r.backend IS NULL');
    else qb.andWhere('r.backend = :backend', { backend: run.backend });
    return qb.getCount();
  }

  /** Stored transitions after an event id, oldest first, for replay to a resuming subscriber. */
  async transitionsAfter(afterId: number, scope: { runId?: number | null; projectName?: string | null }, limit: number): Promise<Array<StatusTransitionRow & { projectName: string }>> {
    const qb = this.ds
      .getRepository(StatusTransitionEntity)
      .createQueryBuilder('s')
      .innerJoin('TrainingRun', 'r', 'r.id = s.run_id')
      .select(['s.id AS id', 's.run_id AS "runId"', 's.from_status AS "fromStatus"', 's.to_status AS "toStatus"', 's.at AS at', 's.reason AS reason', 'r.project_name AS "projectName"'])
      .where('s.id > :afterId', { afterId });
    if (scope.runId != null) qb.andWhere('s.run_id = :runId', { runId: scope.runId });
    if (scope.projectName != null) qb.andWhere('r.project_name = :projectName', { projectName: scope.projectName });
    const rows: Array<StatusTransitionRow & { projectName: string }> = await qb.orderBy('s.id', 'ASC').limit(limit).getRawMany();
    return rows.map((r) => ({ ...r, id: Number(r.id), runId: Number(r.runId) }));
  }

  async taskInputsForRuns(runIds: readonly number[]): Promise<TaskInputRow[]> {
    if (runIds.length === 0) return [];
    return this.ds.getRepository(TaskInputEntity).find({ where: { runId: In([...runIds]) }, order: { runId: 'ASC', position: 'ASC' } });
  }
}

/** Reads a run inside a write transaction, locking its row on PostgreSQL so transitions of one run serialize. */
export async function lockRun(em: EntityManager, kind: 'sqlite' | 'postgres', id: number): Promise<TrainingRunRow | null> {
  const qb = em.getRepository(TrainingRunEntity).createQueryBuilder('r').where('r.id = :id', { id });
  if (kind === 'postgres') qb.setLock('pessimistic_write');
  return qb.getOne();
}
