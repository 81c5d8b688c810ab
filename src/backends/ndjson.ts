// Reading a streamed NDJSON answer line by line, with an idle timeout between chunks and cancellation.
import { AbortedError, ProviderError } from '../providers/http';

/**
 * Calls onLine with each parsed line. A silence longer than idleMs, a broken connection or a line that
 * is not a JSON object throws ProviderError (transient for silence and breaks); the signal throws AbortedError.
 */
export async function readNdjson(
  res: Response,
  idleMs: number,
  what: string,
  onLine: (line: Record<string, unknown>) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (!res.body) throw new ProviderError(`${what}: no response body`, res.status, false);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const handle = (line: string) => {
    if (!line.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new ProviderError(`${what}: a stream line is not JSON: ${line.slice(0, 200)}`, 200, false);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new ProviderError(`${what}: a stream line is not a JSON object: ${line.slice(0, 200)}`, 200, false);
    onLine(parsed as Record<string, unknown>);
  };
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, idleMs, what, signal);
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        handle(line);
      }
    }
    handle(buffered + decoder.decode());
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    if (err instanceof ProviderError || err instanceof AbortedError) throw err;
    throw new ProviderError(`${what}: the stream broke (${err instanceof Error ? err.message : err})`, null, true);
  }
}

async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
  what: string,
  signal?: AbortSignal,
) {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ProviderError(`${what}: no training progress for ${Math.round(ms / 1000)} s`, null, true)),
          ms,
        );
      }),
      new Promise<never>((_, reject) => {
        if (!signal) return;
        onAbort = () => reject(new AbortedError(signal.reason));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
