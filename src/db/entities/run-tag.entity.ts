// A run's tags, one row each, so `tag = baseline` is an index lookup (tag, run_id), not a scan of JSON.
import { EntitySchema } from 'typeorm';

export interface RunTagRow {
  runId: number;
  tag: string;
}

export const RunTagEntity = new EntitySchema<RunTagRow>({
  name: 'RunTag',
  tableName: 'run_tags',
  columns: {
    runId: { name: 'run_id', type: 'integer', primary: true },
    tag: { type: 'varchar', length: 64, primary: true },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'IDX_run_tags_tag', columns: ['tag', 'runId'] }],
});
