// One log of ART groups checked and built into rows, with no database: what recordGroups does
// before its transaction, and what the import's decode thread does beside the server's event loop.
import { checkArtGroups, type ArtGroupInput, type CheckedGroup, type JsonObject } from '../domain/art-trajectory';
import { ValidationError } from '../errors';
import { artGroupRows, type ArtGroupRows } from './art-rows';
import { MAX_TRAJECTORIES_PER_CALL } from './limits';

export interface PrepareInput extends ArtGroupInput {
  /** The group's position in its step; by default its position in this call. */
  index?: number | null;
}

/** One log of groups checked (and, given the run, built into rows) before its transaction. */
export interface PreparedGroups {
  prepared: true;
  step: number;
  split: string;
  /** The argument the groups came in, as error paths name it. */
  field: string;
  /** The checked groups (absent when only rows came back from the decode thread). */
  checked?: Array<CheckedGroup & { index: number }>;
  built?: {
    runUuid: string;
    pendingReward?: (trajectory: JsonObject) => boolean;
    rows: ArtGroupRows[];
  };
  total: number;
}

/** ART's rules over the groups (ValidationError naming the field), then, given the run, their rows. */
export function prepareGroups(
  step: number,
  split: string,
  input: PrepareInput[],
  options: {
    /** The argument the groups came in, as error paths name it (`groups` by default). */
    field?: string;
    /** Given the run, the rows are built too (their uuids derive from it). */
    build?: { runUuid: string; pendingReward?: (trajectory: JsonObject) => boolean };
  } = {},
): PreparedGroups {
  const field = options.field ?? 'groups';
  const build = options.build;
  const total = input.reduce((n, g) => n + g.trajectories.length, 0);
  if (total > MAX_TRAJECTORIES_PER_CALL)
    throw ValidationError.of(
      field,
      'max',
      `at most ${MAX_TRAJECTORIES_PER_CALL} trajectories per call across all groups, got ${total}`,
    );
  const checked = checkArtGroups(input, field).map((g, i) => ({ ...g, index: input[i].index ?? i }));
  const indexes = new Map<number, number>();
  checked.forEach((g, i) => {
    const first = indexes.get(g.index);
    if (first !== undefined)
      throw ValidationError.of(
        `${field}.${i}.index`,
        'unique',
        `group index ${g.index} appears twice (also at ${first})`,
      );
    indexes.set(g.index, i);
  });
  const built = build && {
    runUuid: build.runUuid,
    pendingReward: build.pendingReward,
    rows: artGroupRows(build.runUuid, split, step, checked, build.pendingReward),
  };
  return { prepared: true, step, split, field, checked, built, total };
}
