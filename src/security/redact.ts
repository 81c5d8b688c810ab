// Redaction for everything Atelier writes out about itself (logs, error messages): credentials
// shaped like credentials, and the exact secret values found in the configuration, become
// [redacted]. Config is never logged whole; if something passes an object, credential-named
// fields are redacted too.
import { CREDENTIAL_VALUE_PATTERNS, isCredentialName, URL_CREDENTIALS } from '../domain/credentials';

export const REDACTED = '[redacted]';

export interface Redactor {
  text(text: string): string;
  value(value: unknown): unknown;
  /** A secret learned at run time (an inference key a backend hands out): redacted from then on. */
  remember(secret: string): void;
}

/** Every non-trivial string in the config held in a field whose name says it is a credential. */
export function secretsIn(config: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 8 || !v || typeof v !== 'object') return;
    for (const [k, item] of Object.entries(v)) {
      if (
        typeof item === 'string' &&
        item.length >= 8 &&
        (isCredentialName(k) || /(key|token|secret|password)$/i.test(k))
      )
        out.push(item);
      else walk(item, depth + 1);
    }
  };
  walk(config, 0);
  return out;
}

export function createRedactor(secrets: string[] = []): Redactor {
  let known = [...new Set(secrets.filter((s) => s.length >= 8))].sort((a, b) => b.length - a.length);
  const text = (input: string): string => {
    let out = input;
    for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    out = out.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
    for (const pattern of CREDENTIAL_VALUE_PATTERNS)
      out = out.replace(pattern, (m) => (/^bearer/i.test(m) ? `Bearer ${REDACTED}` : REDACTED));
    return out;
  };
  const value = (input: unknown, depth = 0): unknown => {
    if (typeof input === 'string') return text(input);
    if (input instanceof Error) return text(input.stack ?? input.message);
    if (depth > 6 || input === null || typeof input !== 'object') return input;
    if (Array.isArray(input)) return input.map((v) => value(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input))
      out[k] = isCredentialName(k) && v != null ? REDACTED : value(v, depth + 1);
    return out;
  };
  const remember = (secret: string) => {
    if (secret.length >= 8 && !known.includes(secret)) known = [...known, secret].sort((a, b) => b.length - a.length);
  };
  return { text, value: (v) => value(v), remember };
}
