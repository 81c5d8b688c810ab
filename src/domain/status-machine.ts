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

/**
 * A PIPELINE run's path, the order Atelier drives it in; FAILED and CANCELLED are reachable from every
 * non-final state. A TRACKED run follows a script that may not have every stage: it may move to any
 * later status of this order (COLLECTING → COMPLETED, PENDING → TRAINING) and start a new step from
 * SCORING or TRAINING back at COLLECTING, but never go back otherwise.
 */
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

const ORDER: TrainingStatus[] = ['pending', 'generating', 'collecting', 'scoring', 'training', 'completed'];

/** Which runs move how: PIPELINE runs strictly, TRACKED runs forward past stages they do not have. */
export type TransitionRules = 'pipeline' | 'tracked';

export function canTransition(from: TrainingStatus, to: TrainingStatus, rules: TransitionRules = 'pipeline'): boolean {
  if (isFinal(from)) return false;
  if (to === 'failed' || to === 'cancelled') return true;
  if (rules === 'pipeline') return NEXT[from].includes(to);
  if (to === 'collecting' && (from === 'scoring' || from === 'training')) return true;
  return ORDER.indexOf(to) > ORDER.indexOf(from);
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
  rules: TransitionRules = 'pipeline',
): TransitionEffects {
  if (!canTransition(from, to, rules)) {
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
