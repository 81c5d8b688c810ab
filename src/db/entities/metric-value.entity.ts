// One named value of a history point: `train/reward`, `loss/train`, `time/wall_clock_sec`, `costs/…`,
// any name ART's history.jsonl carries. Long format, so a chart of a few names over 10,000 steps reads
// and buckets only those names, through the (run, split, name, step) index.
import { EntitySchema } from 'typeorm';

export interface MetricValueRow {
  id: number;
  runId: number;
  split: string;
  step: number;
  name: string;
  value: number;
}

export const MetricValueEntity = new EntitySchema<MetricValueRow>({
  name: 'MetricValue',
  tableName: 'metric_values',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    split: { type: 'varchar', length: 64 },
    step: { type: 'integer' },
    name: { type: 'varchar', length: 200 },
    value: { type: 'double precision' },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [
    { name: 'UQ_metric_values_run_split_name_step', columns: ['runId', 'split', 'name', 'step'], unique: true },
  ],
});
