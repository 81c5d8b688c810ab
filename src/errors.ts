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

/** Internal: a pipeline write found its run no longer in the status it required (cancelled or failed meanwhile). */
export class RunNoLongerActiveError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RunNoLongerActiveError';
  }
}
