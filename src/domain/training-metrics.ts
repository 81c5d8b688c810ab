// The seed's TrainingMetrics: a run's latest reward statistics, trajectory total and loss.
export interface TrainingMetrics {
  totalTrajectories: number;
  avgReward: number | null;
  minReward: number | null;
  maxReward: number | null;
  trainingLoss: number | null;
  epoch: number;
  step: number;
}

export const EMPTY_METRICS: TrainingMetrics = {
  totalTrajectories: 0,
  avgReward: null,
  minReward: null,
  maxReward: null,
  trainingLoss: null,
  epoch: 0,
  step: 0,
};
