// HTTP: an environment behind three calls, in the shape SkyRL-Gym (`init` → prompt, `step(action)` →
// observations, reward, done), OpenEnv (`reset()` / `step(action)` → observation, reward, done over
// HTTP) and verifiers' MultiTurnEnv (`env_response(messages, state)`, `is_completed`) share; the
// protocol is docs/ENVIRONMENTS.md.
//
//   POST {url}/reset {episodeId, scenario}               → {messages, tools}
//   POST {url}/step  {episodeId, turn, message}          → {messages, reward?, done, metrics?}
//   POST {url}/close {episodeId}                          (always, also on cancel and failure)
//
// Between reset and done, Atelier calls the model in training with the environment's tools and keeps
// every choice with its logprobs. A call that fails with a 5xx, a timeout, a reset connection or an
// answer that is not the protocol's JSON is sent again with backoff (a step carries its turn, so an
// environment can answer a repeat idempotently); an episode whose environment still fails, or that
// is not done within maxTurns, is played once more from reset, then stored failed with its cause.
// The mapping of those faults and both retry rules are shared with MCP: faults.ts.
import type { ToolChatMessage } from '../providers/chat';
import { callWithRetry } from '../providers/http';
import { EnvironmentError, episodeFailure, neverDone, playWithRetries, withRetries, type Attempt } from './faults';
import {
  emptyTrajectory,
  type ArtTrajectoryJson,
  type Episode,
  type EpisodeHooks,
  type EpisodeResult,
  type Rollout,
  type RolloutDeps,
} from './types';

export const HTTP_DEFAULT_MAX_TURNS = 10;
const CLOSE_TIMEOUT_MS = 5000;

export { EnvironmentError } from './faults';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Messages an environment may send: system, user and tool turns with text content. */
function checkMessages(v: unknown, where: string): ToolChatMessage[] {
  if (!Array.isArray(v)) throw new EnvironmentError(`${where}: messages must be a list`);
  return v.map((m, i) => {
    if (!isObject(m) || !['system', 'user', 'tool'].includes(String(m.role)))
      throw new EnvironmentError(`${where}: messages.${i}.role must be system, user or tool`);
    if (typeof m.content !== 'string') throw new EnvironmentError(`${where}: messages.${i}.content must be a string`);
    if (m.role === 'tool' && typeof m.tool_call_id !== 'string')
      throw new EnvironmentError(`${where}: messages.${i}.tool_call_id is required on a tool message`);
    const out: ToolChatMessage = { role: m.role as ToolChatMessage['role'], content: m.content };
    if (typeof m.tool_call_id === 'string') out.tool_call_id = m.tool_call_id;
    if (typeof m.name === 'string') out.name = m.name;
    return out;
  });
}

function checkTools(v: unknown, where: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new EnvironmentError(`${where}: tools must be a list`);
  v.forEach((t, i) => {
    if (!isObject(t) || !isObject(t.function) || typeof t.function.name !== 'string')
      throw new EnvironmentError(`${where}: tools.${i} must be an OpenAI function tool ({type, function: {name, …}})`);
  });
  return v;
}

function checkStep(v: unknown, where: string) {
  if (!isObject(v)) throw new EnvironmentError(`${where}: the answer must be a JSON object`);
  if (typeof v.done !== 'boolean') throw new EnvironmentError(`${where}: done must be a boolean`);
  if (v.reward !== undefined && v.reward !== null && (typeof v.reward !== 'number' || !Number.isFinite(v.reward)))
    throw new EnvironmentError(`${where}: reward must be a finite number or null`);
  const metrics: Record<string, number> = {};
  if (v.metrics !== undefined && v.metrics !== null) {
    if (!isObject(v.metrics)) throw new EnvironmentError(`${where}: metrics must be an object of numbers`);
    for (const [k, x] of Object.entries(v.metrics)) {
      if (typeof x !== 'number' || !Number.isFinite(x))
        throw new EnvironmentError(`${where}: metrics.${k} must be a finite number`);
      metrics[k] = x;
    }
  }
  return {
    messages: checkMessages(v.messages ?? [], where),
    done: v.done,
    reward: typeof v.reward === 'number' ? v.reward : null,
    metrics,
  };
}

/**
 * The conversation as ART's `get_messages` gives it (src/art/trajectories.py, PeterWofford/ART 679b236e):
 * each choice becomes {role: "assistant", content (never null), tool_calls (when it has any, each
 * dumped as openai's model does: id, function {arguments, name}, type)}; a message's null content is "".
 * It is what the model is sent on the next turn, and what RULER judges, so its prompt is ART's byte for byte.
 */
