// When a TRACKED run's rows last arrived (history points, trajectories, checkpoints, through any door)
// and since when it is stalled: no rows for STALL_TIMEOUT_SECONDS while not finished (src/runs/stall-monitor.ts).
import { EntitySchema } from 'typeorm';

export interface RunActivityRow {
  runId: number;
  lastActivityAt: string;
  /** Set once by whichever instance noticed the silence first; cleared by the next row. */
  stalledSince: string | null;
}

export const RunActivityEntity = new EntitySchema<RunActivityRow>({
  name: 'RunActivity',
  tableName: 'run_activity',
  columns: {
    runId: { name: 'run_id', type: 'integer', primary: true },
    lastActivityAt: { name: 'last_activity_at', type: 'varchar', length: 32 },
    stalledSince: { name: 'stalled_since', type: 'varchar', length: 32, nullable: true },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'IDX_run_activity_last', columns: ['lastActivityAt'] }],
});
