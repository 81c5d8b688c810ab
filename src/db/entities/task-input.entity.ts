// A run's dataset: the seed's TaskInput rows in the order they were generated or recorded.
import { EntitySchema } from 'typeorm';

export interface TaskInputRow {
  id: number;
  runId: number;
  position: number;
  step: number;
  inputText: string;
  /** JSON object as text, or NULL. */
  context: string | null;
  /** `train` (trained on) or `val` (held out: evaluated, never trained on). */
  split: string;
}

export const TaskInputEntity = new EntitySchema<TaskInputRow>({
  name: 'TaskInput',
  tableName: 'task_inputs',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    position: { type: 'integer' },
    step: { type: 'integer' },
    inputText: { name: 'input_text', type: 'text' },
    context: { type: 'text', nullable: true },
    split: { type: 'varchar', length: 64, default: 'train' },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'UQ_task_inputs_run_position', columns: ['runId', 'position'], unique: true }],
});
