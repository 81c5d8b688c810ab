// A trajectory as the rest of Atelier sees it, and its conversion to and from the seed's row layout.
import type { TrajectoryRow } from '../db/entities';
import { parseJsonObject } from '../db/json';
import { parseDate } from '../db/timestamps';
import type { TaskInput } from '../runs/run.model';

export type { TaskInput };

/** The seed's TrajectoryMessage. */
export interface TrajectoryMessage {
  role: string;
  content: string;
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
}

/** The seed serializes TaskInput with pydantic: {"step", "input_text", "context"}. */
export function taskInputToJson(t: TaskInput): string {
  return JSON.stringify({ step: t.step, input_text: t.inputText, context: t.context });
}

export function taskInputFromJson(text: string): TaskInput {
  const o = JSON.parse(text) as { step?: unknown; input_text?: unknown; context?: unknown };
  return {
    step: typeof o.step === 'number' ? o.step : 0,
    inputText: typeof o.input_text === 'string' ? o.input_text : '',
    context: o.context && typeof o.context === 'object' ? (o.context as Record<string, unknown>) : null,
  };
}

export function messagesToJson(messages: TrajectoryMessage[]): string {
  return JSON.stringify(messages.map((m) => ({ role: m.role, content: m.content })));
}

export function messagesFromJson(text: string): TrajectoryMessage[] {
  const list = JSON.parse(text) as Array<{ role?: unknown; content?: unknown }>;
  return Array.isArray(list) ? list.map((m) => ({ role: String(m.role ?? ''), content: String(m.content ?? '') })) : [];
}

export function trajectoryFromRow(row: TrajectoryRow): Trajectory {
  return {
    id: row.id,
    uuid: row.uuid,
    runId: row.runId,
    taskInput: taskInputFromJson(row.taskInput),
    messages: messagesFromJson(row.messages),
    reward: row.reward,
    metadata: parseJsonObject(row.metadata),
    createdAt: parseDate(row.createdAt),
  };
}
