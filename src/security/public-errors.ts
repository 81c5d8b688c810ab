// Errors as they leave Atelier: credentials in a message (a key echoed back in "… got invalid value
// "atl_…"", say) are redacted, and internal extensions (the HTTP status hints) are dropped over
// graphql-ws, where yoga's response writer does not run.
import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import { isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';

import type { Redactor } from './redact';

/** Messages echo input ("… got invalid value "<16 MB>""): they are cut short before they leave. */
export const MAX_MESSAGE_LENGTH = 2000;

function clip(message: string): string {
  return message.length <= MAX_MESSAGE_LENGTH
    ? message
    : `${message.slice(0, MAX_MESSAGE_LENGTH)}… (${message.length - MAX_MESSAGE_LENGTH} more characters)`;
}

export function publicError(error: GraphQLError | GraphQLFormattedError, redactor: Redactor): GraphQLFormattedError {
  const json: GraphQLFormattedError =
    'toJSON' in error && typeof error.toJSON === 'function' ? error.toJSON() : { ...error };
  const { http: _http, unexpected: _unexpected, ...extensions } = (json.extensions ?? {}) as Record<string, unknown>;
  return {
    ...json,
    message: redactor.text(clip(json.message)),
    ...(Object.keys(extensions).length
      ? { extensions: redactor.value(extensions) as Record<string, unknown> }
      : { extensions: undefined }),
  };
}

function redactResult<T>(result: T, redactor: Redactor): T {
  const errors = (result as ExecutionResult | null)?.errors;
  for (const e of errors ?? []) {
    const error = e as { message: string; extensions?: Record<string, unknown> };
    if (typeof error.message === 'string') error.message = redactor.text(clip(error.message));
    // Keep the (non-serialised) http hints yoga reads for the status line; redact the rest.
    if (error.extensions && typeof error.extensions === 'object') {
      const { http, ...rest } = error.extensions;
      error.extensions = { ...(redactor.value(rest) as Record<string, unknown>), ...(http ? { http } : {}) };
    }
  }
  return result;
}

/** Redacts the messages of every error in every HTTP and SSE result. */
export function useRedactedErrors(redactor: Redactor): Plugin {
  return {
    onExecutionResult({ result, setResult }) {
      if (isAsyncIterable(result))
        setResult(mapAsyncIterator(result, (r) => redactResult(r, redactor)) as typeof result);
      else if (Array.isArray(result)) result.forEach((r) => redactResult(r, redactor));
      else redactResult(result, redactor);
    },
  };
}
