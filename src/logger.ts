// A minimal levelled logger writing one line per event to stderr. Never pass secrets to it.
export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';
const ORDER: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

export interface Logger {
  error(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  debug(msg: string, extra?: unknown): void;
}

export function createLogger(level: LogLevel): Logger {
  const at = (l: Exclude<LogLevel, 'silent'>) => (msg: string, extra?: unknown) => {
    if (ORDER[l] > ORDER[level]) return;
    const line = `${new Date().toISOString()} ${l.toUpperCase()} ${msg}`;
    if (extra === undefined) console.error(line);
    else console.error(line, extra instanceof Error ? (extra.stack ?? extra.message) : extra);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
