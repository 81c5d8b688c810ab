// ART's Trajectory and TrajectoryGroup as JSON (pydantic's `model_dump(mode="json")`), checked and
// completed here without any GraphQL coercion: the one schema of ART's shapes every door uses
// (recordTrajectoryGroups, imports). It follows ART 0.5.17, PeterWofford/ART 679b236e
// (src/art/trajectories.py, src/art/types.py: messages are OpenAI ChatCompletionMessageParam, trained
// turns are openai Choice objects). Fields a newer ART adds are kept as they come; fields missing get
// ART's defaults, so what is stored reads back as ART's own dump would.
import { ValidationError, type ValidationIssue } from '../errors';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Trajectory's fields in the order pydantic dumps them, with their defaults (start_time is excluded from dumps). */
const TRAJECTORY_DEFAULTS: Array<[string, () => Json]> = [
  ['messages_and_choices', () => []],
  ['tools', () => null],
  ['additional_histories', () => []],
  ['reward', () => 0],
  ['initial_policy_version', () => null],
  ['final_policy_version', () => null],
  ['metrics', () => ({})],
  ['metadata', () => ({})],
  ['logs', () => []],
];

/** TrajectoryGroup's fields but `trajectories`, in dump order. */
const GROUP_DEFAULTS: Array<[string, () => Json]> = [
  ['exceptions', () => []],
  ['metadata', () => ({})],
  ['metrics', () => ({})],
  ['logs', () => []],
];

/** How deep a trajectory's (or a group's) JSON may nest: ART's own deepest (logprobs) is 9 levels. */
export const MAX_ART_DEPTH = 64;

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

