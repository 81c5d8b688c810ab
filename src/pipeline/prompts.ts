// The prompts of ART's AutoRL notebook: training inputs and a system prompt from a task description.
import type { ChatRequest } from '../providers/chat';

export function inputsRequest(model: string, taskDescription: string, count: number): ChatRequest {
  return {
    model,
    temperature: 1.0,
    messages: [
      {
        role: 'system',
        content:
          'You are helping to create training data for an AI model. Given a task description, produce diverse, realistic input examples of varied length and difficulty, covering edge cases. Produce inputs only: the outputs will be judged separately.',
      },
      {
        role: 'user',
        content: `Task: ${taskDescription}\n\nGenerate ${count} diverse inputs for this task. Answer as JSON: {"inputs": [{"input": "..."}]}.`,
      },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'training_inputs',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            inputs: {
              type: 'array',
              items: {
                type: 'object',
                properties: { input: { type: 'string' } },
                required: ['input'],
                additionalProperties: false,
              },
            },
          },
          required: ['inputs'],
          additionalProperties: false,
        },
      },
    },
  };
}

export function systemPromptRequest(model: string, taskDescription: string): ChatRequest {
  return {
    model,
    temperature: 0.3,
    messages: [
      { role: 'system', content: 'You write clear, direct instructions for AI assistants.' },
      {
        role: 'user',
        content: `Write a system prompt for an AI assistant that performs this task:\n\n${taskDescription}\n\nAnswer with the system prompt only.`,
      },
    ],
  };
}

/** The inputs of a generator answer, trimmed, without blanks or duplicates. */
export function cleanInputs(answer: unknown): string[] {
  const list = (answer as { inputs?: unknown })?.inputs;
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const item of list) {
    const text =
      typeof item === 'string'
        ? item
        : typeof (item as { input?: unknown })?.input === 'string'
          ? (item as { input: string }).input
          : '';
    const trimmed = text.trim();
    if (trimmed) out.push(trimmed);
  }
  return out;
}
