// JSON.stringify's exact text for JSON data, faster: V8's stringify escapes every string character by
// character, while most strings an ART trajectory carries (message text) need no escape at all, which
// one regular-expression test tells three times faster. Anything but plain JSON data (a toJSON, a class
// instance, a boxed primitive, a cycle, very deep nesting) is handed to JSON.stringify whole, so the
// text is always the one JSON.stringify gives.

/** A character JSON.stringify escapes (quote, backslash, control character) or a surrogate, which may be lone. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Deeper than this, JSON.stringify itself writes the value (and throws what it throws on a cycle). */
const MAX_DEPTH = 256;

/** Thrown inside the walk when a value is not plain JSON data: the caller then uses JSON.stringify. */
const NOT_PLAIN = Symbol('not plain JSON data');

/** A string as JSON.stringify writes it. */
export function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

function write(v: unknown, depth: number): string | undefined {
  switch (typeof v) {
    case 'string':
      return jsonString(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object': {
      if (v === null) return 'null';
      if (depth > MAX_DEPTH) throw NOT_PLAIN;
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') throw NOT_PLAIN;
      const proto = Object.getPrototypeOf(v);
      if (Array.isArray(v)) {
        if (proto !== Array.prototype) throw NOT_PLAIN;
        let out = '[';
        for (let i = 0; i < v.length; i++) out += `${i ? ',' : ''}${write(v[i], depth + 1) ?? 'null'}`;
        return `${out}]`;
      }
      if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
      const o = v as Record<string, unknown>;
      let out = '{';
      let first = true;
      for (const key of Object.keys(o)) {
        const text = write(o[key], depth + 1);
        if (text === undefined) continue;
        out += `${first ? '' : ','}${jsonString(key)}:${text}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw NOT_PLAIN; // bigint: JSON.stringify throws its TypeError
  }
}

/** Exactly `JSON.stringify(value)`. */
export function jsonText(value: unknown): string {
  try {
    return write(value, 0) as string;
  } catch (e) {
    if (e !== NOT_PLAIN) throw e;
    return JSON.stringify(value);
  }
}
