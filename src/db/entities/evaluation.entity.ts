// An evaluation of one kept checkpoint of a run (evaluateCheckpoint): its scenarios, status, the
// instance driving it (a lease, as runs have), and when it ends its summary metrics, which are also
// recorded in the run's history at the checkpoint's step under split `eval`. Its trajectories are the
// run's `eval` trajectories of that step in its own range of ART group indexes (evaluations.service.ts).
import { EntitySchema } from 'typeorm';

export type EvaluationStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface EvaluationRow {
  id: number;
  uuid: string;
  runId: number;
  step: number;
  status: EvaluationStatus;
  /** [{"inputText", "context"}] as JSON text. */
  scenarios: string;
  /** Where the scenarios came from: `scenarios`, `run:val` or `dataset:<uuid>`. */
  source: string;
  /** The checkpoint's served name the rollouts ran on (set when it starts). */
  modelName: string | null;
  /** {"reward": …, "exception_rate": …} as JSON text, once completed. */
  metrics: string | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
}

export const EvaluationEntity = new EntitySchema<EvaluationRow>({
  name: 'Evaluation',
  tableName: 'evaluations',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    uuid: { type: 'varchar', length: 36 },
    runId: { name: 'run_id', type: 'integer' },
    step: { type: 'integer' },
    status: { type: 'varchar', length: 16 },
    scenarios: { type: 'text' },
    source: { type: 'varchar', length: 100 },
    modelName: { name: 'model_name', type: 'varchar', length: 300, nullable: true },
    metrics: { type: 'text', nullable: true },
    error: { type: 'text', nullable: true },
    createdAt: { name: 'created_at', type: 'varchar', length: 32 },
    startedAt: { name: 'started_at', type: 'varchar', length: 32, nullable: true },
    completedAt: { name: 'completed_at', type: 'varchar', length: 32, nullable: true },
    leaseOwner: { name: 'lease_owner', type: 'varchar', length: 200, nullable: true },
    leaseExpiresAt: { name: 'lease_expires_at', type: 'varchar', length: 32, nullable: true },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [
    { name: 'UQ_evaluations_uuid', columns: ['uuid'], unique: true },
    { name: 'IDX_evaluations_run', columns: ['runId', 'id'] },
    { name: 'IDX_evaluations_status', columns: ['status', 'id'] },
  ],
});
