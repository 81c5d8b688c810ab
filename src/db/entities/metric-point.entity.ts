// One history point per (split, step) of a run, as ART's history.jsonl has a row per split and step:
// reward statistics over that split and step's stored trajectories and the trainer's loss. Named
// values (any metric ART logs) are rows of metric_values, so history is bucketed per name in SQL.
import { EntitySchema } from 'typeorm';

export interface MetricPointRow {
  id: number;
  runId: number;
  /** train, val, or any split name. */
  split: string;
  step: number;
  epoch: number;
  totalTrajectories: number;
  avgReward: number | null;
  minReward: number | null;
  maxReward: number | null;
  rewardStd: number | null;
  trainingLoss: number | null;
  recordedAt: string;
}

export const MetricPointEntity = new EntitySchema<MetricPointRow>({
  name: 'MetricPoint',
  tableName: 'metric_points',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    split: { type: 'varchar', length: 64, default: 'train' },
    step: { type: 'integer' },
    epoch: { type: 'integer' },
    totalTrajectories: { name: 'total_trajectories', type: 'integer' },
    avgReward: { name: 'avg_reward', type: 'double precision', nullable: true },
    minReward: { name: 'min_reward', type: 'double precision', nullable: true },
    maxReward: { name: 'max_reward', type: 'double precision', nullable: true },
    rewardStd: { name: 'reward_std', type: 'double precision', nullable: true },
    trainingLoss: { name: 'training_loss', type: 'double precision', nullable: true },
    recordedAt: { name: 'recorded_at', type: 'varchar', length: 32 },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'UQ_metric_points_run_split_step', columns: ['runId', 'split', 'step'], unique: true }],
});
