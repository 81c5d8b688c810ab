import { ApiKeyEntity } from './api-key.entity';
import { ArtImportFileEntity } from './art-import-file.entity';
import { CheckpointEntity } from './checkpoint.entity';
import { DatasetEntity, DatasetItemEntity } from './dataset.entity';
import { EvaluationEntity } from './evaluation.entity';
import { GradientStepEntity } from './gradient-step.entity';
import { MetricPointEntity } from './metric-point.entity';
import { MetricValueEntity } from './metric-value.entity';
import { RunActivityEntity } from './run-activity.entity';
import { RunCostEntity } from './run-cost.entity';
import { RunSummaryEntity } from './run-summary.entity';
import { RunTagEntity } from './run-tag.entity';
import { StatusTransitionEntity } from './status-transition.entity';
import { TaskInputEntity } from './task-input.entity';
import { TrainingRunEntity } from './training-run.entity';
import { TrajectoryArtEntity } from './trajectory-art.entity';
import { TrajectoryGroupEntity } from './trajectory-group.entity';
import { TrajectoryEntity } from './trajectory.entity';

export * from './training-run.entity';
export * from './trajectory.entity';
export * from './status-transition.entity';
export * from './metric-point.entity';
export * from './task-input.entity';
export * from './gradient-step.entity';
export * from './api-key.entity';
export * from './trajectory-group.entity';
export * from './trajectory-art.entity';
export * from './metric-value.entity';
export * from './checkpoint.entity';
export * from './run-tag.entity';
export * from './run-summary.entity';
export * from './run-cost.entity';
export * from './dataset.entity';
export * from './art-import-file.entity';
export * from './evaluation.entity';
export * from './run-activity.entity';

export const entities = [
  TrainingRunEntity,
  TrajectoryEntity,
  StatusTransitionEntity,
  MetricPointEntity,
  TaskInputEntity,
  GradientStepEntity,
  ApiKeyEntity,
  TrajectoryGroupEntity,
  TrajectoryArtEntity,
  MetricValueEntity,
  CheckpointEntity,
  RunTagEntity,
  RunSummaryEntity,
  RunCostEntity,
  DatasetEntity,
  DatasetItemEntity,
  ArtImportFileEntity,
  EvaluationEntity,
  RunActivityEntity,
];
