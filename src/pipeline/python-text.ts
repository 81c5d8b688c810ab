// Text exactly as ART's Python builds it, so RULER's prompt is byte for byte what ART sends:
// `json.dumps` with its defaults and `textwrap.dedent`.

/** Python's json.dumps(value) with default arguments: ", " and ": " separators, every non-ASCII character escaped. */
export function pythonJsonDumps(value: unknown): string {
  return dumps(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function dumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => dumps(v === undefined ? null : v)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${dumps(v)}`).join(', ')}}`;
  }
  // Strings, booleans, null and numbers print as JSON does (integral floats print without Python's ".0").
  return JSON.stringify(value) ?? 'null';
}

/** Python's textwrap.dedent: whitespace-only lines become empty, then the margin common to the other lines is removed. */
export function pythonDedent(text: string): string {
  const normalized = text.replace(/^[ \t]+$/gm, '');
  let margin: string | null = null;
  for (const match of normalized.matchAll(/^([ \t]*)[^ \t\n]/gm)) {
    const indent = match[1];
    if (margin === null || margin.startsWith(indent)) margin = indent;
    else if (!indent.startsWith(margin)) {
      let i = 0;
      while (i < margin.length && margin[i] === indent[i]) i++;
      margin = margin.slice(0, i);
    }
  }
  return margin ? normalized.replace(new RegExp(`^${margin}`, 'gm'), '') : normalized;
}
