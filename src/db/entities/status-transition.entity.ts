// One row per status change of a run (creation included, from NULL): the run's audit trail and
// the replay log for subscribers resuming with afterEventId. The id is the event id.
import { EntitySchema } from 'typeorm';

export interface StatusTransitionRow {
  id: number;
  runId: number;
  fromStatus: string | null;
  toStatus: string;
  at: string;
  reason: string | null;
}

export const StatusTransitionEntity = new EntitySchema<StatusTransitionRow>({
  name: 'StatusTransition',
  tableName: 'status_transitions',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    fromStatus: { name: 'from_status', type: 'varchar', length: 16, nullable: true },
    toStatus: { name: 'to_status', type: 'varchar', length: 16 },
    at: { type: 'varchar', length: 32 },
    reason: { type: 'text', nullable: true },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'IDX_status_transitions_run', columns: ['runId', 'id'] }],
});
