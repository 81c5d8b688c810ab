// Queries over trajectories: keyset pages of one run's trajectories, and loads by id.
import { In, type DataSource, type SelectQueryBuilder } from 'typeorm';
import { TrajectoryEntity, type TrajectoryRow } from '../db/entities';
import { keysetPage, type Page, type PageWindow } from '../db/keyset';

export interface TrajectoryFilter {
  step?: number | null;
  rewardMin?: number | null;
  rewardMax?: number | null;
  /** true: only trajectories with a reward; false: only those without. */
  hasReward?: boolean | null;
}

export type TrajectoryOrderField = 'createdAt' | 'reward';
export interface TrajectoryOrder {
  field: TrajectoryOrderField;
  desc: boolean;
}

const SORT_EXPR: Record<TrajectoryOrderField, { expr: string; nullable: boolean }> = {
  createdAt: { expr: 't.created_at', nullable: false },
  reward: { expr: 't.reward', nullable: true },
};

export class TrajectoriesRepo {
  constructor(private readonly ds: DataSource) {}

  private filtered(runId: number, filter: TrajectoryFilter): SelectQueryBuilder<TrajectoryRow> {
    const qb = this.ds.getRepository(TrajectoryEntity).createQueryBuilder('t').where('t.run_id = :runId', { runId });
    if (filter.step != null) qb.andWhere('t.step = :step', { step: filter.step });
    if (filter.rewardMin != null) qb.andWhere('t.reward >= :rewardMin', { rewardMin: filter.rewardMin });
    if (filter.rewardMax != null) qb.andWhere('t.reward <= :rewardMax', { rewardMax: filter.rewardMax });
    if (filter.hasReward === true) qb.andWhere('t.reward IS NOT NULL');
    if (filter.hasReward === false) qb.andWhere('t.reward IS NULL');
    return qb;
  }

  page(runId: number, filter: TrajectoryFilter, order: TrajectoryOrder, window: PageWindow): Promise<Page<TrajectoryRow>> {
    return keysetPage(() => this.filtered(runId, filter), { ...SORT_EXPR[order.field], idExpr: 't.id', desc: order.desc }, window);
  }

  count(runId: number, filter: TrajectoryFilter): Promise<number> {
    return this.filtered(runId, filter).getCount();
  }

  /** A step's trajectories in the order they were stored, raw choices included (the pipeline's working set). */
  forStep(runId: number, step: number): Promise<TrajectoryRow[]> {
    return this.ds.getRepository(TrajectoryEntity).find({ where: { runId, step }, order: { id: 'ASC' } });
  }

  findByUuid(uuid: string): Promise<TrajectoryRow | null> {
    return this.ds.getRepository(TrajectoryEntity).findOneBy({ uuid });
  }

  async findByIds(ids: readonly number[]): Promise<TrajectoryRow[]> {
    if (ids.length === 0) return [];
    return this.ds.getRepository(TrajectoryEntity).findBy({ id: In([...ids]) });
  }
}
