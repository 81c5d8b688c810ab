import { ApiKeyEntity } from './api-key.entity';
import { GradientStepEntity } from './gradient-step.entity';
import { MetricPointEntity } from './metric-point.entity';
import { StatusTransitionEntity } from './status-transition.entity';
import { TaskInputEntity } from './task-input.entity';
import { TrainingRunEntity } from './training-run.entity';
import { TrajectoryEntity } from './trajectory.entity';

export * from './training-run.entity';
export * from './trajectory.entity';
export * from './status-transition.entity';
export * from './metric-point.entity';
export * from './task-input.entity';
export * from './gradient-step.entity';
export * from './api-key.entity';

export const entities = [
  TrainingRunEntity,
  TrajectoryEntity,
  StatusTransitionEntity,
  MetricPointEntity,
  TaskInputEntity,
  GradientStepEntity,
  ApiKeyEntity,
];
