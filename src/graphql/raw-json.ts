// A part of an answer that is already JSON text, emitted verbatim by the HTTP answer's serializer
// instead of being rebuilt from objects and serialized again (Node 20 has no JSON.rawJSON). Any other
// serializer (graphql-ws, SSE, a plugin measuring the result) calls toJSON and gets the same value
// parsed, so an answer means the same whichever way it is written out.
import { randomBytes } from 'node:crypto';

/** Marks placeholders in one serialization: random per process, so no stored string can forge one. */
const NONCE = randomBytes(16).toString('hex');
const PLACEHOLDER = new RegExp(`"raw-json:${NONCE}:(\\d+)"`, 'g');

/** Set only while stringifyWithRawJson runs (JSON.stringify is synchronous): the pieces it will splice in. */
let emitting: string[] | null = null;

export class RawJson {
  /** `text` must be one JSON value, as JSON.stringify would write it. */
  constructor(readonly text: string) {}

  toJSON(): unknown {
    if (emitting) return `raw-json:${NONCE}:${emitting.push(this.text) - 1}`;
    return JSON.parse(this.text);
  }
}

/** JSON.stringify, with each RawJson's text in its place, verbatim. */
export function stringifyWithRawJson(value: unknown): string {
  const pieces: string[] = [];
  emitting = pieces;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    emitting = null;
  }
  return pieces.length ? text.replace(PLACEHOLDER, (_m, i: string) => pieces[Number(i)]) : text;
}
