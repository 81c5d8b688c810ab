// A conversation as ART records it: system, user, assistant and tool turns; the assistant's tool
// calls with their name and pretty-printed arguments, each linked to the tool result that answers it
// (by tool_call_id) and back; long conversations collapsed to their first and last turns; the
// trajectory's additional histories (sub-agents, compacted context) and offered tools, collapsible.
import { useState } from 'preact/hooks';

import type { Message, Trajectory } from './queries';

/** Conversations longer than this show their first and last turns only, until asked for the rest. */
export const COLLAPSE_OVER = 10;
const KEEP_HEAD = 3;
const KEEP_TAIL = 3;

/** JSON text pretty-printed; anything that is not JSON as it came. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** An element id from a trajectory's and a call's ids (ids may hold any character). */
const anchor = (kind: 'call' | 'result', scope: string, id: string) =>
  `${kind}-${scope}-${id}`.replace(/[^A-Za-z0-9_-]/g, '_');

function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((t) => {
    const fn =
      (t as { function?: { name?: unknown }; name?: unknown })?.function?.name ?? (t as { name?: unknown })?.name;
    return typeof fn === 'string' ? fn : '?';
  });
}

export function Conversation({ messages, scope, tools }: { messages: Message[]; scope: string; tools?: unknown }) {
  const [expanded, setExpanded] = useState(false);
  const calls = new Map(messages.flatMap((m) => m.toolCalls.map((c) => [c.id, c] as const)));
  const answered = new Set(messages.filter((m) => m.toolCallId).map((m) => m.toolCallId!));
  const collapsed = !expanded && messages.length > COLLAPSE_OVER;
  const hidden = collapsed ? messages.length - KEEP_HEAD - KEEP_TAIL : 0;
  const shown: Array<[number, Message]> = messages.map((m, i) => [i, m]);
  const head = collapsed ? shown.slice(0, KEEP_HEAD) : shown;
  const tail = collapsed ? shown.slice(messages.length - KEEP_TAIL) : [];

  /** Follows a link between a call and its result; a turn collapsed away is shown first. */
  const follow = (e: MouseEvent, target: string) => {
    e.preventDefault();
    const go = () => document.getElementById(target)?.scrollIntoView({ block: 'center' });
    if (document.getElementById(target)) go();
    else {
      setExpanded(true);
      requestAnimationFrame(go);
    }
  };

  const turn = ([i, m]: [number, Message]) => {
    if (m.role === 'tool' || m.toolCallId) {
      const call = m.toolCallId ? calls.get(m.toolCallId) : undefined;
      return (
        <div
          key={i}
          class="message role-tool"
          id={m.toolCallId ? anchor('result', scope, m.toolCallId) : undefined}
          data-tool-result={m.toolCallId ?? ''}
        >
          <span class="role">tool result</span>
          <div>
            <div class="tool-head">
              {call ? (
                <a
                  href={`#${anchor('call', scope, call.id)}`}
                  onClick={(e) => follow(e, anchor('call', scope, call.id))}
                  class="tool-link"
                >
                  ↑ <code class="tool-name">{call.name}</code>
                </a>
              ) : (
                <code class="tool-name">{m.name ?? 'tool'}</code>
              )}
              {m.toolCallId && <span class="muted small"> {m.toolCallId}</span>}
            </div>
            <pre class="content tool-output">{prettyJson(m.content)}</pre>
          </div>
        </div>
      );
    }
    return (
      <div key={i} class={`message role-${m.role}`}>
        <span class="role">{m.role}</span>
        <div>
          {m.content && <div class="content">{m.content}</div>}
          {m.toolCalls.map((c) => (
            <div key={c.id} class="tool-call" id={anchor('call', scope, c.id)} data-tool-call={c.id}>
              <div class="tool-head">
                <span class="muted small">calls</span> <code class="tool-name">{c.name}</code>
                {answered.has(c.id) ? (
                  <a
                    href={`#${anchor('result', scope, c.id)}`}
                    onClick={(e) => follow(e, anchor('result', scope, c.id))}
                    class="tool-link"
                  >
                    result ↓
                  </a>
                ) : (
                  <span class="muted small">no result</span>
                )}
              </div>
              <pre class="tool-args">{prettyJson(c.arguments)}</pre>
            </div>
          ))}
        </div>
      </div>
    );
  };

  const offered = toolNames(tools);
  return (
    <div class="messages">
      {offered.length > 0 && (
        <details class="tools-offered">
          <summary>
            Tools offered ({offered.length}): {offered.join(', ')}
          </summary>
          <pre class="json">{JSON.stringify(tools, null, 2)}</pre>
        </details>
      )}
      {head.map(turn)}
      {collapsed && (
        <button type="button" class="link more-turns" onClick={() => setExpanded(true)}>
          show {hidden} more turns
        </button>
      )}
      {tail.map(turn)}
    </div>
  );
}

export function AdditionalHistories({ trajectory }: { trajectory: Trajectory }) {
  if (trajectory.additionalHistories.length === 0) return null;
  return (
    <div class="extra-histories">
      {trajectory.additionalHistories.map((h, i) => (
        <details key={i} class="extra-history">
          <summary>
            Additional history {i + 1} · {h.messages.length} messages
          </summary>
          <Conversation messages={h.messages} tools={h.tools} scope={`${trajectory.id}-h${i}`} />
        </details>
      ))}
    </div>
  );
}
