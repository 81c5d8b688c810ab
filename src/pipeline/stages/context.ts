// What every stage gets from the loop in execution.ts: the run's dependencies and settings, the
// abort signal, write guards, and the progress it reports (which also keeps the stall watchdog quiet).
import type { PipelineSettings } from '../../domain/pipeline-settings';
import type { TrainingStatus } from '../../domain/status-machine';
import type { RunProgressEvent } from '../../events/topics';
import type { WriteGuard } from '../../runs/write-guard';
import type { PipelineDeps } from '../deps';

/** The current step's counters, as published in runProgress. */
export type StepProgress = Omit<RunProgressEvent, 'runId' | 'totalSteps' | 'at'>;

export interface StageContext {
  readonly deps: PipelineDeps;
  readonly runId: number;
  readonly settings: PipelineSettings;
  /** Aborted on cancel, shutdown, lost lease or stall: pass it to every call. */
  readonly signal: AbortSignal;
  /** The current step's counters; a stage updates them and calls publishProgress(). */
  readonly progress: StepProgress;
  /** The guard for a write made in the given stage. */
  guard(status: TrainingStatus): WriteGuard;
  /** Records that the run made progress (the watchdog fails a run that makes none for too long). */
  touch(): void;
  publishProgress(): void;
}
