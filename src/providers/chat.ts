// A client for any OpenAI-compatible chat-completions API (OpenAI, vLLM, ART's inference server).
import { callJson, ProviderError, type RetryPolicy } from './http';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
}

/** A message of a tool-using conversation, as OpenAI's API takes it (an assistant turn may be only tool calls). */
export interface ToolChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: unknown[];
  tool_call_id?: string;
  name?: string;
  [key: string]: unknown;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** OpenAI function tools the model may call. */
  tools?: unknown[];
  temperature?: number;
  max_tokens?: number;
  logprobs?: boolean;
  response_format?:
    { type: 'json_object' } | { type: 'json_schema'; json_schema: { name: string; schema: unknown; strict?: boolean } };
}

/** The choice object as the server returned it: ART trains on it verbatim. */
export interface ChatChoice {
  index: number;
  finish_reason: string | null;
  message: { role: 'assistant'; content: string | null; [key: string]: unknown };
  logprobs?: unknown;
  [key: string]: unknown;
}

/** The token counts an OpenAI-compatible answer reports in `usage` (absent ones are 0). */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

function usageOf(answer: { usage?: unknown }): TokenUsage | null {
  const u = answer.usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
  if (!u || typeof u !== 'object') return null;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  return { promptTokens: n(u.prompt_tokens), completionTokens: n(u.completion_tokens) };
}

/** A request of a tool-using turn: the conversation so far and the tools the model may call. */
export interface ToolChatRequest extends Omit<ChatRequest, 'messages'> {
  messages: ToolChatMessage[];
}

export interface ChatClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  retry: RetryPolicy;
  what: string;
}

export class ChatClient {
  constructor(private readonly opts: ChatClientOptions) {}

  /** `onUsage` hears the answer's token counts, when the server reports them. */
  async complete(
    req: ChatRequest | ToolChatRequest,
    signal?: AbortSignal,
    onRetry?: (reason: string) => void,
    onUsage?: (usage: TokenUsage) => void,
  ): Promise<ChatChoice> {
    const headers: Record<string, string> = {};
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    const answer = await callJson<{ choices?: ChatChoice[]; usage?: unknown }>(
      `${this.opts.baseUrl.replace(/\/$/, '')}/chat/completions`,
      req,
      {
        timeoutMs: this.opts.timeoutMs,
        retry: this.opts.retry,
        signal,
        headers,
        what: `${this.opts.what} (${req.model})`,
        onRetry,
      },
    );
    const usage = onUsage ? usageOf(answer) : null;
    if (usage) onUsage!(usage);
    const choice = answer.choices?.[0];
    if (!choice || typeof choice.message !== 'object')
      throw new ProviderError(`${this.opts.what} (${req.model}): the answer has no choice`, 200, false);
    return choice;
  }

  /** A completion whose content must be JSON matching the caller's parser; the parser throws on a wrong shape. */
  async completeJson<T>(
    req: ChatRequest,
    parse: (value: unknown, raw: string) => T,
    signal?: AbortSignal,
    onUsage?: (usage: TokenUsage) => void,
  ): Promise<T> {
    const choice = await this.complete(req, signal, undefined, onUsage);
    const content = choice.message.content ?? '';
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch {
      throw new ProviderError(
        `${this.opts.what} (${req.model}): the answer is not valid JSON: ${content.slice(0, 200)}`,
        200,
        false,
      );
    }
    return parse(value, content);
  }
}
