// The plan of a run's trajectories page (Query.trajectories), graphql/connection-plan.ts: executing
// its edges field by field through graphql-js (about 19 fields a row, each with its resolve info,
// resolver and completion) cost ten times the SQL that read the rows. Edges selecting only the plain
// fields below are written straight to JSON; seed-shaped messages pass through as stored.
import { Kind } from 'graphql';

import {
  boolean,
  dateTime,
  float,
  int,
  json,
  leaf,
  list,
  nested,
  object,
  string,
  type ConnectionPlan,
  type FieldPlan,
} from '../graphql/connection-plan';
import { encodeGlobalId } from '../graphql/global-id';
import { storedMessagesText, type Trajectory, type TrajectoryMessage } from './trajectory.model';

interface PlannedEdge {
  readonly cursor: string;
  readonly node: Trajectory;
}

/** A JSON string as JSON.stringify writes it when it needs no escape: no quote, backslash, control character or lone surrogate. */
const PLAIN = String.raw`"(?:[^"\\\u0000-\u001f\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*"`;
const PLAIN_MESSAGES = new RegExp(
  String.raw`^\[\{"role":${PLAIN},"content":${PLAIN}\}(?:,\{"role":${PLAIN},"content":${PLAIN}\})*\]$`,
);
/** Per message, what `{"role":"","content":""}` and the comma after it add to its two strings. */
const MESSAGE_FRAME = '{"role":"","content":""},'.length;

/**
 * The characters of role and content (what response-size counts) in stored messages text that is
 * exactly a list of {role, content} as JSON.stringify writes it with nothing to escape; null otherwise.
 * Its strings then decode to themselves, so the text is what serializing the parsed list gives.
 */
function roleContentChars(text: string): number | null {
  if (text === '[]') return 0;
  if (!PLAIN_MESSAGES.test(text)) return null;
  let count = 0;
  for (let at = text.indexOf('{"role":"'); at !== -1; at = text.indexOf('{"role":"', at + 9)) count++;
  // The brackets, and one comma fewer than messages.
  return text.length - 2 + 1 - count * MESSAGE_FRAME;
}

const MESSAGE = object<TrajectoryMessage>('TrajectoryMessage', {
  role: string((m) => m.role),
  content: string((m) => m.content),
  toolCallId: string((m) => m.toolCallId, true),
  name: string((m) => m.name, true),
  trainable: boolean((m) => m.trainable === true),
});

const NODE_FIELDS: Record<string, FieldPlan<Trajectory>> = {
  id: leaf((t) => JSON.stringify(encodeGlobalId('Trajectory', t.id))),
  databaseId: int((t) => t.id),
  uuid: string((t) => t.uuid),
  reward: float((t) => t.reward, true),
  createdAt: dateTime((t) => t.createdAt),
  split: string((t) => t.split),
  step: int((t) => t.taskInput.step),
  metadata: json((t) => t.metadata, false),
  taskInput: nested(
    (t) => t.taskInput,
    object<Trajectory['taskInput']>('TaskInput', {
      step: int((i) => i.step),
      inputText: string((i) => i.inputText),
      context: json((i) => i.context, true),
    }),
  ),
  messages: (field) => {
    const write = list((t: Trajectory) => t.messages, MESSAGE)(field);
    if (!write) return null;
    // `messages { role content }` is what Atelier stores for seed-shaped rows: the stored text
    // itself, when it is that list exactly and has no character JSON.stringify would write otherwise.
    const roleContent = field.selectionSet?.selections
      .map((f) => (f.kind === Kind.FIELD && !f.alias ? f.name.value : ''))
      .join();
    if (roleContent !== 'role,content') return write;
    return (t, tally) => {
      const text = storedMessagesText(t);
      if (text === undefined) return write(t, tally);
      const chars = roleContentChars(text);
      if (chars === null) return write(t, tally);
      tally.bytes += chars;
      return text;
    };
  },
};

const EDGE = object<PlannedEdge>('TrajectoryEdge', {
  cursor: string((e) => e.cursor),
  node: nested((e) => e.node, object('Trajectory', NODE_FIELDS)),
});

/** Query.trajectories' page, planned: its resolver keeps the page it read (connection-plan.ts). */
export const trajectoriesPagePlan: ConnectionPlan<PlannedEdge> = { field: 'trajectories', edge: EDGE };
