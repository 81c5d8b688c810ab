// MCP: an MCP server (Streamable HTTP) as the environment, as ART's MCP-RL plays it. Atelier lists
// the server's tools with the official SDK, offers them to the model in training beside a
// `complete_task` tool, and runs the tool loop up to maxTurns: each tool call goes to the server,
// its result back as a tool message; `complete_task` (or a turn without tool calls) ends the episode.
// MCP servers give no reward: RULER ranks each group, with the tools in <available_tools>. Faults (a 5xx,
// a timeout, an unreachable server, a malformed answer) are mapped and retried as HTTP's are: faults.ts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import type { ToolChatMessage } from '../providers/chat';
import { AbortedError, ProviderError } from '../providers/http';
import { EnvironmentError, episodeFailure, playWithRetries, withRetries, type Attempt } from './faults';
import { conversationOf } from './http';
import {
  emptyTrajectory,
  type Episode,
  type EpisodeHooks,
  type EpisodeResult,
  type Rollout,
  type RolloutDeps,
} from './types';

export const MCP_DEFAULT_MAX_TURNS = 10;

/** The tool an agent calls to say it is done, as ART's MCP-RL examples give it. */
export const COMPLETE_TASK_TOOL = {
  type: 'function',
  function: {
    name: 'complete_task',
    description: 'Call this when the task is complete, with a short summary of the result.',
    parameters: {
      type: 'object',
      properties: { summary: { type: 'string', description: 'What was done and the answer.' } },
      required: ['summary'],
    },
  },
};

const DEFAULT_SYSTEM = `You are an MCP (Model Context Protocol) agent. Use the tools available to you to complete the user's task. When you are done, call complete_task with a summary of the result.`;

type Json = Record<string, unknown>;

/** A tool result's content as text: text parts joined, others named by type. */
function resultText(result: Json): string {
  const content = Array.isArray(result.content) ? (result.content as Json[]) : [];
  const text = content
    .map((c) => (typeof c.text === 'string' ? c.text : `[${String(c.type ?? 'content')}]`))
    .join('\n');
  return result.isError ? `error: ${text}` : text;
}

export class McpRollout implements Rollout {
  readonly kind = 'mcp' as const;

  constructor(
    private readonly deps: RolloutDeps,
    private readonly url: string,
    private readonly maxTurns: number,
  ) {}

  async play(episode: Episode, hooks: EpisodeHooks): Promise<EpisodeResult> {
    return playWithRetries(() => this.playOnce(episode, hooks), { retry: this.deps.retry, signal: hooks.signal });
  }

  private async playOnce(episode: Episode, hooks: EpisodeHooks): Promise<Attempt> {
    const trajectory = emptyTrajectory();
    let turns = 0;
    const client = new Client({ name: 'atelier', version: '1.0.0' });
    const options = { signal: hooks.signal, timeout: this.deps.timeoutMs };
    try {
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(this.url)), options);
      } catch (err) {
        throw new EnvironmentError(`MCP server ${this.url}: could not connect: ${(err as Error).message}`);
      }
      const listed = await this.mcp(() => client.listTools({}, options), 'tools/list', hooks.signal);
      const tools = [
        ...listed.tools.map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description ?? '', parameters: t.inputSchema },
        })),
        COMPLETE_TASK_TOOL,
      ];
      trajectory.tools = tools;
      trajectory.messages_and_choices.push(
        { role: 'system', content: episode.systemPrompt || DEFAULT_SYSTEM },
        { role: 'user', content: episode.scenario.input_text },
      );
      hooks.onTurn();
      while (turns < this.maxTurns) {
        const choice = await this.deps.chat.complete(
          {
            model: this.deps.model,
            messages: conversationOf(trajectory),
            tools,
            temperature: this.deps.temperature,
            logprobs: true,
          },
          hooks.signal,
        );
        trajectory.messages_and_choices.push(choice);
        turns++;
        hooks.onTurn();
        const calls = (choice.message.tool_calls ?? []) as Array<{
          id: string;
          function: { name: string; arguments: string };
        }>;
        // A turn without tool calls is the agent's final answer, as ART's MCP-RL rollout ends it.
        if (calls.length === 0) return { trajectory, reward: null, turns };
        let completed = false;
        for (const call of calls) {
          if (call.function.name === COMPLETE_TASK_TOOL.function.name) {
            completed = true;
            trajectory.messages_and_choices.push({
              role: 'tool',
              tool_call_id: call.id,
              content: 'Task marked complete.',
            });
            continue;
          }
          let args: Json;
          try {
            args = JSON.parse(call.function.arguments || '{}') as Json;
          } catch {
            trajectory.messages_and_choices.push({
              role: 'tool',
              tool_call_id: call.id,
              content: 'error: the arguments are not JSON',
            });
            continue;
          }
          const result = await this.mcp(
            () => client.callTool({ name: call.function.name, arguments: args }, undefined, options),
            `tools/call ${call.function.name}`,
            hooks.signal,
          );
          const message: ToolChatMessage = { role: 'tool', tool_call_id: call.id, content: resultText(result as Json) };
          trajectory.messages_and_choices.push(message);
          hooks.onTurn();
        }
        if (completed) return { trajectory, reward: null, turns };
      }
      return {
        trajectory,
        reward: null,
        turns,
        error: `EnvironmentError: the agent did not call complete_task within maxTurns (${this.maxTurns})`,
      };
    } catch (err) {
      return episodeFailure(err, trajectory, turns, hooks.signal, (t) => this.deps.redact(t));
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  /** One MCP request under the shared retry rule (faults.ts): a 5xx, a timeout (the SDK's own), a malformed answer is asked again. */
  private async mcp<T>(call: () => Promise<T>, what: string, signal: AbortSignal): Promise<T> {
    return withRetries(`MCP server ${this.url} ${what}`, call, { retry: this.deps.retry, signal });
  }
}

/** The server's tools by name and description: what scenarios for it are written from (the GENERATING stage). */
export async function listMcpTools(
  url: string,
  opts: { timeoutMs: number; signal: AbortSignal },
): Promise<Array<{ name: string; description: string }>> {
  const client = new Client({ name: 'atelier', version: '1.0.0' });
  const options = { signal: opts.signal, timeout: opts.timeoutMs };
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)), options);
    const listed = await client.listTools({}, options);
    return listed.tools.map((t) => ({ name: t.name, description: t.description ?? '' }));
  } catch (err) {
    if (opts.signal.aborted) throw new AbortedError(opts.signal.reason);
    throw new ProviderError(`MCP server ${url}: could not list its tools: ${(err as Error).message}`, null, false);
  } finally {
    await client.close().catch(() => undefined);
  }
}
