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
    // By name: a point's values come in name order whichever door read them (bucketed() does the same).
    const values = await this.values.all(
      `SELECT ${this.values.columns('v')} FROM ${this.values.table} v WHERE ${where.join(' AND ')} ORDER BY v.name, v.step`,
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
   * series and its last point (the same buckets domain/downsample.ts makes in memory). Two statements
   * whatever the history's length: the points' buckets (boundaries, core columns, last point), then the
   * named values' min, max and last, looked up by name and step range from those boundaries.
   *
   * Both statements walk the indexes bucket by bucket in a fixed order (SQLite's CROSS JOIN,
   * PostgreSQL's LATERAL), so the plan does not depend on table statistics: on PostgreSQL tables not
   * yet analyzed (autovacuum off or behind), a plain join was planned as a nested loop that compared
   * every bucket with every point (0.3–1.5 s for 10,000 steps instead of ~15 ms).
   */
  async bucketed(runId: number, split: string, names: readonly string[] | null, size: number): Promise<SqlBucket[]> {
    // The size is a literal (a whole number computed here): a bound number would divide as REAL on SQLite.
    const per = Math.max(1, Math.floor(size));
    const pg = this.kind === 'postgres';
    const t = this.points.table;
    const p = new SqlParams(this.kind);
    const of = (alias: string) => `${alias}.run_id = ${p.add(runId)} AND ${alias}.split = ${p.add(split)}`;
    // Boundaries from the (run_id, split, step) index alone: numbering only the steps is what keeps the
    // window cheap (SQLite copies every windowed row, so numbering whole points cost 3× more).
    const bounds = `SELECT s.i / ${per} AS bucket, MIN(s.step) AS lo, MAX(s.step) AS hi, COUNT(1) AS n
        FROM (SELECT m.step AS step, ROW_NUMBER() OVER (ORDER BY m.step) - 1 AS i FROM ${t} m WHERE ${of('m')}) s
       GROUP BY s.i / ${per}`;
    const aggregates = CORE_COLUMNS.map(([, c]) => `MIN(m.${c}) AS "min_${c}", MAX(m.${c}) AS "max_${c}"`).join(', ');
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      pg
        ? // LIMIT 1 keeps the last point's subquery a subquery (a flattened one is a plain join again).
          `SELECT b.bucket AS bucket, b.lo AS first_step, b.hi AS last_step, b.n AS n, a.*, l.*
             FROM (${bounds}) b
            CROSS JOIN LATERAL (SELECT ${aggregates} FROM ${t} m WHERE ${of('m')} AND m.step >= b.lo AND m.step <= b.hi) a
            CROSS JOIN LATERAL (SELECT ${this.points.columns('l')} FROM ${t} l WHERE ${of('l')} AND l.step = b.hi LIMIT 1) l
            ORDER BY b.bucket`
        : `SELECT a.*, ${this.points.columns('l')}
             FROM (SELECT b.bucket AS bucket, b.lo AS first_step, b.hi AS last_step, b.n AS n, ${aggregates}
                     FROM (${bounds}) b CROSS JOIN ${t} m
                    WHERE ${of('m')} AND m.step >= b.lo AND m.step <= b.hi
                    GROUP BY b.bucket) a
            CROSS JOIN ${t} l
            WHERE ${of('l')} AND l.step = a.last_step
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

    // The named values: per name, per bucket, an index range of (run_id, split, name, step) between the
    // bucket's first and last steps (every value belongs to a point of its step, so a bucket's values
    // are those of its steps). The boundaries come back in as one parameter, not as a re-numbering.
    const q = new SqlParams(this.kind);
    const ofV = () => `v.run_id = ${q.add(runId)} AND v.split = ${q.add(split)}`;
    const valueRows: Array<{ b: number | string; name: string; lo: number; hi: number; last: number | null }> = pg
      ? await this.ds.query(
          `SELECT (b.o - 1)::int AS b, n.name AS name, x.lo AS lo, x.hi AS hi, x.last AS last
               FROM ${names ? `unnest(${q.add(names)}::text[]) AS n(name)` : `(SELECT DISTINCT v.name AS name FROM ${this.values.table} v WHERE ${ofV()}) n`}
              CROSS JOIN unnest(${q.add(buckets.map((b) => b.firstStep))}::int[], ${q.add(buckets.map((b) => b.lastStep))}::int[]) WITH ORDINALITY AS b(first_step, last_step, o)
              CROSS JOIN LATERAL (SELECT MIN(v.value) AS lo, MAX(v.value) AS hi, MAX(v.value) FILTER (WHERE v.step = b.last_step) AS last
                                    FROM ${this.values.table} v
                                   WHERE ${ofV()} AND v.name = n.name AND v.step >= b.first_step AND v.step <= b.last_step) x
              WHERE x.lo IS NOT NULL
              ORDER BY n.name, b.o`,
          q.values,
        )
      : await this.ds.query(
          `SELECT b.bucket AS b, n.name AS name, MIN(v.value) AS lo, MAX(v.value) AS hi, MAX(v.value) FILTER (WHERE v.step = b.last_step) AS last
               FROM ${names ? `(SELECT j.value AS name FROM json_each(${q.add(JSON.stringify(names))}) j)` : `(SELECT DISTINCT v.name AS name FROM ${this.values.table} v WHERE ${ofV()})`} n
              CROSS JOIN (SELECT CAST(j.key AS INTEGER) AS bucket, json_extract(j.value, '$[0]') AS first_step, json_extract(j.value, '$[1]') AS last_step
                            FROM json_each(${q.add(JSON.stringify(buckets.map((b) => [b.firstStep, b.lastStep])))}) j) b
              CROSS JOIN ${this.values.table} v
              WHERE ${ofV()} AND v.name = n.name AND v.step >= b.first_step AND v.step <= b.last_step
              GROUP BY n.name, b.bucket
              ORDER BY n.name, b.bucket`,
          q.values,
        );
    for (const v of valueRows) {
      const bucket = buckets[Number(v.b)];
      if (!bucket) continue;
      bucket.min[`values.${v.name}`] = Number(v.lo);
      bucket.max[`values.${v.name}`] = Number(v.hi);
      if (v.last !== null && v.last !== undefined) bucket.last.values[v.name] = Number(v.last);
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
