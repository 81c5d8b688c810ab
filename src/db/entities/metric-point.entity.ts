// One history point per training step of a run: reward statistics over that step's stored
// trajectories, the trainer's loss, and any extra named values it sent.
import { EntitySchema } from 'typeorm';

export interface MetricPointRow {
  id: number;
  runId: number;
  step: number;
  epoch: number;
  totalTrajectories: number;
  avgReward: number | null;
  minReward: number | null;
  maxReward: number | null;
  rewardStd: number | null;
  trainingLoss: number | null;
  /** {name: number} as JSON text. */
  values: string;
  recordedAt: string;
}

export const MetricPointEntity = new EntitySchema<MetricPointRow>({
  name: 'MetricPoint',
  tableName: 'metric_points',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    runId: { name: 'run_id', type: 'integer' },
    step: { type: 'integer' },
    epoch: { type: 'integer' },
    totalTrajectories: { name: 'total_trajectories', type: 'integer' },
    avgReward: { name: 'avg_reward', type: 'double precision', nullable: true },
    minReward: { name: 'min_reward', type: 'double precision', nullable: true },
    maxReward: { name: 'max_reward', type: 'double precision', nullable: true },
    rewardStd: { name: 'reward_std', type: 'double precision', nullable: true },
    trainingLoss: { name: 'training_loss', type: 'double precision', nullable: true },
    values: { type: 'text' },
    recordedAt: { name: 'recorded_at', type: 'varchar', length: 32 },
  },
  relations: {
    run: { type: 'many-to-one', target: 'TrainingRun', joinColumn: { name: 'run_id' }, onDelete: 'CASCADE' },
  } as never,
  indices: [{ name: 'UQ_metric_points_run_step', columns: ['runId', 'step'], unique: true }],
});
