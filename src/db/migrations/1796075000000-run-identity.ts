// Finding and comparing runs: a run's name, notes and group (columns the seed's from_row ignores),
// its tags (run_tags, indexed by tag for filtering), per-metric summaries (run_summaries: last, min
// and max of every metric per split, indexed by name and last value for sorting and filtering), and
// token and time costs per step (run_costs). QueryRunner API only: runs on SQLite and PostgreSQL.
import { Table, TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const runFk = () =>
  new TableForeignKey({
    columnNames: ['run_id'],
    referencedTableName: 'training_runs',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });
const id = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment' as const,
};

export class RunIdentity1796075000000 implements MigrationInterface {
  name = 'RunIdentity1796075000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('training_runs', [
      new TableColumn({ name: 'name', type: 'varchar', length: '200', isNullable: true }),
      new TableColumn({ name: 'notes', type: 'text', isNullable: true }),
      new TableColumn({ name: 'group_name', type: 'varchar', length: '200', isNullable: true }),
    ]);
    await q.createIndex(
      'training_runs',
      new TableIndex({ name: 'IDX_training_runs_group', columnNames: ['group_name', 'created_at'] }),
    );
    await q.createTable(
      new Table({
        name: 'run_tags',
        columns: [
          { name: 'run_id', type: 'integer', isPrimary: true },
          { name: 'tag', type: 'varchar', length: '64', isPrimary: true },
        ],
        indices: [new TableIndex({ name: 'IDX_run_tags_tag', columnNames: ['tag', 'run_id'] })],
        foreignKeys: [runFk()],
      }),
    );
    await q.createTable(
      new Table({
        name: 'run_summaries',
        columns: [
          id,
          { name: 'run_id', type: 'integer' },
          { name: 'split', type: 'varchar', length: '64' },
          { name: 'name', type: 'varchar', length: '300' },
          { name: 'source', type: 'varchar', length: '8' },
          { name: 'step', type: 'integer' },
          { name: 'last', type: 'double precision' },
          { name: 'min', type: 'double precision' },
          { name: 'max', type: 'double precision' },
        ],
        indices: [
          new TableIndex({ name: 'UQ_run_summaries_run_name', columnNames: ['run_id', 'name'], isUnique: true }),
          new TableIndex({ name: 'IDX_run_summaries_name_last', columnNames: ['name', 'last', 'run_id'] }),
        ],
        foreignKeys: [runFk()],
      }),
    );
    await q.createTable(
      new Table({
        name: 'run_costs',
        columns: [
          id,
          { name: 'run_id', type: 'integer' },
          { name: 'step', type: 'integer' },
          { name: 'name', type: 'varchar', length: '200' },
          { name: 'value', type: 'double precision' },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_run_costs_run_name_step',
            columnNames: ['run_id', 'name', 'step'],
            isUnique: true,
          }),
        ],
        foreignKeys: [runFk()],
      }),
    );
    await this.backfillSummaries(q);
  }

  /**
   * Summaries of the history already stored, as src/runs/run-summaries.ts keeps them from now on (a
   * frozen copy of its rules: `<split>/<name>`, a logged value winning over the points' series).
   */
  private async backfillSummaries(q: QueryRunner): Promise<void> {
    const pg = q.connection.driver.options.type === 'postgres';
    const ph = (n: number) => (pg ? `$${n}` : '?');
    const pairs: Array<{ run_id: unknown; split: string }> = await q.query(
      'SELECT run_id, split FROM metric_points UNION SELECT run_id, split FROM metric_values',
    );
    const series = [
      ['avg_reward', 'reward'],
      ['reward_std', 'reward_std_dev'],
      ['training_loss', 'loss'],
    ] as const;
    const keyOf = (split: string, name: string) => (name.startsWith(`${split}/`) ? name : `${split}/${name}`);
    for (const pair of pairs) {
      const runId = Number(pair.run_id);
      const { split } = pair;
      const rows = new Map<string, { source: string; step: number; last: number; min: number; max: number }>();
      for (const [column, name] of series) {
        const [range]: Array<{ mn: unknown; mx: unknown }> = await q.query(
          `SELECT MIN(${column}) AS mn, MAX(${column}) AS mx FROM metric_points WHERE run_id = ${ph(1)} AND split = ${ph(2)}`,
          [runId, split],
        );
        if (range?.mn == null) continue;
        const [last]: Array<{ step: unknown; value: unknown }> = await q.query(
          `SELECT step, ${column} AS value FROM metric_points WHERE run_id = ${ph(1)} AND split = ${ph(2)} AND ${column} IS NOT NULL ORDER BY step DESC LIMIT 1`,
          [runId, split],
        );
        rows.set(keyOf(split, name), {
          source: 'points',
          step: Number(last.step),
          last: Number(last.value),
          min: Number(range.mn),
          max: Number(range.mx),
        });
      }
      const named: Array<{ name: string; mn: unknown; mx: unknown; st: unknown; value: unknown }> = await q.query(
        `SELECT a.name AS name, a.mn AS mn, a.mx AS mx, a.st AS st, v.value AS value
           FROM (SELECT name, MIN(value) AS mn, MAX(value) AS mx, MAX(step) AS st FROM metric_values
                  WHERE run_id = ${ph(1)} AND split = ${ph(2)} GROUP BY name) a
           JOIN metric_values v ON v.name = a.name AND v.step = a.st
          WHERE v.run_id = ${ph(3)} AND v.split = ${ph(4)}`,
        [runId, split, runId, split],
      );
      for (const r of named)
        rows.set(keyOf(split, r.name), {
          source: 'values',
          step: Number(r.st),
          last: Number(r.value),
          min: Number(r.mn),
          max: Number(r.mx),
        });
      for (const [name, r] of rows)
        await q.query(
          `INSERT INTO run_summaries (run_id, split, name, source, step, ${pg ? '"last"' : 'last'}, min, max) VALUES (${[1, 2, 3, 4, 5, 6, 7, 8].map(ph).join(', ')})`,
          [runId, split, name, r.source, r.step, r.last, r.min, r.max],
        );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['run_costs', 'run_summaries', 'run_tags']) await q.dropTable(t);
    await q.dropIndex('training_runs', 'IDX_training_runs_group');
    for (const c of ['group_name', 'notes', 'name']) await q.dropColumn('training_runs', c);
  }
}
