// ART's groups as one JSON text, the bulk door of recordTrajectoryGroups (`groupsJson`): what
// `json.dumps([g.model_dump(mode="json") for g in groups])` gives, each element shaped like
// TrajectoryGroupInput ({index?, trajectories, metadata?, metrics?, logs?, exceptions?}). The text is
// parsed once, with no per-value GraphQL coercion; this module enforces what coercion and
// TrajectoryGroupInput's validators enforce on `groups` (a list of objects of known fields, index an
// integer 0..1,000,000, lists bounded), and gives the same input the service takes, which then runs
// the checks both doors share (checkArtGroups: ART's shapes, NUL, nesting depth, the per-call total).
import { ValidationError, type ValidationIssue } from '../errors';
import type { ArtGroupInput } from './art-trajectory';

export interface ArtGroupJsonInput extends ArtGroupInput {
  index?: number | null;
}

const MAX_INDEX = 1_000_000;
const MAX_LOGS = 10_000;
const MAX_EXCEPTIONS = 10_000;
const FIELDS = new Set(['index', 'trajectories', 'metadata', 'metrics', 'logs', 'exceptions']);

/** At most this many issues are reported (as checkArtGroups does): enough to fix, never a whole batch echoed. */
const MAX_ISSUES = 20;

/**
 * The groups of a `groupsJson` text, checked as TrajectoryGroupInput checks `groups`; error paths
 * name the field (`groupsJson.3.trajectories`) and the rule. `maxPerCall` bounds the groups and each
 * group's trajectories, as `groups` is bounded.
 */
export function parseArtGroupsJson(text: string, maxPerCall: number, field = 'groupsJson'): ArtGroupJsonInput[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw ValidationError.of(field, 'json', `must be JSON text: ${(e as Error).message}`);
  }
  if (!Array.isArray(value)) throw ValidationError.of(field, 'invalid_type', 'must be a list of ART groups');
  if (value.length > maxPerCall) throw ValidationError.of(field, 'too_big', `must have at most ${maxPerCall} items`);

  const issues: ValidationIssue[] = [];
  const fail = (path: string, rule: string, message: string) => {
    if (issues.length < MAX_ISSUES) issues.push({ field: path, rule, message });
  };
  const list = (v: unknown, path: string, max: number): boolean => {
    if (!Array.isArray(v)) {
      fail(path, 'invalid_type', 'must be a list');
      return false;
    }
    if (v.length > max) fail(path, 'too_big', `must have at most ${max} items`);
    return true;
  };

  const groups = value as unknown[];
  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi];
    const p = `${field}.${gi}`;
    if (typeof g !== 'object' || g === null || Array.isArray(g)) {
      fail(p, 'invalid_type', 'must be an object (an ART TrajectoryGroup)');
      continue;
    }
    const o = g as Record<string, unknown>;
    for (const key in o)
      if (!FIELDS.has(key))
        fail(`${p}.${key}`, 'unrecognized_keys', `is not a field of TrajectoryGroupInput (${[...FIELDS].join(', ')})`);
    const index = o.index;
    if (index !== undefined && index !== null) {
      if (typeof index !== 'number' || !Number.isInteger(index))
        fail(`${p}.index`, 'invalid_type', 'must be an integer');
      else if (index < 0) fail(`${p}.index`, 'too_small', 'must be at least 0');
      else if (index > MAX_INDEX) fail(`${p}.index`, 'too_big', `must be at most ${MAX_INDEX}`);
    }
    if (o.trajectories === undefined || o.trajectories === null)
      fail(`${p}.trajectories`, 'required', "is required (the group's list of ART trajectories)");
    else list(o.trajectories, `${p}.trajectories`, maxPerCall);
    if (o.logs !== undefined && o.logs !== null) list(o.logs, `${p}.logs`, MAX_LOGS);
    if (o.exceptions !== undefined && o.exceptions !== null) list(o.exceptions, `${p}.exceptions`, MAX_EXCEPTIONS);
  }
  if (issues.length) throw new ValidationError(issues);
  return groups as ArtGroupJsonInput[];
}
