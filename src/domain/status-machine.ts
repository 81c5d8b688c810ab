// The lifecycle of a training run. Every status change is checked here before it is written.
import { IllegalTransitionError, ValidationError } from '../errors';

export const TRAINING_STATUSES = [
  'pending',
  'generating',
  'collecting',
  'scoring',
  'training',
  'completed',
  'failed',
  'cancelled',
] as const;
export type TrainingStatus = (typeof TRAINING_STATUSES)[number];

export const FINAL_STATUSES: ReadonlySet<TrainingStatus> = new Set(['completed', 'failed', 'cancelled']);

/** The statuses of a run being driven: past PENDING, not yet final. */
export const ACTIVE_STATUSES: ReadonlySet<TrainingStatus> = new Set([
  'generating',
  'collecting',
  'scoring',
  'training',
]);

/** The forward path; FAILED and CANCELLED are reachable from every non-final state. */
const NEXT: Record<TrainingStatus, readonly TrainingStatus[]> = {
  pending: ['generating'],
  generating: ['collecting'],
  collecting: ['scoring'],
  scoring: ['training'],
  training: ['collecting', 'completed'],
  completed: [],
  failed: [],
  cancelled: [],
};

export function isFinal(status: TrainingStatus): boolean {
  return FINAL_STATUSES.has(status);
}

export function canTransition(from: TrainingStatus, to: TrainingStatus): boolean {
  if (isFinal(from)) return false;
  if (to === 'failed' || to === 'cancelled') return true;
  return NEXT[from].includes(to);
}

export interface TransitionEffects {
  /** Set startedAt when the run leaves PENDING. */
  setsStartedAt: boolean;
  /** Set completedAt when the run reaches a final state. */
  setsCompletedAt: boolean;
  /** The reason becomes the run's error (FAILED). */
  setsError: boolean;
}

/** Checks a transition and says what it changes on the run; throws a typed error when it is not allowed. */
export function planTransition(
  from: TrainingStatus,
  to: TrainingStatus,
  reason: string | null | undefined,
): TransitionEffects {
  if (!canTransition(from, to)) {
    const why = isFinal(from) ? `the run is ${from.toUpperCase()}, a final state` : undefined;
    throw new IllegalTransitionError(
      from,
      to,
      why && `a run cannot go from ${from.toUpperCase()} to ${to.toUpperCase()}: ${why}`,
    );
  }
  if (to === 'failed' && !reason?.trim()) {
    throw ValidationError.of('reason', 'required', 'a reason is required to mark a run FAILED');
  }
  return {
    setsStartedAt: from === 'pending',
    setsCompletedAt: isFinal(to),
    setsError: to === 'failed',
  };
}
