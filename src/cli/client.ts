// The `atelier` command's HTTP client: every call has a timeout, bounded retries with backoff that
// honour Retry-After (src/providers/http.ts), and the command's cancellation (Ctrl-C).
import { callWithRetry, ProviderError } from '../providers/http';

export interface ClientOptions {
  url: string;
  key: string | null;
  signal?: AbortSignal;
  timeoutMs?: number;
  attempts?: number;
}

export class AtelierClient {
  readonly base: string;

  constructor(private readonly options: ClientOptions) {
    this.base = options.url.replace(/\/+$/, '');
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    return { ...(this.options.key ? { authorization: `Bearer ${this.options.key}` } : {}), ...extra };
  }

  async request(
    path: string,
    init: RequestInit & { headers?: Record<string, string> },
    what: string,
  ): Promise<Response> {
    try {
      return await callWithRetry(
        `${this.base}${path}`,
        { ...init, headers: this.headers(init.headers ?? {}) },
        {
          what,
          timeoutMs: this.options.timeoutMs ?? 120_000,
          retry: { attempts: this.options.attempts ?? 5, baseDelayMs: 500 },
          signal: this.options.signal,
        },
      );
    } catch (err) {
      if (err instanceof ProviderError) throw new Error(explain(err.message));
      throw err;
    }
  }

  async json<T>(path: string, init: RequestInit & { headers?: Record<string, string> }, what: string): Promise<T> {
    const res = await this.request(path, init, what);
    return (await res.json()) as T;
  }
}

/** The server's own error message out of its JSON answer, when there is one. */
function explain(message: string): string {
  const m = /^(.*?: HTTP \d+): (\{.*)$/s.exec(message);
  if (!m) return message;
  try {
    const body = JSON.parse(m[2]) as { error?: { message?: string } };
    return body.error?.message ? `${m[1]}: ${body.error.message}` : message;
  } catch {
    return message;
  }
}
