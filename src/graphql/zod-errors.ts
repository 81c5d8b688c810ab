// Turns a zod failure into Atelier's ValidationError: each issue names the field and the rule.
import type { ZodError } from 'zod';
import { ValidationError } from '../errors';

export function validationErrorFromZod(error: ZodError): ValidationError {
  return new ValidationError(
    error.issues.map((issue) => ({
      field: issue.path.map(String).join('.') || '(arguments)',
      rule: issue.code === 'custom' ? String((issue as { params?: { rule?: string } }).params?.rule ?? 'custom') : issue.code,
      message: issue.message,
    })),
  );
}
