// A run's summary of one metric: its last value (at the highest step), min and max over a split's
// history, named `<split>/<name>` (`val/reward`, `train/loss/train`). Kept in the same transaction
// as the history it summarizes; the (name, last, run_id) index serves sorting and filtering runs.
import { EntitySchema } from 'typeorm';

export interface RunSummaryRow {
  id: number;
  runId: number;
  split: string;
  name: string;
  /** 'points': from a history point's reward statistics or loss; 'values': a named value (wins on a name clash). */
  source: string;
  /** The step of the last value. */
  step: number;
  last: number;
  min: number;
  max: number;
}

export const RunSummaryEntity = new EntitySchema<RunSummaryRow>({
  name: 'RunSummary',
  tableName: 'run_summaries',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    split: { type: 'varchar', length: 64 },
    name: { type: 'varchar', length: 300 },
    source: { type: 'varchar', length: 8 },
    step: { type: 'integer' },
    last: { type: 'double precision' },
    min: { type: 'double precision' },
    max: { type: 'double precision' },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [
    { name: 'UQ_run_summaries_run_name', columns: ['runId', 'name'], unique: true },
    { name: 'IDX_run_summaries_name_last', columns: ['name', 'last', 'runId'] },
  ],
});
