// How dates are stored: ISO-8601 text in UTC with an explicit +00:00 offset. Python's
// datetime.fromisoformat (which the seed's from_row uses) reads that on every version, where a
// trailing "Z" needs Python 3.11; and one fixed format keeps text order equal to time order.
export function toStoredDate(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}

export function nowStored(): string {
  return toStoredDate(new Date());
}

/** A stored date back to a Date (NULL stays null). */
export function parseDate(text: string): Date;
export function parseDate(text: string | null): Date | null;
export function parseDate(text: string | null): Date | null {
  return text === null ? null : new Date(text);
}
