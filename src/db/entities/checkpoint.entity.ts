// A checkpoint of a run: the model after `step` steps, under the name its backend serves it
// (`name@step` on ART's LocalBackend and the worker, the W&B artifact on serverless). Deleting one
// (retention) keeps its row, with when and why.
import { EntitySchema } from 'typeorm';

export interface CheckpointRow {
  id: number;
  runId: number;
  step: number;
  name: string;
  uri: string | null;
  createdAt: string;
  deletedAt: string | null;
  deletionReason: string | null;
}

export const CheckpointEntity = new EntitySchema<CheckpointRow>({
  name: 'Checkpoint',
  tableName: 'checkpoints',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    step: { type: 'integer' },
    name: { type: 'varchar', length: 300 },
    uri: { type: 'text', nullable: true },
    createdAt: { name: 'created_at', type: 'varchar', length: 32 },
    deletedAt: { name: 'deleted_at', type: 'varchar', length: 32, nullable: true },
    deletionReason: { name: 'deletion_reason', type: 'text', nullable: true },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'UQ_checkpoints_run_step', columns: ['runId', 'step'], unique: true }],
});
