// RULER, as ART does it (src/art/rewards/ruler.py): one judge call scores a group of trajectories
// for the same input relative to each other. The messages all trajectories share are sent once as
// context; each trajectory's remaining messages are numbered from 1; the answer is structured JSON.
import { z } from 'zod';
import type { ChatMessage, ChatRequest } from '../providers/chat';

export const DEFAULT_RUBRIC = `- A trajectory that achieves its goal should always get a significantly higher score than a trajectory that does not achieve its goal.
- A trajectory that achieves its goal more efficiently (eg. by avoiding unproductive detours) should get a higher score than a trajectory that achieves its goal less efficiently.
- If one trajectory is only slightly better than another, the difference in scores should be small. If it is significantly better, the difference in scores should be large.
- You may give some partial credit for a trajectory that makes progress towards its goal but does not complete it.`;

export interface JudgeScore {
  trajectoryId: string;
  explanation: string;
  score: number;
}

/** The longest run of whole messages every trajectory starts with. */
export function commonPrefixLength(trajectories: ChatMessage[][]): number {
  if (trajectories.length === 0) return 0;
  let n = 0;
  const shortest = Math.min(...trajectories.map((t) => t.length));
  while (n < shortest && trajectories.every((t) => t[n].role === trajectories[0][n].role && t[n].content === trajectories[0][n].content)) n++;
  return n;
}

export function buildJudgeRequest(model: string, trajectories: ChatMessage[][], rubric?: string | null): ChatRequest {
  const prefix = commonPrefixLength(trajectories);
  const parts: string[] = [];
  if (prefix > 0) parts.push(`<context>\n${JSON.stringify(trajectories[0].slice(0, prefix))}\n</context>`);
  trajectories.forEach((t, i) => parts.push(`<trajectory id="${i + 1}">\n${JSON.stringify(t.slice(prefix))}\n</trajectory>`));
  const system = `All of the trajectories below have been given the same goal. Your job is to consider each of them and give them a score between 0 and 1. Take into consideration your best judgement of the agent's goal.

Grading standards:
${rubric ?? DEFAULT_RUBRIC}`;
  return {
    model,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: parts.join('\n\n') },
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
                properties: { trajectory_id: { type: 'string' }, explanation: { type: 'string' }, score: { type: 'number' } },
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
  };
}

/** A judge answer that cannot be used. `retryable` answers (a wrong count) are asked again once. */
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
  scores: z.array(z.object({ trajectory_id: z.union([z.string(), z.number()]).transform(String), explanation: z.string(), score: z.number() })),
});

/** Validates the judge's answer for n trajectories and returns the scores in trajectory order. */
export function parseJudgeAnswer(value: unknown, n: number): JudgeScore[] {
  const parsed = answerSchema.safeParse(value);
  if (!parsed.success) throw new JudgeAnswerError(`the judge's answer has the wrong shape: ${parsed.error.issues[0]?.message}`, false);
  const scores = parsed.data.scores;
  if (scores.length !== n) throw new JudgeAnswerError(`the judge returned ${scores.length} scores for ${n} trajectories`, true);
  const byId = new Map(scores.map((s) => [s.trajectory_id, s]));
  return Array.from({ length: n }, (_, i) => {
    const s = byId.get(String(i + 1));
    if (!s) throw new JudgeAnswerError(`the judge gave no score for trajectory ${i + 1}`, true);
    if (!(s.score >= 0 && s.score <= 1)) throw new JudgeAnswerError(`the judge scored trajectory ${i + 1} ${s.score}, outside [0, 1]`, false);
    return { trajectoryId: s.trajectory_id, explanation: s.explanation, score: s.score };
  });
}
