// Queries over metric history: points of one split of a run with their named values, and what
// names a run has.
import { In, type DataSource } from 'typeorm';

import type { DbKind } from '../db/data-source';
import {
  GradientStepEntity,
  MetricPointEntity,
  MetricValueEntity,
  type GradientStepRow,
  type MetricPointRow,
  type MetricValueRow,
} from '../db/entities';
import { rowReader, SqlParams, type RowReader } from '../db/rows';

export interface StoredPoint {
  row: MetricPointRow;
  values: Record<string, number>;
}

export class MetricsRepo {
  private readonly points: RowReader<MetricPointRow>;
  private readonly values: RowReader<MetricValueRow>;

  constructor(
    private readonly ds: DataSource,
    private readonly kind: DbKind,
  ) {
    this.points = rowReader(ds, kind, MetricPointEntity);
    this.values = rowReader(ds, kind, MetricValueEntity);
  }

  /** Points with their values, by step; `names` limits the values read (null: all). */
  private async withValues(
    rows: MetricPointRow[],
    runIds: number[],
    split: string,
    names: readonly string[] | null,
    steps: readonly number[] | null,
  ): Promise<StoredPoint[]> {
    const byKey = new Map<string, StoredPoint>(rows.map((row) => [`${row.runId}:${row.step}`, { row, values: {} }]));
    if (rows.length === 0 || (names && names.length === 0)) return [...byKey.values()];
    const p = new SqlParams(this.kind);
    const where = [`v.run_id IN (${p.list(runIds)})`, `v.split = ${p.add(split)}`];
    if (names) where.push(`v.name IN (${p.list(names)})`);
    if (steps) where.push(`v.step IN (${p.list(steps)})`);
    const values = await this.values.all(
      `SELECT ${this.values.columns('v')} FROM ${this.values.table} v WHERE ${where.join(' AND ')}`,
      p.values,
    );
    for (const v of values) {
      const point = byKey.get(`${v.runId}:${v.step}`);
      if (point) point.values[v.name] = v.value;
    }
    return [...byKey.values()];
  }

  /** A split of a run's history, oldest first (10,000s of rows for long runs: plain SQL, see db/rows.ts). */
  async history(runId: number, split: string, names: readonly string[] | null): Promise<StoredPoint[]> {
    const p = new SqlParams(this.kind);
    const rows = await this.points.all(
      `SELECT ${this.points.columns('m')} FROM ${this.points.table} m WHERE m.run_id = ${p.add(runId)} AND m.split = ${p.add(split)} ORDER BY m.step ASC`,
      p.values,
    );
    return this.withValues(rows, [runId], split, names, null);
  }

  /** How many train points a run has, and its last train step (-1 when none): a resume checks the backend against it. */
  async recorded(runId: number): Promise<{ count: number; lastStep: number }> {
    const row: { n: string | number; last: string | number | null } | undefined = await this.ds
      .getRepository(MetricPointEntity)
      .createQueryBuilder('m')
      .select('COUNT(*)', 'n')
      .addSelect('MAX(m.step)', 'last')
      .where("m.run_id = :runId AND m.split = 'train'", { runId })
      .getRawOne();
    return { count: Number(row?.n ?? 0), lastStep: row?.last == null ? -1 : Number(row.last) };
  }

  gradientSteps(runId: number, step: number | null): Promise<GradientStepRow[]> {
    return this.ds.getRepository(GradientStepEntity).find({
      where: step === null ? { runId } : { runId, step },
      order: { step: 'ASC', gradientStep: 'ASC' },
    });
  }

  async pointsAt(runId: number, split: string, steps: number[]): Promise<StoredPoint[]> {
    const rows = await this.ds
      .getRepository(MetricPointEntity)
      .find({ where: { runId, split, step: In(steps) }, order: { step: 'ASC' } });
    return this.withValues(rows, [runId], split, null, steps);
  }

  /** The (split, name) pairs a run has values of, plus each split it has points of: a chart's metric picker. */
  async names(runId: number): Promise<Array<{ split: string; name: string | null }>> {
    const p = new SqlParams(this.kind);
    const splits: Array<{ split: string }> = await this.ds.query(
      `SELECT DISTINCT split FROM ${this.points.table} WHERE run_id = ${p.add(runId)} ORDER BY split`,
      p.values,
    );
    const q = new SqlParams(this.kind);
    const names: Array<{ split: string; name: string }> = await this.ds.query(
      `SELECT DISTINCT split, name FROM ${this.values.table} WHERE run_id = ${q.add(runId)} ORDER BY split, name`,
      q.values,
    );
    return [...splits.map((s) => ({ split: s.split, name: null })), ...names];
  }
}
