// The events Atelier publishes after a write commits. Payloads are plain JSON so they can cross
// Redis between instances; subscribers reload whatever else they need.

export interface RunStatusEvent {
  /** The status transition's id: increases with every transition, so it orders and resumes. */
  eventId: number;
  runId: number;
  projectName: string;
  from: string | null;
  to: string;
  at: string;
  reason: string | null;
}

export interface MetricsRecordedEvent {
  runId: number;
  /** The split of the points (train, val, …). */
  split: string;
  /** Steps of the history points just stored. */
  steps: number[];
}

export interface TrajectoriesRecordedEvent {
  runId: number;
  /** The step the batch was recorded for; null when it spans several. */
  step: number | null;
  count: number;
  trajectoryIds: number[];
}

export interface TrajectoriesScoredEvent {
  runId: number;
  /** The step the scored trajectories belong to; null when they span several. */
  step: number | null;
  /** The trajectories just given rewards (RULER scores one group at a time). */
  trajectoryIds: number[];
}

/** What a pipeline run is doing within its step: VALIDATE runs under the run's status of the moment (no status of its own). */
export type PipelineStage = 'collect' | 'score' | 'train' | 'validate';

export interface RunProgressEvent {
  runId: number;
  /** collect, score, train, or validate (its counters are then the validation's rollouts and judge calls). */
  stage: PipelineStage;
  step: number;
  totalSteps: number;
  epoch: number;
  rolloutsDone: number;
  rolloutsTotal: number;
  judgeCallsDone: number;
  judgeCallsTotal: number;
  gradientStepsDone: number;
  gradientStepsTotal: number | null;
  at: string;
}

/** An evaluation's status or progress changed (evaluateCheckpoint). */
export interface EvaluationUpdatedEvent {
  evaluationId: number;
  runId: number;
  projectName: string;
  status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
  rolloutsDone: number;
  rolloutsTotal: number;
  judgeCallsDone: number;
  judgeCallsTotal: number;
  at: string;
}

/** A TRACKED run went silent (no rows for STALL_TIMEOUT_SECONDS while not finished), or rows came again. */
export interface RunStallEvent {
  runId: number;
  projectName: string;
  stalled: boolean;
  /** When it was found stalled; null once active again. */
  stalledSince: string | null;
  /** When its last rows arrived (or it started, before any). */
  lastActivityAt: string;
  at: string;
}

export interface CheckpointRecordedEvent {
  runId: number;
  step: number;
}

export interface Topics {
  runStatus: RunStatusEvent;
  metricsRecorded: MetricsRecordedEvent;
  trajectoriesRecorded: TrajectoriesRecordedEvent;
  trajectoriesScored: TrajectoriesScoredEvent;
  runProgress: RunProgressEvent;
  evaluationUpdated: EvaluationUpdatedEvent;
  runStall: RunStallEvent;
  checkpointRecorded: CheckpointRecordedEvent;
}
export type TopicName = keyof Topics;