export function conversationOf(trajectory: Pick<ArtTrajectoryJson, 'messages_and_choices'>): ToolChatMessage[] {
  return trajectory.messages_and_choices.map((item) => {
    if (item.role !== undefined) return { ...item, content: (item.content as string | null) ?? '' } as ToolChatMessage;
    const message = (item.message ?? {}) as Json;
    const out: ToolChatMessage = { role: 'assistant', content: (message.content as string | null) ?? '' };
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
    if (calls.length > 0)
      out.tool_calls = calls.map((c) => {
        const fn = (c.function ?? {}) as Json;
        return { id: c.id, function: { arguments: fn.arguments, name: fn.name }, type: c.type ?? 'function' };
      });
    return out;
  });
}

export class HttpRollout implements Rollout {
  readonly kind = 'http' as const;
  private readonly base: string;

  constructor(
    private readonly deps: RolloutDeps,
    url: string,
    private readonly maxTurns: number,
  ) {
    this.base = url.replace(/\/+$/, '');
  }

  async play(episode: Episode, hooks: EpisodeHooks): Promise<EpisodeResult> {
    return playWithRetries(() => this.playOnce(episode, hooks), { retry: this.deps.retry, signal: hooks.signal });
  }

  private async playOnce(episode: Episode, hooks: EpisodeHooks): Promise<Attempt> {
    const trajectory = emptyTrajectory();
    let turns = 0;
    try {
      const reset = await this.call('reset', { episodeId: episode.id, scenario: episode.scenario }, hooks.signal);
      const where = `environment ${this.base}/reset`;
      if (!isObject(reset)) throw new EnvironmentError(`${where}: the answer must be a JSON object`);
      const messages = checkMessages(reset.messages, where);
      const tools = checkTools(reset.tools, where);
      trajectory.tools = tools.length ? tools : null;
      if (episode.systemPrompt && !messages.some((m) => m.role === 'system'))
        trajectory.messages_and_choices.push({ role: 'system', content: episode.systemPrompt });
      trajectory.messages_and_choices.push(...messages);
      hooks.onTurn();

      while (turns < this.maxTurns) {
        const choice = await this.deps.chat.complete(
          {
            model: this.deps.model,
            messages: conversationOf(trajectory),
            ...(tools.length ? { tools } : {}),
            temperature: this.deps.temperature,
            logprobs: true,
          },
          hooks.signal,
        );
        trajectory.messages_and_choices.push(choice);
        turns++;
        hooks.onTurn();
        const step = checkStep(
          await this.call('step', { episodeId: episode.id, turn: turns, message: choice.message }, hooks.signal),
          `environment ${this.base}/step`,
        );
        trajectory.messages_and_choices.push(...step.messages);
        Object.assign(trajectory.metrics, step.metrics);
        hooks.onTurn();
        if (step.done) {
          if (step.reward !== null) trajectory.reward = step.reward;
          return { trajectory, reward: step.reward, turns };
        }
      }
      return neverDone(
        trajectory,
        turns,
        `environment ${this.base} did not say done within maxTurns (${this.maxTurns})`,
      );
    } catch (err) {
      return episodeFailure(err, trajectory, turns, hooks.signal, (t) => this.deps.redact(t));
    } finally {
      await this.close(episode.id);
    }
  }

  /** One call of the protocol, under the shared retry rule (faults.ts): 5xx, timeouts, broken connections, malformed JSON. */
  private async call(path: 'reset' | 'step', body: Json, signal: AbortSignal): Promise<unknown> {
    const what = `environment ${this.base}/${path}`;
    return withRetries(
      what,
      async () => {
        const res = await callWithRetry(
          `${this.base}/${path}`,
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
          { timeoutMs: this.deps.timeoutMs, retry: { ...this.deps.retry, attempts: 1 }, signal, what },
        );
        const text = await res.text();
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new EnvironmentError(`${what}: the answer is not JSON: ${text.slice(0, 200)}`, 'malformed');
        }
      },
      { retry: this.deps.retry, signal },
    );
  }

  /** Ends the episode on the environment's side; bounded on its own, since the run's signal may have fired. */
  private async close(episodeId: string): Promise<void> {
    try {
      await fetch(`${this.base}/close`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ episodeId }),
        signal: AbortSignal.timeout(CLOSE_TIMEOUT_MS),
      });
    } catch {
      // An environment that cannot be reached to close an episode has nothing left to free.
    }
  }
}
