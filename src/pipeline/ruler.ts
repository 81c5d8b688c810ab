// RULER, as ART scores (src/art/rewards/ruler.py at OpenPipe/ART 6767051cd7a894768f0d4c82de219ed6ef97d696):
// one judge call scores a group of trajectories for the same input relative to each other. The
// whole messages all trajectories share are sent once as <context>, the tools inside
// <available_tools>, then each trajectory's remaining messages under "Trajectories:", numbered from 1.
// Identical trajectories are sent once, whole, and the one score is copied to all of them.
//
// Atelier adds what ART leaves to the caller: the prompt ends with the exact number of scores and
// their ids, and a wrong set of ids is asked again once, with the bad answer and what was wrong.
import { z } from 'zod';

import type { ChatMessage, ChatRequest } from '../providers/chat';
import { pythonDedent, pythonJsonDumps } from './python-text';

/** ART's DEFAULT_RUBRIC, as `textwrap.dedent` leaves it (a leading and a trailing newline included). */
export const DEFAULT_RUBRIC = `
- A trajectory that achieves its goal should always get a significantly higher score than a trajectory that does not achieve its goal.
- A trajectory that achieves its goal more efficiently (eg. by avoiding unproductive detours) should get a higher score than a trajectory that achieves its goal less efficiently.
- If one trajectory is only slightly better than another, the difference in scores should be small. If it is significantly better, the difference in scores should be large.
- You may give some partial credit for a trajectory that makes progress towards its goal but does not complete it.
`;

export interface JudgeScore {
  trajectoryId: string;
  explanation: string;
  score: number;
}

export interface JudgeGroup {
  /** Each trajectory's messages, as stored. */
  trajectories: ChatMessage[][];
  /** Tool definitions the agent had, if any (the judge sees which tool calls were valid). */
  tools?: unknown[] | null;
}

export interface JudgePrompt {
  request: ChatRequest;
  /** The ids the judge must score, in order ("1", "2", …); one id when the trajectories are identical. */
  ids: string[];
  /** Every trajectory was the same: one was sent, and its score belongs to all. */
  identical: boolean;
}

/** Whole-message equality, as Python compares the message dicts (key order does not matter). */
function sameMessage(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      sameMessage((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** The longest run of whole messages every trajectory starts with. */
export function commonPrefixLength(trajectories: ChatMessage[][]): number {
  if (trajectories.length === 0) return 0;
  let n = 0;
  for (const message of trajectories[0]) {
    if (!trajectories.every((t) => t.length > n && sameMessage(t[n], message))) break;
    n++;
  }
  return n;
}

function systemPrompt(rubric: string): string {
  // ART builds this with dedent(f"""…{rubric}…"""): the rubric's own indentation decides what is stripped.
  return pythonDedent(`
        All of the trajectories below have been given the same goal. Your job is to consider each of them and give them a score between 0 and 1. Take into consideration your best judgement of the agent's goal.

        Grading standards:
        ${rubric}
        `);
}

function countInstruction(ids: string[]): string {
  return `Return exactly ${ids.length} score${ids.length === 1 ? '' : 's'}, one for each trajectory_id: ${ids.join(', ')}.`;
}

export function buildJudgeRequest(model: string, group: JudgeGroup, rubric?: string | null): JudgePrompt {
  const { trajectories, tools } = group;
  const prefix = commonPrefixLength(trajectories);
  const identical = trajectories.length > 0 && trajectories.every((t) => t.length === prefix);
  let user = '';
  if (prefix > 0 && !identical)
    user += `<context>\n${pythonJsonDumps(trajectories[0].slice(0, prefix))}\n</context>\n\n`;
  if (tools && tools.length > 0) user += `<available_tools>\n${pythonJsonDumps(tools)}\n</available_tools>\n\n`;
  const sent = identical ? [trajectories[0]] : trajectories.map((t) => t.slice(prefix));
  const ids = sent.map((_, i) => String(i + 1));
  user +=
    'Trajectories:\n\n' +
    sent.map((t, i) => `<trajectory id="${ids[i]}">\n${pythonJsonDumps(t)}\n</trajectory>`).join('\n\n');
  user += `\n\n${countInstruction(ids)}`;
  return {
    ids,
    identical,
    request: {
      model,
      messages: [
        { role: 'system', content: systemPrompt(rubric ?? DEFAULT_RUBRIC) },
        { role: 'user', content: user },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'ruler_scores',
          strict: true,
          schema: {
            type: 'object',
            properties: {
              scores: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    trajectory_id: { type: 'string' },
                    explanation: { type: 'string' },
                    score: { type: 'number' },
                  },
                  required: ['trajectory_id', 'explanation', 'score'],
                  additionalProperties: false,
                },
              },
            },
            required: ['scores'],
            additionalProperties: false,
          },
        },
      },
    },
  };
}