class Checker {
  readonly issues: ValidationIssue[] = [];
  fail(path: string, rule: string, message: string): void {
    if (this.issues.length < 20) this.issues.push({ field: path, rule, message });
  }
  isObject(v: unknown): v is JsonObject {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  }
  object(v: unknown, path: string): v is JsonObject {
    if (this.isObject(v)) return true;
    this.fail(path, 'type', 'must be a JSON object');
    return false;
  }
  array(v: unknown, path: string): v is Json[] {
    if (Array.isArray(v)) return true;
    this.fail(path, 'type', 'must be a list');
    return false;
  }
  string(v: unknown, path: string, optional = false): void {
    if (optional && (v === undefined || v === null)) return;
    if (typeof v !== 'string') this.fail(path, 'type', 'must be a string');
  }
  finite(v: unknown, path: string): void {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(path, 'type', 'must be a finite number');
  }
  intOrNull(v: unknown, path: string): void {
    if (v !== null && v !== undefined && !Number.isInteger(v)) this.fail(path, 'type', 'must be an integer or null');
  }
  strings(v: unknown, path: string): void {
    if (v === undefined) return;
    if (this.array(v, path)) v.forEach((s, i) => this.string(s, `${path}.${i}`));
  }
  /** {str: number|bool}, as ART's metrics. */
  metrics(v: unknown, path: string): void {
    if (v === undefined || !this.object(v, path)) return;
    for (const [k, x] of Object.entries(v))
      if (typeof x !== 'boolean' && (typeof x !== 'number' || !Number.isFinite(x)))
        this.fail(`${path}.${k}`, 'type', 'must be a finite number or a boolean');
  }
  /** {str: float|int|str|bool|None}, as ART's metadata. */
  metadata(v: unknown, path: string): void {
    if (v === undefined || !this.object(v, path)) return;
    for (const [k, x] of Object.entries(v))
      if (x !== null && !['string', 'number', 'boolean'].includes(typeof x))
        this.fail(`${path}.${k}`, 'type', 'must be a string, number, boolean or null (ART keeps only scalars)');
  }
  content(v: unknown, path: string): void {
    if (v === undefined || v === null || typeof v === 'string') return;
    if (!Array.isArray(v)) return this.fail(path, 'type', 'must be a string, null or a list of content parts');
    v.forEach((part, i) => {
      if (!this.object(part, `${path}.${i}`)) return;
      this.string(part.type, `${path}.${i}.type`);
    });
  }
  toolCalls(v: unknown, path: string): void {
    if (v === undefined || v === null || !this.array(v, path)) return;
    v.forEach((call, i) => {
      const p = `${path}.${i}`;
      if (!this.object(call, p)) return;
      this.string(call.id, `${p}.id`);
      if (!this.object(call.function, `${p}.function`)) return;
      this.string(call.function.name, `${p}.function.name`);
      const args = call.function.arguments;
      if (typeof args !== 'string' && !this.isObject(args))
        this.fail(`${p}.function.arguments`, 'type', 'must be a JSON string or an object');
    });
  }
  message(m: JsonObject, path: string, roleRequired = true): void {
    if (m.role === undefined && !roleRequired) {
      // a choice's message may leave its role implied
    } else if (typeof m.role !== 'string' || !ROLES.has(m.role)) {
      this.fail(`${path}.role`, 'enum', `must be one of ${[...ROLES].join(', ')}`);
    }
    this.content(m.content, `${path}.content`);
    this.toolCalls(m.tool_calls, `${path}.tool_calls`);
    this.string(m.tool_call_id, `${path}.tool_call_id`, true);
    this.string(m.name, `${path}.name`, true);
  }
  messagesAndChoices(v: unknown, path: string): void {
    if (v === undefined || !this.array(v, path)) return;
    v.forEach((item, i) => {
      const p = `${path}.${i}`;
      if (!this.object(item, p)) return;
      if (isChoice(item)) {
        if (!this.object(item.message, `${p}.message`)) return;
        if (item.message.role !== undefined && item.message.role !== 'assistant')
          this.fail(`${p}.message.role`, 'enum', "a choice's message must be the assistant's");
        this.message(item.message, `${p}.message`, false);
        if (item.logprobs !== undefined && item.logprobs !== null) this.object(item.logprobs, `${p}.logprobs`);
        if (item.index !== undefined && !Number.isInteger(item.index))
          this.fail(`${p}.index`, 'type', 'must be an integer');
      } else {
        this.message(item, p);
      }
    });
  }
  tools(v: unknown, path: string): void {
    if (v === undefined || v === null || !this.array(v, path)) return;
    v.forEach((tool, i) => {
      const p = `${path}.${i}`;
      if (!this.object(tool, p)) return;
      if (!this.object(tool.function, `${p}.function`)) return;
      this.string(tool.function.name, `${p}.function.name`);
    });
  }
  /**
   * No NUL in any string or key, and at most MAX_ART_DEPTH levels of lists and objects: one
   * iterative walk (hostile nesting cannot overflow the stack), paths spelled only for what fails.
   */
  noNul(v: unknown, path: string): void {
    if (nulFreeAndShallow(v)) return;
    this.reportNul(v, path);
  }
  /** noNul's issues, with their paths: the walk that names what fails, run only when something does. */
  private reportNul(v: unknown, path: string): void {
    type Node = { v: unknown; key: string | number; parent: Node | null; depth: number };
    const where = (n: Node, key?: string | number) => {
      const parts: Array<string | number> = key === undefined ? [] : [key];
      for (let x: Node | null = n; x; x = x.parent) parts.push(x.key);
      return parts.reverse().join('.');
    };
    if (typeof v === 'string') {
      if (v.includes('\u0000')) this.fail(path, 'no_nul', 'must not contain the NUL character (U+0000)');
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const stack: Node[] = [{ v, key: path, parent: null, depth: 1 }];
    while (stack.length) {
      const node = stack.pop()!;
      if (node.depth > MAX_ART_DEPTH) {
        this.fail(where(node), 'max_depth', `must be nested at most ${MAX_ART_DEPTH} levels deep`);
        return;
      }
      const visit = (x: unknown, key: string | number) => {
        if (typeof x === 'string') {
          if (x.includes('\u0000'))
            this.fail(where(node, key), 'no_nul', 'must not contain the NUL character (U+0000)');
        } else if (typeof x === 'object' && x !== null) stack.push({ v: x, key, parent: node, depth: node.depth + 1 });
      };
      const o = node.v;
      if (Array.isArray(o)) for (let i = 0; i < o.length; i++) visit(o[i], i);
      else
        for (const k in o as JsonObject) {
          if (k.includes('\u0000'))
            this.fail(where(node), 'no_nul', 'keys must not contain the NUL character (U+0000)');
          visit((o as JsonObject)[k], k);
        }
    }
  }
}

/**
 * True when no string or key in v holds NUL and it nests at most MAX_ART_DEPTH levels: the check
 * noNul makes, with no paths and no allocation per value (one iterative walk, as hostile nesting
 * cannot overflow the stack).
 */
function nulFreeAndShallow(v: unknown): boolean {
  if (typeof v === 'string') return !v.includes('\u0000');
  if (typeof v !== 'object' || v === null) return true;
  const values: unknown[] = [v];
  const depths: number[] = [1];
  while (values.length) {
    const o = values.pop() as object;
    const depth = depths.pop()!;
    if (depth > MAX_ART_DEPTH) return false;
    if (Array.isArray(o)) {
      for (let i = 0; i < o.length; i++) {
        const x: unknown = o[i];
        if (typeof x === 'string') {
          if (x.includes('\u0000')) return false;
        } else if (typeof x === 'object' && x !== null) {
          values.push(x);
          depths.push(depth + 1);
        }
      }
    } else
      for (const k in o) {
        if (k.includes('\u0000')) return false;
        const x: unknown = (o as JsonObject)[k];
        if (typeof x === 'string') {
          if (x.includes('\u0000')) return false;
        } else if (typeof x === 'object' && x !== null) {
          values.push(x);
          depths.push(depth + 1);
        }
      }
  }
  return true;
}

/** An item of messages_and_choices is a Choice when it carries a `message` and no `role` of its own. */
export function isChoice(item: JsonObject): boolean {
  return item.role === undefined && typeof item.message === 'object' && item.message !== null;
}

/** The input's keys in their order, then ART's missing fields with their defaults. */
function complete(value: JsonObject, defaults: Array<[string, () => Json]>): JsonObject {
  // ART's own dumps have every field: those are kept as they are, not copied.
  let out: JsonObject | undefined;
  for (const [key, make] of defaults) if (!(key in value)) (out ??= { ...value })[key] = make();
  return out ?? value;
}

function checkTrajectory(c: Checker, t: unknown, path: string): t is JsonObject {
  if (!c.object(t, path)) return false;
  c.messagesAndChoices(t.messages_and_choices, `${path}.messages_and_choices`);
  c.tools(t.tools, `${path}.tools`);
  if (t.additional_histories !== undefined && c.array(t.additional_histories, `${path}.additional_histories`))
    t.additional_histories.forEach((h, i) => {
      const p = `${path}.additional_histories.${i}`;
      if (!c.object(h, p)) return;
      c.messagesAndChoices(h.messages_and_choices ?? [], `${p}.messages_and_choices`);
      c.tools(h.tools, `${p}.tools`);
    });
  if (t.reward !== undefined) c.finite(t.reward, `${path}.reward`);
  c.intOrNull(t.initial_policy_version, `${path}.initial_policy_version`);
  c.intOrNull(t.final_policy_version, `${path}.final_policy_version`);
  c.metrics(t.metrics, `${path}.metrics`);
  c.metadata(t.metadata, `${path}.metadata`);
  c.strings(t.logs, `${path}.logs`);
  c.noNul(t, path);
  return true;
}

export interface ArtGroupInput {
  trajectories: unknown[];
  metadata?: unknown;
  metrics?: unknown;
  logs?: unknown;
  exceptions?: unknown;
}

export interface CheckedGroup {
  /** The group's JSON without its trajectories, in ART's dump order. */
  group: JsonObject;
  trajectories: JsonObject[];
}

/** Checks groups of ART JSON; every problem is reported at once, with its path (`groups.0.trajectories.2.reward`). */
export function checkArtGroups(groups: ArtGroupInput[], path = 'groups'): CheckedGroup[] {
  const c = new Checker();
  const out: CheckedGroup[] = [];
  groups.forEach((g, gi) => {
    const p = `${path}.${gi}`;
    const trajectories: JsonObject[] = [];
    g.trajectories.forEach((t, ti) => {
      if (checkTrajectory(c, t, `${p}.trajectories.${ti}`)) trajectories.push(complete(t, TRAJECTORY_DEFAULTS));
    });
    c.metadata(g.metadata ?? undefined, `${p}.metadata`);
    c.metrics(g.metrics ?? undefined, `${p}.metrics`);
    c.strings(g.logs ?? undefined, `${p}.logs`);
    const exceptions = g.exceptions ?? [];
    if (c.array(exceptions, `${p}.exceptions`))
      exceptions.forEach((e, i) => {
        const ep = `${p}.exceptions.${i}`;
        if (!c.object(e, ep)) return;
        for (const k of ['type', 'message', 'traceback']) c.string(e[k], `${ep}.${k}`);
      });
    const group: JsonObject = {};
    for (const [key, make] of GROUP_DEFAULTS) {
      const given = (g as unknown as Record<string, unknown>)[key];
      group[key] = given === undefined || given === null ? make() : (given as Json);
    }
    c.noNul(group, p);
    out.push({ group, trajectories });
  });
  if (c.issues.length) throw new ValidationError(c.issues);
  return out;
}

/** One message as the seed's `messages` column keeps it: role and text content, plus ART's tool fields when present. */
export interface SeedViewMessage {
  role: string;
  content: string;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  name?: string;
  /** A choice: the model's own turn, the tokens training learns from. */
  trainable?: true;
}

/** A message's content as text: null is "", a part list is its text parts joined (others named by type). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (typeof part !== 'object' || part === null) return '';
      const p = part as Record<string, unknown>;
      if (typeof p.text === 'string') return p.text;
      if (typeof p.refusal === 'string') return p.refusal;
      return `[${String(p.type ?? 'part')}]`;
    })
    .join('\n');
}

function viewOf(m: JsonObject, trainable: boolean): SeedViewMessage {
  const out: SeedViewMessage = {
    role: typeof m.role === 'string' ? m.role : 'assistant',
    content: contentText(m.content),
  };
  if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0)
    out.tool_calls = m.tool_calls.map((call) => {
      const c = call as JsonObject;
      const fn = (c.function ?? {}) as JsonObject;
      return {
        id: String(c.id ?? ''),
        type: typeof c.type === 'string' ? c.type : 'function',
        function: {
          name: String(fn.name ?? ''),
          arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
        },
      };
    });
  if (typeof m.tool_call_id === 'string') out.tool_call_id = m.tool_call_id;
  if (typeof m.name === 'string') out.name = m.name;
  if (trainable) out.trainable = true;
  return out;
}

/** messages_and_choices as messages: a choice becomes its message, marked trainable (as ART's Parquet log does). */
export function seedViewMessages(messagesAndChoices: unknown): SeedViewMessage[] {
  if (!Array.isArray(messagesAndChoices)) return [];
  return messagesAndChoices.map((item) => {
    const o = item as JsonObject;
    return isChoice(o) ? viewOf(o.message as JsonObject, true) : viewOf(o, false);
  });
}

/** The text of the first user message: what the seed's TaskInput.input_text holds for an ART trajectory. */
export function firstUserText(messages: SeedViewMessage[]): string {
  return messages.find((m) => m.role === 'user')?.content ?? '';
}
