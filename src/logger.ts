// A minimal levelled logger writing one line per event to stderr. Everything it writes passes
// through the redactor, so credentials (and the configured secrets) never reach the log.
import { createRedactor, type Redactor } from './security/redact';

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';
const ORDER: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

export interface Logger {
  error(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  debug(msg: string, extra?: unknown): void;
}

export function createLogger(level: LogLevel, redactor: Redactor = createRedactor()): Logger {
  const at = (l: Exclude<LogLevel, 'silent'>) => (msg: string, extra?: unknown) => {
    if (ORDER[l] > ORDER[level]) return;
    const line = redactor.text(`${new Date().toISOString()} ${l.toUpperCase()} ${msg}`);
    if (extra === undefined) console.error(line);
    else console.error(line, redactor.value(extra));
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
