// Rows of ART groups: each trajectory's identity (a UUID derived from its run, split, step, group
// index and position, so a retried log maps onto the rows it made), its seed-readable view (task
// input and messages the seed's from_row parses), and its ART JSON as stored.
import { hash } from 'node:crypto';

import { firstUserText, seedViewMessages, type CheckedGroup, type JsonObject } from '../domain/art-trajectory';
import { jsonText } from '../domain/json-text';

export interface ArtTrajectoryRow {
  uuid: string;
  groupIndex: number;
  position: number;
  taskInput: string;
  messages: string;
  reward: number | null;
  metadata: string;
  art: string;
}

export interface ArtGroupRows {
  groupIndex: number;
  art: string;
  trajectories: ArtTrajectoryRow[];
}

/** A name-based UUID (RFC 9562 version 8, SHA-256): the same inputs always give the same id. */
export function derivedUuid(...parts: Array<string | number>): string {
  // One-shot hash as hex (no Hash object, no Buffer per row); the version and variant set on the hex.
  const hex = hash('sha256', parts.join('\u0000'), 'hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function artGroupRows(
  runUuid: string,
  split: string,
  step: number,
  groups: Array<CheckedGroup & { index: number }>,
  pendingReward?: (trajectory: JsonObject) => boolean,
): ArtGroupRows[] {
  return groups.map((g) => ({
    groupIndex: g.index,
    art: jsonText(g.group),
    trajectories: g.trajectories.map((t: JsonObject, position) => {
      const messages = seedViewMessages(t.messages_and_choices);
      return {
        uuid: derivedUuid('atelier-art-trajectory', runUuid, split, step, g.index, position),
        groupIndex: g.index,
        position,
        taskInput: jsonText({ step, input_text: firstUserText(messages), context: null }),
        messages: jsonText(messages),
        reward: typeof t.reward === 'number' && !pendingReward?.(t) ? t.reward : null,
        metadata: jsonText(t.metadata ?? {}),
        art: jsonText(t),
      };
    }),
  }));
}
