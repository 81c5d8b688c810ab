// The `trajectories` table, in the seed's TrajectoryRecord layout plus `step` (copied out of
// task_input so that filters and keyset pages over a run's steps use an index), the split and the
// ART group. An ART trajectory's full JSON lives beside it in trajectory_art, read only when asked for.
import { EntitySchema } from 'typeorm';

export interface TrajectoryRow {
  id: number;
  uuid: string;
  runId: number;
  /** TaskInput as JSON text: {"step", "input_text", "context"}. */
  taskInput: string;
  /** [{"role", "content"}] as JSON text. */
  messages: string;
  reward: number | null;
  /** JSON object as text; the seed writes NULL when empty. */
  metadata: string | null;
  createdAt: string;
  /** Not in the seed: task_input.step; NULL on rows written by other tools, read from task_input then. */
  step: number | null;
  /** Not in the seed: for pipeline rollouts, the completion choice verbatim (logprobs included) as JSON text. */
  choice: string | null;
  /** Not in the seed: the split it was logged under, as ART's `model.log(split=)` names it: train, val, or any name. */
  split: string;
  /** Not in the seed: the ART TrajectoryGroup it came in (trajectory_groups.id); NULL for seed-shaped rows. */
  groupId: number | null;
}

export const TrajectoryEntity = new EntitySchema<TrajectoryRow>({
  name: 'Trajectory',
  tableName: 'trajectories',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    uuid: { type: 'varchar', length: 36, unique: true },
    runId: { name: 'run_id', type: 'integer' },
    taskInput: { name: 'task_input', type: 'text' },
    messages: { type: 'text' },
    reward: { type: 'double precision', nullable: true },
    metadata: { type: 'text', nullable: true },
    createdAt: { name: 'created_at', type: 'varchar', length: 32 },
    step: { type: 'integer', nullable: true },
    choice: { type: 'text', nullable: true },
    split: { type: 'varchar', length: 64, default: 'train' },
    groupId: { name: 'group_id', type: 'integer', nullable: true },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [
    { name: 'IDX_trajectories_run_created', columns: ['runId', 'createdAt', 'id'] },
    { name: 'IDX_trajectories_run_reward', columns: ['runId', 'reward', 'id'] },
    { name: 'IDX_trajectories_run_step', columns: ['runId', 'step', 'id'] },
    { name: 'IDX_trajectories_run_split_step', columns: ['runId', 'split', 'step', 'id'] },
    { name: 'IDX_trajectories_group', columns: ['groupId', 'id'] },
    { name: 'IDX_trajectories_run_id', columns: ['runId', 'id'] },
  ],
});
