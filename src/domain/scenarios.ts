// Scenarios a user gives a PIPELINE run instead of generated inputs: the seed's TaskInput (input text
// and a context object), each in the `train` part or the held-out `val` part. Checked here once for
// every door (inline `scenarios`, createDataset), against the same limits.
import { ValidationError, type ValidationIssue } from '../errors';
import { prng } from './prng';

export type ScenarioSplit = 'train' | 'val';

export interface Scenario {
  inputText: string;
  context: Record<string, unknown> | null;
  split: ScenarioSplit;
}

export const SCENARIO_LIMITS = {
  /** Items of one dataset (and inline scenarios of one run). */
  items: 10_000,
  inputText: 100_000,
  contextBytes: 64 * 1024,
  /** All items together, as JSON. */
  totalBytes: 16 * 1024 * 1024,
} as const;

export interface SplitsInput {
  /** How many items (not already marked) to hold out as `val`. */
  valCount?: number | null;
  /** Or which fraction of them, rounded down. */
  valFraction?: number | null;
  /** Seeds the deterministic choice of held-out items. Default 0. */
  seed?: number | null;
}

/** Checks items against the limits; every problem is reported at once, with its path (`items.3.inputText`). */
export function checkScenarios(items: Array<Omit<Scenario, 'split'> & { split?: string | null }>, path: string): void {
  const issues: ValidationIssue[] = [];
  const fail = (field: string, rule: string, message: string) => {
    if (issues.length < 20) issues.push({ field, rule, message });
  };
  if (items.length === 0) fail(path, 'min', 'must hold at least 1 item');
  if (items.length > SCENARIO_LIMITS.items) fail(path, 'max', `must hold at most ${SCENARIO_LIMITS.items} items`);
  let total = 0;
  items.forEach((item, i) => {
    if (item.inputText.trim() === '') fail(`${path}.${i}.inputText`, 'not_blank', 'must not be blank');
    if (item.inputText.length > SCENARIO_LIMITS.inputText)
      fail(`${path}.${i}.inputText`, 'max', `must be at most ${SCENARIO_LIMITS.inputText} characters`);
    if (item.split != null && item.split !== 'train' && item.split !== 'val')
      fail(`${path}.${i}.split`, 'enum', 'must be train or val');
    const context = item.context === null ? 0 : Buffer.byteLength(JSON.stringify(item.context), 'utf8');
    if (context > SCENARIO_LIMITS.contextBytes)
      fail(`${path}.${i}.context`, 'max_bytes', `must be at most ${SCENARIO_LIMITS.contextBytes} bytes as JSON`);
    total += Buffer.byteLength(item.inputText, 'utf8') + context;
  });
  if (total > SCENARIO_LIMITS.totalBytes)
    fail(path, 'max_bytes', `must be at most ${SCENARIO_LIMITS.totalBytes} bytes together`);
  if (issues.length) throw new ValidationError(issues);
}

/**
 * Each item's split: its own when it names one, else `val` for the held-out share that `splits`
 * asks for (chosen by a seeded shuffle, so the same input gives the same split), else `train`.
 * At least one item must stay in `train`.
 */
export function assignSplits(
  items: Array<Omit<Scenario, 'split'> & { split?: string | null }>,
  splits: SplitsInput | null | undefined,
  fields: { items: string; splits: string },
): Scenario[] {
  const out: Scenario[] = items.map((i) => ({
    inputText: i.inputText,
    context: i.context ?? null,
    split: i.split === 'val' ? 'val' : 'train',
  }));
  const open = items.map((i, n) => (i.split == null ? n : -1)).filter((n) => n >= 0);
  if (splits?.valCount != null && splits.valFraction != null)
    throw ValidationError.of(fields.splits, 'one_of', 'give valCount or valFraction, not both');
  const wanted = splits?.valCount ?? (splits?.valFraction != null ? Math.floor(open.length * splits.valFraction) : 0);
  if (wanted > open.length)
    throw ValidationError.of(
      `${fields.splits}.valCount`,
      'max',
      `must be at most ${open.length} (the items that name no split)`,
    );
  const random = prng(splits?.seed ?? 0);
  for (let i = open.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [open[i], open[j]] = [open[j], open[i]];
  }
  for (const n of open.slice(0, wanted)) out[n].split = 'val';
  if (!out.some((s) => s.split === 'train'))
    throw ValidationError.of(fields.items, 'train_required', 'at least one item must be in the train split');
  return out;
}
