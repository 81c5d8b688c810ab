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

export interface RunProgressEvent {
  runId: number;
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

export interface Topics {
  runStatus: RunStatusEvent;
  metricsRecorded: MetricsRecordedEvent;
  trajectoriesRecorded: TrajectoriesRecordedEvent;
  trajectoriesScored: TrajectoriesScoredEvent;
  runProgress: RunProgressEvent;
}
export type TopicName = keyof Topics;