/** A judge answer that cannot be used. `retryable` answers (wrong, missing or repeated ids) are asked again once. */
export class JudgeAnswerError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'JudgeAnswerError';
  }
}

const answerSchema = z.object({
  scores: z.array(
    z.object({
      trajectory_id: z.union([z.string(), z.number()]).transform(String),
      explanation: z.string(),
      score: z.number(),
    }),
  ),
});

/** What is wrong with the set of ids an answer scored, or null when it is exactly the expected set. */
export function idProblems(expected: string[], answered: string[]): string | null {
  const want = new Set(expected);
  const seen = new Set<string>();
  const duplicate = new Set<string>();
  const unexpected = new Set<string>();
  for (const id of answered) {
    if (!want.has(id)) unexpected.add(id);
    else if (seen.has(id)) duplicate.add(id);
    seen.add(id);
  }
  const missing = expected.filter((id) => !seen.has(id));
  const parts: string[] = [];
  if (missing.length) parts.push(`missing trajectory_id ${missing.join(', ')}`);
  if (duplicate.size) parts.push(`duplicate trajectory_id ${[...duplicate].join(', ')}`);
  if (unexpected.size) parts.push(`unexpected trajectory_id ${[...unexpected].join(', ')}`);
  return parts.length ? `${answered.length} scores for ${expected.length} trajectories: ${parts.join('; ')}` : null;
}

/** Validates the judge's answer against the ids it was sent and returns the scores in id order. */
export function parseJudgeAnswer(value: unknown, ids: string[]): JudgeScore[] {
  const parsed = answerSchema.safeParse(value);
  if (!parsed.success)
    throw new JudgeAnswerError(`the judge's answer has the wrong shape: ${parsed.error.issues[0]?.message}`, false);
  const scores = parsed.data.scores;
  const problems = idProblems(
    ids,
    scores.map((s) => s.trajectory_id),
  );
  if (problems) throw new JudgeAnswerError(`the judge returned ${problems}`, true);
  const byId = new Map(scores.map((s) => [s.trajectory_id, s]));
  return ids.map((id) => {
    const s = byId.get(id)!;
    if (!(s.score >= 0 && s.score <= 1))
      throw new JudgeAnswerError(`the judge scored trajectory ${id} ${s.score}, outside [0, 1]`, false);
    return { trajectoryId: id, explanation: s.explanation, score: s.score };
  });
}

/** The request asked again after a retryable answer: the bad answer as the judge's turn, then what was wrong. */
export function retryRequest(prompt: JudgePrompt, badAnswer: string, problem: string): ChatRequest {
  return {
    ...prompt.request,
    messages: [
      ...prompt.request.messages,
      { role: 'assistant', content: badAnswer },
      { role: 'user', content: `That answer cannot be used: ${problem}. ${countInstruction(prompt.ids)}` },
    ],
  };
}

/** The scores of every trajectory of the group, in order: one copied to all when they were identical. */
export function scoresForGroup(prompt: JudgePrompt, scores: JudgeScore[], size: number): JudgeScore[] {
  return prompt.identical
    ? Array.from({ length: size }, (_, i) => ({ ...scores[0], trajectoryId: String(i + 1) }))
    : scores;
}
