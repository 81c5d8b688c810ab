// An ART TrajectoryGroup as it was logged: its position in its (split, step) and everything of it but
// its trajectories (metadata, metrics, logs, exceptions, and any field a newer ART adds) as JSON text.
import { EntitySchema } from 'typeorm';

export interface TrajectoryGroupRow {
  id: number;
  runId: number;
  split: string;
  step: number;
  /** The group's position in its step (ART's Parquet `group_index`). */
  groupIndex: number;
  /** The group's JSON without `trajectories`, key for key as ART dumps it. */
  art: string;
  createdAt: string;
}

export const TrajectoryGroupEntity = new EntitySchema<TrajectoryGroupRow>({
  name: 'TrajectoryGroup',
  tableName: 'trajectory_groups',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    split: { type: 'varchar', length: 64 },
    step: { type: 'integer' },
    groupIndex: { name: 'group_index', type: 'integer' },
    art: { type: 'text' },
    createdAt: { name: 'created_at', type: 'varchar', length: 32 },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [
    {
      name: 'UQ_trajectory_groups_run_split_step_index',
      columns: ['runId', 'split', 'step', 'groupIndex'],
      unique: true,
    },
  ],
});
