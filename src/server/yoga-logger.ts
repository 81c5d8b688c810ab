// Yoga's own log lines, routed through Atelier's (redacting) logger. Kept apart from
// security/mask-errors.ts: this decides log levels, not what a client gets to see.
import type { YogaLogger } from 'graphql-yoga';

import type { Logger } from '../logger';
import { isClientError } from '../security/mask-errors';

/** Yoga's own log lines go through Atelier's (redacting) logger; clients' mistakes are not errors of ours. */
export function yogaLogger(logger: Logger): YogaLogger {
  const adapt =
    (log: Logger['info']) =>
    (...args: unknown[]) => {
      const error = args.find((a) => a instanceof Error);
      const text = args
        .filter((a) => !(a instanceof Error))
        .map((a) => (typeof a === 'string' ? a : JSON.stringify(a)))
        .join(' ');
      (error && isClientError(error) ? logger.debug : log)(text || 'refused a request', error);
    };
  return { debug: adapt(logger.debug), info: adapt(logger.info), warn: adapt(logger.warn), error: adapt(logger.error) };
}
