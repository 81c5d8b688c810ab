// What a run's step cost: token counts of the generator and the judge (from the providers' `usage`)
// and seconds of training, one row per (run, name, step), named as ART logs costs (`costs/…`).
import { EntitySchema } from 'typeorm';

export interface RunCostRow {
  id: number;
  runId: number;
  step: number;
  name: string;
  value: number;
}

export const RunCostEntity = new EntitySchema<RunCostRow>({
  name: 'RunCost',
  tableName: 'run_costs',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    step: { type: 'integer' },
    name: { type: 'varchar', length: 200 },
    value: { type: 'double precision' },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'UQ_run_costs_run_name_step', columns: ['runId', 'name', 'step'], unique: true }],
});
