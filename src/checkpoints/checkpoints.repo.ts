// Queries over a run's checkpoints and the history values the best one is chosen by.
import { MoreThan, type DataSource } from 'typeorm';

import type { DbKind } from '../db/data-source';
import { CheckpointEntity, MetricPointEntity, MetricValueEntity, type CheckpointRow } from '../db/entities';
import { SqlParams } from '../db/rows';

export interface StepValue {
  step: number;
  value: number;
}

export class CheckpointsRepo {
  constructor(
    private readonly ds: DataSource,
    private readonly kind: DbKind,
  ) {}

  list(runId: number, afterStep: number | null, first: number): Promise<CheckpointRow[]> {
    return this.ds.getRepository(CheckpointEntity).find({
      where: afterStep === null ? { runId } : { runId, step: MoreThan(afterStep) },
      order: { step: 'ASC' },
      take: first,
    });
  }

  atSteps(runId: number, steps: number[]): Promise<CheckpointRow[]> {
    if (steps.length === 0) return Promise.resolve([]);
    return this.ds
      .getRepository(CheckpointEntity)
      .createQueryBuilder('c')
      .where('c.run_id = :runId AND c.step IN (:...steps)', { runId, steps })
      .orderBy('c.step', 'ASC')
      .getMany();
  }

  /**
   * Every value of a metric in the run's history, one per history row: a value stored under the
   * metric's full name (`val/reward`, in any split) or under its last part in the split its first part
   * names (`reward` in split `val`).
   */
  async values(runId: number, metric: string): Promise<StepValue[]> {
    const slash = metric.indexOf('/');
    const p = new SqlParams(this.kind);
    // Placeholders in the order they appear in the text: SQLite's `?` are positional.
    const run = p.add(runId);
    const conds = [`name = ${p.add(metric)}`];
    if (slash > 0)
      conds.push(`(split = ${p.add(metric.slice(0, slash))} AND name = ${p.add(metric.slice(slash + 1))})`);
    const t = this.ds.getMetadata(MetricValueEntity).tableName;
    const rows: Array<{ step: number | string; value: number | string }> = await this.ds.query(
      `SELECT step, value FROM ${t} WHERE run_id = ${run} AND (${conds.join(' OR ')})`,
      p.values,
    );
    return rows.map((r) => ({ step: Number(r.step), value: Number(r.value) }));
  }

  /** For `<split>/reward`: the average reward of that split's trajectories, per step that has one. */
  async rewardAverages(runId: number, split: string): Promise<StepValue[]> {
    const rows = await this.ds
      .getRepository(MetricPointEntity)
      .createQueryBuilder('m')
      .select(['m.step', 'm.avgReward'])
      .where('m.run_id = :runId AND m.split = :split AND m.avg_reward IS NOT NULL', { runId, split })
      .getMany();
    return rows.map((r) => ({ step: r.step, value: r.avgReward! }));
  }

  /** Every named value stored at these steps, in every split. */
  async valuesAt(
    runId: number,
    steps: number[],
  ): Promise<Array<{ step: number; split: string; name: string; value: number }>> {
    if (steps.length === 0) return [];
    const rows = await this.ds
      .getRepository(MetricValueEntity)
      .createQueryBuilder('v')
      .where('v.run_id = :runId AND v.step IN (:...steps)', { runId, steps })
      .getMany();
    const points = await this.ds
      .getRepository(MetricPointEntity)
      .createQueryBuilder('m')
      .where('m.run_id = :runId AND m.step IN (:...steps) AND m.avg_reward IS NOT NULL', { runId, steps })
      .getMany();
    return [
      ...rows.map((r) => ({ step: r.step, split: r.split, name: r.name, value: r.value })),
      ...points.map((m) => ({ step: m.step, split: m.split, name: '__reward', value: m.avgReward! })),
    ];
  }
}
