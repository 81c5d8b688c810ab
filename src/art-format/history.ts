// ART's history.jsonl: one JSON object a line, appended by each `model.log` (ART 0.5.17,
// PeterWofford/ART 679b236e src/art/model.py `_log_metrics`; 0.4.x LocalBackend._log_metrics at
// v0.4.12 e3f79680 prefixes every key with its split). Keys keep their first path part when it is
// a section (reward, loss, …, data) or a split (train, val, test), else they get `<split>/`; each
// row adds training_step, time/wall_clock_sec, step and recorded_at (naive local time); NaN is dropped.
import { ValidationError } from '../errors';

/** ART 0.5.17 model.py METRIC_SECTIONS and METRIC_SPLITS. */
export const METRIC_SECTIONS = new Set([
  'reward',
  'loss',
  'offpolicy',
  'pipeline',
  'throughput',
  'costs',
  'time',
  'data',
]);
export const METRIC_SPLITS = new Set(['train', 'val', 'test']);

export interface HistoryRow {
  /** The row's 1-based line number in the file. */
  line: number;
  split: string;
  step: number;
  /** Every numeric key but `step`, under the name ART logged it with. */
  values: Record<string, number>;
  recordedAt: string | null;
}

export interface ParsedHistory {
  rows: HistoryRow[];
  /** Bytes of the text up to and including its last complete line: where the next read starts. */
  consumed: number;
  /** Whether a last line without its newline was left for later (a run still writing). */
  pending: boolean;
}

/**
 * The split a row was logged under, as `_log_metrics` prefixed it: the split its non-section keys
 * start with (`<split>/reward` decides when present); a row of section keys only (`loss/train`,
 * the trainer's metrics logged with split="train") is train's.
 */
export function splitOfRow(keys: string[]): string {
  const counts = new Map<string, number>();
  for (const key of keys) {
    const slash = key.indexOf('/');
    if (slash <= 0) continue;
    const first = key.slice(0, slash);
    if (METRIC_SECTIONS.has(first)) continue;
    if (key === `${first}/reward`) return first;
    counts.set(first, (counts.get(first) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [split, n] of counts) if (best === null || n > counts.get(best)!) best = split;
  return best ?? 'train';
}

/** A key as `_log_metrics` writes it for a split: kept when it already has a section or split, else `<split>/key`. */
export function historyKey(name: string, split: string): string {
  const slash = name.indexOf('/');
  if (slash > 0) {
    const first = name.slice(0, slash);
    if (METRIC_SECTIONS.has(first) || METRIC_SPLITS.has(first)) return name;
  }
  if (name === 'training_step') return name;
  return `${split}/${name}`;
}

const encoder = new TextEncoder();

/**
 * Parses history.jsonl text. A last line without its newline is left for later (ART appends a row
 * and its newline in one write, so a line without one is still being written); a complete line that
 * is not a JSON object with an integer `step` is an error naming the line.
 */
export function parseHistory(text: string, file = 'history.jsonl'): ParsedHistory {
  const end = text.lastIndexOf('\n') + 1;
  const complete = text.slice(0, end);
  const rows: HistoryRow[] = [];
  complete.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw ValidationError.of(
        `${file}:${i + 1}`,
        'json',
        'is not a JSON object (ART writes one json.dumps(row) a line)',
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw ValidationError.of(`${file}:${i + 1}`, 'type', 'must be a JSON object');
    const o = parsed as Record<string, unknown>;
    const step = o.step ?? o.training_step;
    if (typeof step !== 'number' || !Number.isInteger(step) || step < 0)
      throw ValidationError.of(
        `${file}:${i + 1}.step`,
        'required',
        'must be a non-negative integer (every ART history row has one)',
      );
    const values: Record<string, number> = {};
    for (const [k, v] of Object.entries(o)) {
      if (k === 'step') continue;
      if (typeof v === 'number' && Number.isFinite(v)) values[k] = v;
      else if (typeof v === 'boolean') values[k] = v ? 1 : 0;
    }
    rows.push({
      line: i + 1,
      split: splitOfRow(Object.keys(values)),
      step,
      values,
      recordedAt: typeof o.recorded_at === 'string' ? o.recorded_at : null,
    });
  });
  return {
    rows,
    consumed: encoder.encode(complete).length,
    pending: end < text.length && text.slice(end).trim() !== '',
  };
}

/**
 * The rows of one (split, step) merged as Atelier keeps them: one point, the first value of a name
 * winning (ART writes time/wall_clock_sec and training_step on every row; the first is the step's).
 */
export function mergeRows(rows: HistoryRow[]): Map<string, Map<number, Record<string, number>>> {
  const out = new Map<string, Map<number, Record<string, number>>>();
  for (const r of rows) {
    const bySplit = out.get(r.split) ?? new Map<number, Record<string, number>>();
    out.set(r.split, bySplit);
    const values = bySplit.get(r.step) ?? {};
    for (const [k, v] of Object.entries(r.values)) if (!(k in values)) values[k] = v;
    bySplit.set(r.step, values);
  }
  return out;
}

/** ART's naive local time, as Python's datetime.now().isoformat() writes it. */
export function naiveLocalIso(date: Date): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds() * 1000, 6)}`
  );
}

/** One history.jsonl line as `_log_metrics` writes it: the values (NaN dropped), then step and recorded_at. */
export function historyLine(values: Record<string, number>, step: number, recordedAt: string): string {
  const row: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (Number.isFinite(v)) row[k] = v;
  row.step = step;
  row.recorded_at = recordedAt;
  return `${JSON.stringify(row)}\n`;
}
