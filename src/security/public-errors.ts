// Errors as they leave Atelier: credentials in a message (a key echoed back in "… got invalid value
// "atl_…"", say) are redacted, and internal extensions (the HTTP status hints) are dropped over
// graphql-ws, where yoga's response writer does not run.
import type { GraphQLError, GraphQLFormattedError, ExecutionResult } from 'graphql';
import { isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import type { Redactor } from './redact';

export function publicError(error: GraphQLError | GraphQLFormattedError, redactor: Redactor): GraphQLFormattedError {
  const json: GraphQLFormattedError = 'toJSON' in error && typeof error.toJSON === 'function' ? error.toJSON() : { ...error };
  const { http: _http, unexpected: _unexpected, ...extensions } = (json.extensions ?? {}) as Record<string, unknown>;
  return { ...json, message: redactor.text(json.message), ...(Object.keys(extensions).length ? { extensions } : { extensions: undefined }) };
}

function redactResult<T>(result: T, redactor: Redactor): T {
  const errors = (result as ExecutionResult | null)?.errors;
  if (errors) for (const e of errors) if (typeof e.message === 'string') (e as { message: string }).message = redactor.text(e.message);
  return result;
}

/** Redacts the messages of every error in every HTTP and SSE result. */
export function useRedactedErrors(redactor: Redactor): Plugin {
  return {
    onExecutionResult({ result, setResult }) {
      if (isAsyncIterable(result)) setResult(mapAsyncIterator(result, (r) => redactResult(r, redactor)) as typeof result);
      else if (Array.isArray(result)) result.forEach((r) => redactResult(r, redactor));
      else redactResult(result, redactor);
    },
  };
}
