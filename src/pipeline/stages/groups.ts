// A step's stored trajectories grouped as RULER and the trainer see them (shared by score and train).
import type { TrajectoryRow } from '../../db/entities';
import { parseJsonObject } from '../../db/json';
import type { StageContext } from './context';

export interface Group {
  index: number;
  /** Rollouts that succeeded and belong to a group that was not dropped. */
  scorable: TrajectoryRow[];
}

/** A step's trajectories by group (metadata.group), keeping only what RULER and training may use. */
export function groupsOf(rows: TrajectoryRow[]): Group[] {
  const groups = new Map<number, Group>();
  for (const row of rows) {
    const meta = parseJsonObject(row.metadata);
    if (meta.kind !== 'rollout') continue;
    const index = Number(meta.group);
    const g = groups.get(index) ?? { index, scorable: [] };
    groups.set(index, g);
    // A trained turn: a single turn's choice, or (ART rows, groupId set) every choice in its ART JSON.
    if (!meta.error && !meta.dropped_reason && (row.choice || row.groupId !== null)) g.scorable.push(row);
  }
  return [...groups.values()].sort((a, b) => a.index - b.index);
}

/** A step's scored groups of at least two, as sent to the trainer (read from what is stored, so a resumed step counts right). */
export async function trainingGroups(ctx: StageContext, step: number): Promise<TrajectoryRow[][]> {
  return groupsOf(await ctx.deps.trajectories.forStep(ctx.runId, step))
    .map((g) => g.scorable.filter((t) => t.reward !== null))
    .filter((g) => g.length >= 2);
}
