// A run's summary metrics (run_summaries): for every metric of a split, its last value (at the
// highest step), min and max. Recomputed from the history with SQL aggregates inside the write
// transaction that changed the history, so a summary is never behind the points it summarizes.
// Names are `<split>/<name>` (`val/reward`; a name already under its split stays as it is); the
// reward statistics and loss of the points are `<split>/reward`, `<split>/reward_std_dev` and
// `<split>/loss`, unless a value of that name was logged, which wins.
import type { EntityManager } from 'typeorm';

import type { DbKind } from '../db/data-source';
import { MetricPointEntity, MetricValueEntity, RunSummaryEntity } from '../db/entities';
import { SqlParams } from '../db/rows';

/** The summary name of a value `name` logged in `split`. */
export function summaryName(split: string, name: string): string {
  return name.startsWith(`${split}/`) ? name : `${split}/${name}`;
}

/** The columns of a history point that are summarized, and their metric names. */
const POINT_SERIES = [
  { column: 'avg_reward', name: 'reward' },
  { column: 'reward_std', name: 'reward_std_dev' },
  { column: 'training_loss', name: 'loss' },
] as const;

interface Summary {
  step: number;
  last: number;
  min: number;
  max: number;
}

const kindOf = (em: EntityManager): DbKind => (em.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');
const num = (v: unknown) => Number(v);

/**
 * Recomputes the summaries of one split of a run: its points' series always, and the named values
 * in `names` (null: every name the split has). Runs in the caller's write transaction.
 */
export async function refreshSummaries(
  em: EntityManager,
  runId: number,
  split: string,
  names: readonly string[] | null,
): Promise<void> {
  const kind = kindOf(em);
  const points = em.connection.getMetadata(MetricPointEntity).tableName;
  const values = em.connection.getMetadata(MetricValueEntity).tableName;
  const repo = em.getRepository(RunSummaryEntity);

  // Named values: min, max and the value at the highest step, per name, in one statement.
  const named = new Map<string, Summary>();
  if (names === null || names.length > 0) {
    const p = new SqlParams(kind);
    const conds = [`run_id = ${p.add(runId)}`, `split = ${p.add(split)}`];
    if (names) conds.push(`name IN (${p.list(names)})`);
    const inner = `SELECT name, MIN(value) AS mn, MAX(value) AS mx, MAX(step) AS st FROM ${values} WHERE ${conds.join(' AND ')} GROUP BY name`;
    const outer = [`v.run_id = ${p.add(runId)}`, `v.split = ${p.add(split)}`];
    const rows: Array<{ name: string; mn: unknown; mx: unknown; st: unknown; value: unknown }> = await em.query(
      `SELECT a.name AS name, a.mn AS mn, a.mx AS mx, a.st AS st, v.value AS value FROM (${inner}) a JOIN ${values} v ON v.name = a.name AND v.step = a.st WHERE ${outer.join(' AND ')}`,
      p.values,
    );
    for (const r of rows)
      named.set(summaryName(split, r.name), { step: num(r.st), last: num(r.value), min: num(r.mn), max: num(r.mx) });
  }

  // The points' series: min and max in one statement, the last non-null value of each by the (run, split, step) index.
  const core = new Map<string, Summary | null>();
  const p = new SqlParams(kind);
  const aggregates = POINT_SERIES.map((s) => `MIN(${s.column}) AS ${s.column}_mn, MAX(${s.column}) AS ${s.column}_mx`);
  const [range]: Array<Record<string, unknown>> = await em.query(
    `SELECT ${aggregates.join(', ')} FROM ${points} WHERE run_id = ${p.add(runId)} AND split = ${p.add(split)}`,
    p.values,
  );
  for (const s of POINT_SERIES) {
    const key = summaryName(split, s.name);
    if (range?.[`${s.column}_mn`] == null) {
      core.set(key, null);
      continue;
    }
    const q = new SqlParams(kind);
    const [last]: Array<{ step: unknown; value: unknown }> = await em.query(
      `SELECT step, ${s.column} AS value FROM ${points} WHERE run_id = ${q.add(runId)} AND split = ${q.add(split)} AND ${s.column} IS NOT NULL ORDER BY step DESC LIMIT 1`,
      q.values,
    );
    core.set(key, {
      step: num(last.step),
      last: num(last.value),
      min: num(range[`${s.column}_mn`]),
      max: num(range[`${s.column}_mx`]),
    });
  }

  const stored = new Map(
    (await repo.find({ select: { name: true, source: true }, where: { runId, split } })).map((r) => [r.name, r.source]),
  );
  const write = new Map<string, Summary & { source: string }>();
  const drop: string[] = [];
  for (const [name, summary] of core) {
    if (named.has(name) || stored.get(name) === 'values') continue; // a logged value of that name wins
    if (summary) write.set(name, { ...summary, source: 'points' });
    else if (stored.has(name)) drop.push(name);
  }
  for (const [name, summary] of named) write.set(name, { ...summary, source: 'values' });

  const names_ = [...write.keys(), ...drop];
  for (let i = 0; i < names_.length; i += 200) {
    const chunk = names_.slice(i, i + 200);
    await repo
      .createQueryBuilder()
      .delete()
      .where('run_id = :runId AND name IN (:...chunk)', { runId, chunk })
      .execute();
  }
  const rows = [...write].map(([name, s]) => ({ runId, split, name, ...s }));
  for (let i = 0; i < rows.length; i += 100)
    await repo
      .createQueryBuilder()
      .insert()
      .values(rows.slice(i, i + 100))
      .updateEntity(false)
      .execute();
}
