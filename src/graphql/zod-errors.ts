// Turns a zod failure into Atelier's ValidationError: each issue names the field and the rule, and
// says what is wrong in Atelier's words ("must be at most 200 characters", "must be a UUID"), never
// in zod's defaults ("Too big: expected string to have <=200 characters").
import { z, type ZodError } from 'zod';
import type { $ZodRawIssue as RawIssue } from 'zod/v4/core';

import { ValidationError } from '../errors';

const FORMATS: Record<string, string> = {
  uuid: 'must be a UUID',
  guid: 'must be a UUID',
  email: 'must be an email address',
  url: 'must be a URL',
  datetime: 'must be an ISO-8601 date-time',
  date: 'must be an ISO-8601 date',
  regex: 'is not in the expected format',
};

const TYPES: Record<string, string> = {
  int: 'must be an integer',
  number: 'must be a finite number',
  string: 'must be a string',
  boolean: 'must be true or false',
  array: 'must be a list',
  object: 'must be an object',
};

const quote = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Atelier's phrasing of a zod issue: what a schema says when it gives no message of its own. */
export function atelierMessage(issue: RawIssue): string {
  switch (issue.code) {
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${max} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${max} items`;
      return issue.inclusive === false ? `must be less than ${max}` : `must be at most ${max}`;
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string')
        return issue.minimum === 1 ? 'must not be empty' : `must be at least ${min} characters`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return issue.minimum === 1 ? 'must not be empty' : `must have at least ${min} items`;
      return issue.inclusive === false ? `must be greater than ${min}` : `must be at least ${min}`;
    }
    case 'invalid_type':
      return TYPES[issue.expected] ?? `must be of type ${issue.expected}`;
    case 'invalid_format':
      return FORMATS[issue.format] ?? `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${quote(issue.values[0])}`
        : `must be one of ${issue.values.map(quote).join(', ')}`;
    case 'unrecognized_keys':
      return `has fields Atelier does not know: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'matches none of the accepted shapes';
    case 'invalid_key':
      return 'has an invalid key';
    case 'invalid_element':
      return 'has an invalid element';
    default:
      return 'is invalid';
  }
}

// zod asks this for every issue whose schema gave no message of its own (a schema's own message
// always wins). Set once, for the process: every zod schema in Atelier then speaks the same way.
z.config({ customError: atelierMessage });

export function validationErrorFromZod(error: ZodError): ValidationError {
  return new ValidationError(
    error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || '(arguments)',
      rule:
        issue.code === 'custom'
          ? String((issue as { params?: { rule?: string } }).params?.rule ?? 'custom')
          : issue.code,
      message: issue.message,
    })),
  );
}
