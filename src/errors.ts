// Expected outcomes a client must handle. Services throw these; the GraphQL layer turns them into
// typed results (mutations) or errors with a code (queries). Anything else is masked.

export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. "input.learningRate" or "trajectories.3.messages". */
  field: string;
  /** The rule that failed, e.g. "max", "too_small", "invalid_cursor". */
  rule: string;
  message: string;
}

export abstract class AtelierError extends Error {
  abstract readonly code: string;
}

export class ValidationError extends AtelierError {
  readonly code = 'BAD_USER_INPUT';
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((i) => `${i.field}: ${i.message}`).join('; '));
    this.name = 'ValidationError';
  }
  static of(field: string, rule: string, message: string): ValidationError {
    return new ValidationError([{ field, rule, message }]);
  }
}

export class NotFoundError extends AtelierError {
  readonly code = 'NOT_FOUND';
  constructor(
    readonly entity: string,
    readonly key: string,
  ) {
    super(`${entity} ${key} was not found`);
    this.name = 'NotFoundError';
  }
}

export class IllegalTransitionError extends AtelierError {
  readonly code = 'ILLEGAL_TRANSITION';
  constructor(
    readonly from: string,
    readonly to: string,
    detail?: string,
  ) {
    super(detail ?? `a run cannot go from ${from.toUpperCase()} to ${to.toUpperCase()}`);
    this.name = 'IllegalTransitionError';
  }
}

export class ConflictError extends AtelierError {
  readonly code = 'CONFLICT';
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/**
 * The tracking API (recordTrajectories, recordMetrics, transitionRun) writes only into TRACKED runs: a
 * PIPELINE run's trajectories, metrics and status are Atelier's own, and a foreign write would corrupt
 * them. Not a ConflictError: nothing stored disagrees and no retry or change of input helps; the client
 * is writing into the wrong kind of run, and `mode` says which kind it is.
 */
export class RunModeError extends AtelierError {
  readonly code = 'RUN_MODE';
  constructor(
    readonly runUuid: string,
    readonly mode: 'pipeline' | 'tracked',
  ) {
    super(
      mode === 'pipeline'
        ? `run ${runUuid} is a PIPELINE run: Atelier records its trajectories, metrics and status itself, so the tracking API (recordTrajectories, recordTrajectoryGroups, recordMetrics, recordCheckpoint, transitionRun) writes only into TRACKED runs (cancelTrainingRun still stops it)`
        : `run ${runUuid} is a TRACKED run: only PIPELINE runs take this operation`,
    );
    this.name = 'RunModeError';
  }
}

/** Internal: a pipeline write found its run no longer in the status it required (cancelled or failed meanwhile). */
export class RunNoLongerActiveError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RunNoLongerActiveError';
  }
}

/** The backend cannot serve the checkpoint asked for (the legacy `art run` serves only its latest). */
export class CheckpointNotServedError extends AtelierError {
  readonly code = 'CHECKPOINT_NOT_SERVED';
  constructor(
    readonly step: number,
    readonly servedStep: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'CheckpointNotServedError';
  }
}
