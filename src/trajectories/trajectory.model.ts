// A trajectory as the rest of Atelier sees it, and its conversion to and from the seed's row layout.
import type { TrajectoryRow } from '../db/entities';
import { parseJsonObject } from '../db/json';
import { parseDate } from '../db/timestamps';
import { jsonText } from '../domain/json-text';
import type { TaskInput } from '../runs/run.model';

export type { TaskInput };

/** The seed's TrajectoryMessage (role, content), with ART's tool fields when the message has them. */
export interface TrajectoryMessage {
  role: string;
  content: string;
  toolCalls?: Array<{ id: string; type: string; name: string; arguments: string }> | null;
  toolCallId?: string | null;
  name?: string | null;
  /** An ART choice: the model's own turn, trained on. */
  trainable?: boolean;
}

export interface Trajectory {
  id: number;
  uuid: string;
  runId: number;
  taskInput: TaskInput;
  messages: TrajectoryMessage[];
  reward: number | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
  split: string;
  groupId: number | null;
  /** Pipeline rollouts: the trained choice verbatim, as JSON text. */
  choice: string | null;
}

/** The seed serializes TaskInput with pydantic: {"step", "input_text", "context"}. */
export function taskInputToJson(t: TaskInput): string {
  return jsonText({ step: t.step, input_text: t.inputText, context: t.context });
}

export function taskInputFromJson(text: string): TaskInput {
  const o = JSON.parse(text) as { step?: unknown; input_text?: unknown; context?: unknown };
  return {
    step: typeof o.step === 'number' ? o.step : 0,
    inputText: typeof o.input_text === 'string' ? o.input_text : '',
    context: o.context && typeof o.context === 'object' ? (o.context as Record<string, unknown>) : null,
  };
}

/** Seed-shaped messages (recordTrajectories, the pipeline) as the `messages` column stores them. */
export function messagesToJson(messages: TrajectoryMessage[]): string {
  return jsonText(messages.map((m) => ({ role: m.role, content: m.content })));
}

/** The `messages` column: the seed's {role, content}, and for ART rows tool_calls, tool_call_id, name, trainable. */
export function messagesFromJson(text: string): TrajectoryMessage[] {
  const list = JSON.parse(text) as Array<Record<string, unknown>>;
  if (!Array.isArray(list)) return [];
  return list.map((m) => {
    const out: TrajectoryMessage = { role: String(m.role ?? ''), content: String(m.content ?? '') };
    if (Array.isArray(m.tool_calls))
      out.toolCalls = m.tool_calls.map(
        (c: { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } }) => ({
          id: String(c.id ?? ''),
          type: String(c.type ?? 'function'),
          name: String(c.function?.name ?? ''),
          arguments: String(c.function?.arguments ?? ''),
        }),
      );
    if (typeof m.tool_call_id === 'string') out.toolCallId = m.tool_call_id;
    if (typeof m.name === 'string') out.name = m.name;
    if (m.trainable === true) out.trainable = true;
    return out;
  });
}

/** The `messages` column text of trajectories read from rows, until their messages are replaced. */
const storedMessages = new WeakMap<Trajectory, string>();

/** The stored `messages` text this trajectory was read with, for writers that pass it through (page-plan.ts). */
export function storedMessagesText(t: Trajectory): string | undefined {
  return storedMessages.get(t);
}

export function trajectoryFromRow(row: TrajectoryRow): Trajectory {
  let messages: TrajectoryMessage[] | undefined;
  const t: Trajectory = {
    id: row.id,
    uuid: row.uuid,
    runId: row.runId,
    taskInput: taskInputFromJson(row.taskInput),
    // Parsed when first read: a page written from the stored text (page-plan.ts) never parses it.
    get messages() {
      return (messages ??= messagesFromJson(row.messages));
    },
    set messages(value) {
      messages = value;
      storedMessages.delete(t);
    },
    reward: row.reward,
    metadata: parseJsonObject(row.metadata),
    createdAt: parseDate(row.createdAt),
    split: row.split ?? 'train',
    groupId: row.groupId ?? null,
    choice: row.choice,
  };
  storedMessages.set(t, row.messages);
  return t;
}

/**
 * ART's Trajectory JSON for a row recorded in the seed's shape (recordTrajectories, the pipeline):
 * the conversation as messages (a pipeline rollout's trained turn as its choice, verbatim), the
 * reward (ART's default 0.0 when none), and the metadata values ART can hold (scalars).
 */
export function artOfSeedRow(t: Trajectory): Record<string, unknown> {
  const messages: unknown[] = t.messages.map((m) => ({ role: m.role, content: m.content }));
  if (t.choice && messages.length > 0) messages[messages.length - 1] = JSON.parse(t.choice);
  const metadata: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(t.metadata))
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) metadata[k] = v;
  return {
    messages_and_choices: messages,
    tools: null,
    additional_histories: [],
    reward: t.reward ?? 0,
    initial_policy_version: null,
    final_policy_version: null,
    metrics: {},
    metadata,
    logs: [],
  };
}
