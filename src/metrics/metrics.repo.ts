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

/** One bucket of consecutive points, as the database computed it. */
export interface SqlBucket {
  firstStep: number;
  lastStep: number;
  count: number;
  /** Min and max of each core column and each named value (`values.<name>`) within the bucket. */
  min: Record<string, number | null>;
  max: Record<string, number | null>;
  /** The bucket's last point and its values. */
  last: StoredPoint;
}

/** The core columns bucketed, by series name (metric-point.model.ts CORE_SERIES) and column. */
const CORE_COLUMNS: Array<[string, string]> = [
  ['totalTrajectories', 'total_trajectories'],
  ['avgReward', 'avg_reward'],
  ['minReward', 'min_reward'],
  ['maxReward', 'max_reward'],
  ['rewardStd', 'reward_std'],
  ['trainingLoss', 'training_loss'],
];

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

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

  /** How many points a split of a run has. */
  async count(runId: number, split: string): Promise<number> {
    const p = new SqlParams(this.kind);
    return this.points.count(
      `SELECT COUNT(1) AS n FROM ${this.points.table} m WHERE m.run_id = ${p.add(runId)} AND m.split = ${p.add(split)}`,
      p.values,
    );
  }

  /**
   * A split's history in buckets of `size` consecutive points, bucketed by the database: a point's
   * bucket is its position by step divided by `size`, each bucket reports the min and max of every
   * series and its last point. Three statements whatever the history's length: the core columns, the
   * named values, and the last points' values (the same buckets domain/downsample.ts makes in memory).
   */
  async bucketed(runId: number, split: string, names: readonly string[] | null, size: number): Promise<SqlBucket[]> {
    // The size is a literal (a whole number computed here): a bound number would divide as REAL on SQLite.
    const per = Math.max(1, Math.floor(size));
    const numbered = (p: SqlParams) =>
      `SELECT m.*, (ROW_NUMBER() OVER (ORDER BY m.step) - 1) / ${per} AS b FROM ${this.points.table} m WHERE m.run_id = ${p.add(runId)} AND m.split = ${p.add(split)}`;
    const p = new SqlParams(this.kind);
    const aggregates = CORE_COLUMNS.map(([, c]) => `MIN(p.${c}) AS "min_${c}", MAX(p.${c}) AS "max_${c}"`).join(', ');
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      `WITH p AS MATERIALIZED (${numbered(p)})
       SELECT a.*, ${this.points.columns('l')}
         FROM (SELECT p.b AS bucket, MIN(p.step) AS first_step, MAX(p.step) AS last_step, COUNT(1) AS n, ${aggregates} FROM p GROUP BY p.b) a
         JOIN ${this.points.table} l ON l.run_id = ${p.add(runId)} AND l.split = ${p.add(split)} AND l.step = a.last_step
        ORDER BY a.bucket`,
      p.values,
    );
    const buckets: SqlBucket[] = rows.map((r) => {
      const min: Record<string, number | null> = {};
      const max: Record<string, number | null> = {};
      for (const [series, c] of CORE_COLUMNS) {
        min[series] = num(r[`min_${c}`]);
        max[series] = num(r[`max_${c}`]);
      }
      const last = {} as Record<string, unknown>;
      for (const c of this.ds.getMetadata(MetricPointEntity).columns) last[c.propertyName] = r[c.propertyName];
      for (const k of ['id', 'runId', 'step', 'epoch', 'totalTrajectories']) last[k] = Number(last[k]);
      for (const k of ['avgReward', 'minReward', 'maxReward', 'rewardStd', 'trainingLoss']) last[k] = num(last[k]);
      return {
        firstStep: Number(r.first_step),
        lastStep: Number(r.last_step),
        count: Number(r.n),
        min,
        max,
        last: { row: last as unknown as MetricPointRow, values: {} },
      };
    });
    if (buckets.length === 0 || (names && names.length === 0)) return buckets;

    // The named values' buckets without joining them to the numbered points (a join the planners got
    // wrong: SQLite scanned the whole CTE per value; PostgreSQL, on tables not yet analyzed, did the
    // same): the points' steps and the values in one ordered stream, where a step's dense rank is its
    // point's position (every value belongs to a point of its step).
    const q = new SqlParams(this.kind);
    const pointSteps = `SELECT m.step AS step, NULL AS name, NULL AS value FROM ${this.points.table} m WHERE m.run_id = ${q.add(runId)} AND m.split = ${q.add(split)}`;
    const nameFilter = names ? ` AND v.name IN (${q.list(names)})` : '';
    const namedValues = `SELECT v.step AS step, v.name AS name, v.value AS value FROM ${this.values.table} v WHERE v.run_id = ${q.add(runId)} AND v.split = ${q.add(split)}${nameFilter}`;
    const valueRows: Array<{ b: number | string; name: string; lo: number | string; hi: number | string }> =
      await this.ds.query(
        `SELECT u.b AS b, u.name AS name, MIN(u.value) AS lo, MAX(u.value) AS hi
           FROM (SELECT (DENSE_RANK() OVER (ORDER BY s.step) - 1) / ${per} AS b, s.name AS name, s.value AS value
                   FROM (${pointSteps} UNION ALL ${namedValues}) s) u
          WHERE u.name IS NOT NULL
          GROUP BY u.b, u.name
          ORDER BY u.name`,
        q.values,
      );
    for (const v of valueRows) {
      const bucket = buckets[Number(v.b)];
      if (!bucket) continue;
      bucket.min[`values.${v.name}`] = Number(v.lo);
      bucket.max[`values.${v.name}`] = Number(v.hi);
    }
    const lastSteps = buckets.map((b) => b.lastStep);
    const byStep = new Map(buckets.map((b) => [b.lastStep, b]));
    for (let i = 0; i < lastSteps.length; i += 500) {
      const r = new SqlParams(this.kind);
      const cond = [
        `v.run_id = ${r.add(runId)}`,
        `v.split = ${r.add(split)}`,
        `v.step IN (${r.list(lastSteps.slice(i, i + 500))})`,
      ];
      if (names) cond.push(`v.name IN (${r.list(names)})`);
      for (const v of await this.values.all(
        `SELECT ${this.values.columns('v')} FROM ${this.values.table} v WHERE ${cond.join(' AND ')} ORDER BY v.name`,
        r.values,
      ))
        byStep.get(v.step)!.last.values[v.name] = v.value;
    }
    return buckets;
  }

  /** Whether the history holds a value of this name at a split and step. */
  async hasValue(runId: number, split: string, step: number, name: string): Promise<boolean> {
    return (await this.ds.getRepository(MetricValueEntity).countBy({ runId, split, step, name })) > 0;
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
