// One gradient step of a training step, as the ART backend streamed it: the loss and every other value.
import { EntitySchema } from 'typeorm';

export interface GradientStepRow {
  id: number;
  runId: number;
  step: number;
  gradientStep: number;
  loss: number | null;
  /** {name: number} as JSON text: grad_norm, policy_loss, entropy, … */
  values: string;
  recordedAt: string;
}

export const GradientStepEntity = new EntitySchema<GradientStepRow>({
  name: 'GradientStep',
  tableName: 'gradient_steps',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    step: { type: 'integer' },
    gradientStep: { name: 'gradient_step', type: 'integer' },
    loss: { type: 'double precision', nullable: true },
    values: { type: 'text' },
    recordedAt: { name: 'recorded_at', type: 'varchar', length: 32 },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'UQ_gradient_steps_run_step', columns: ['runId', 'step', 'gradientStep'], unique: true }],
});
