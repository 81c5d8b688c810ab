// JSON columns: objects are stored as JSON text; the seed writes NULL for an empty one.

/** JSON text (or NULL, as the seed writes for empty objects) to an object. */
export function parseJsonObject(text: string | null): Record<string, unknown> {
  if (!text) return {};
  const value: unknown = JSON.parse(text);
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
