// The body of POST /api/import/files: several files of one model folder in one request (one token of
// the mutation rate limit, one body under MAX_BODY_BYTES). A JSON line `{"files": [{path, size,
// sha256, from, length}, …]}`, then the files' bytes one after another in that order: `length` bytes
// of each, starting at byte `from` of the client's file (0 but for history.jsonl continuing).
import { ValidationError } from '../errors';

export const IMPORT_BATCH_TYPE = 'application/vnd.atelier.import-files';
/** Files per request. */
export const MAX_BATCH_FILES = 500;

export interface BatchFile {
  path: string;
  /** The client's file size, as its plan said. */
  size: number;
  sha256: string;
  /** Where in the client's file these bytes start. */
  from: number;
}

export function encodeImportBatch(files: Array<BatchFile & { bytes: Uint8Array }>): Uint8Array {
  const head = JSON.stringify({
    files: files.map(({ path, size, sha256, from, bytes }) => ({ path, size, sha256, from, length: bytes.length })),
  });
  return Buffer.concat([Buffer.from(`${head}\n`, 'utf8'), ...files.map((f) => f.bytes)]);
}

/** The files of a batch body, each with its bytes; a ValidationError names what is malformed. */
export function decodeImportBatch(body: Uint8Array): Array<BatchFile & { bytes: Uint8Array }> {
  const newline = body.indexOf(0x0a);
  let head: unknown;
  try {
    head = JSON.parse(Buffer.from(body.subarray(0, newline < 0 ? body.length : newline)).toString('utf8'));
  } catch {
    throw ValidationError.of('body', 'json', 'does not start with a JSON line naming the files');
  }
  const list = (head as { files?: unknown } | null)?.files;
  if (!Array.isArray(list))
    throw ValidationError.of('files', 'type', 'must be a list of {path, size, sha256, from, length}');
  if (list.length > MAX_BATCH_FILES)
    throw ValidationError.of('files', 'max', `at most ${MAX_BATCH_FILES} files per request, got ${list.length}`);
  const nonNegative = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  const parts = list.map((f, i) => {
    const o = (f ?? {}) as Record<string, unknown>;
    if (
      typeof o.path !== 'string' ||
      !o.path ||
      typeof o.sha256 !== 'string' ||
      ![o.size, o.from, o.length].every(nonNegative)
    )
      throw ValidationError.of(
        `files.${i}`,
        'type',
        'must be {path: string, size, from, length: non-negative integers, sha256: string}',
      );
    return {
      path: o.path,
      size: o.size as number,
      from: o.from as number,
      length: o.length as number,
      sha256: o.sha256,
    };
  });
  const rest = newline < 0 ? 0 : body.length - newline - 1;
  const declared = parts.reduce((n, p) => n + p.length, 0);
  if (newline < 0 || declared !== rest)
    throw ValidationError.of(
      'body',
      'length',
      `the files' lengths add up to ${declared} bytes, and ${rest} follow the JSON line`,
    );
  let at = newline + 1;
  return parts.map(({ length, ...p }) => ({ ...p, bytes: body.subarray(at, (at += length)) }));
}
