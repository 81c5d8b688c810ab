// RULER prompt assembly and answer parsing (src/pipeline/ruler.ts), as Atelier does it today: what
// the judge is shown for a group of trajectories, and which answers score a group or fail it.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../src/providers/chat';
import { buildJudgeRequest, commonPrefixLength, DEFAULT_RUBRIC, JudgeAnswerError, parseJudgeAnswer } from '../src/pipeline/ruler';

const system: ChatMessage = { role: 'system', content: 'You answer shipping questions.' };
const ask: ChatMessage = { role: 'user', content: 'Where is my parcel?' };
const reply = (content: string): ChatMessage => ({ role: 'assistant', content });

/** The judge request's user message as [tag, messages] pairs, in order. */
function blocks(user: string): Array<[string, ChatMessage[]]> {
  return [...user.matchAll(/<(context|trajectory id="\d+")>\n(.*?)\n<\/(?:context|trajectory)>/gs)].map((m) => [m[1], JSON.parse(m[2])]);
}

function userText(trajectories: ChatMessage[][]): string {
  const { messages } = buildJudgeRequest('judge', trajectories);
  expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
  return messages[1].content;
}

describe('the judge request', () => {
  it('sends the shared messages once as context, then each trajectory’s own messages numbered from 1', () => {
    const group = [
      [system, ask, reply('It left the depot today.')],
      [system, ask, reply('No idea.')],
      [system, ask, reply('Which order?'), { role: 'user', content: '#123' } as ChatMessage, reply('It arrives Friday.')],
    ];
    expect(userText(group)).toBe(
      [
        `<context>\n${JSON.stringify([system, ask])}\n</context>`,
        `<trajectory id="1">\n${JSON.stringify([reply('It left the depot today.')])}\n</trajectory>`,
        `<trajectory id="2">\n${JSON.stringify([reply('No idea.')])}\n</trajectory>`,
        `<trajectory id="3">\n${JSON.stringify(group[2].slice(2))}\n</trajectory>`,
      ].join('\n\n'),
    );
  });

  it('sends no context when the trajectories share no first message, and each one whole', () => {
    const group = [
      [system, ask, reply('a')],
      [{ role: 'system', content: 'You are terse.' } as ChatMessage, ask, reply('b')],
    ];
    expect(blocks(userText(group))).toEqual([
      ['trajectory id="1"', group[0]],
      ['trajectory id="2"', group[1]],
    ]);
  });

  it('shares only whole leading messages: a different role or content ends the prefix, and later matches do not count', () => {
    expect(commonPrefixLength([])).toBe(0);
    expect(commonPrefixLength([[system, ask, reply('a')], [system, { ...ask, content: 'Where is it?' }, reply('a')]])).toBe(1);
    expect(commonPrefixLength([[system, ask], [{ ...system, role: 'user' }, ask]])).toBe(0);
    expect(commonPrefixLength([[system, ask, reply('a')], [system, ask, reply('b')], [system, { ...ask, role: 'assistant' }, reply('a')]])).toBe(1);
  });

  it('numbers a group of eight from 1 to 8 in the order given', () => {
    const group = Array.from({ length: 8 }, (_, i) => [system, ask, reply(`answer ${i}`)]);
    const got = blocks(userText(group));
    expect(got.map(([tag]) => tag)).toEqual(['context', ...Array.from({ length: 8 }, (_, i) => `trajectory id="${i + 1}"`)]);
    expect(got.slice(1).map(([, messages]) => messages)).toEqual(group.map((t) => [t[2]]));
  });

  it('asks for scores between 0 and 1 against the rubric, ART’s default unless one is given', () => {
    const byDefault = buildJudgeRequest('my-judge', [[system, ask, reply('a')], [system, ask, reply('b')]]);
    expect(byDefault.model).toBe('my-judge');
    const instructions = byDefault.messages[0].content;
    expect(instructions).toMatch(/^All of the trajectories below have been given the same goal\. .*give them a score between 0 and 1\./);
    expect(instructions.endsWith(`\n\nGrading standards:\n${DEFAULT_RUBRIC}`)).toBe(true);

    const rubric = '- Replies that name a delivery date score higher.';
    const custom = buildJudgeRequest('my-judge', [[system, ask, reply('a')], [system, ask, reply('b')]], rubric).messages[0].content;
    expect(custom.endsWith(`\n\nGrading standards:\n${rubric}`)).toBe(true);
    expect(custom).not.toContain(DEFAULT_RUBRIC);
  });

  it('asks for a strict JSON answer: one score per trajectory, each with its id and an explanation', () => {
    const { response_format } = buildJudgeRequest('judge', [[ask, reply('a')]]);
    expect(response_format).toEqual({
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
    });
  });

  // Issue #10 (follow ART's newest ruler.py) fixes this; today such a trajectory is sent as `[]`.
  it.todo('does not send a trajectory empty (nor its whole conversation as context) when it is all shared prefix: identical trajectories, or one a prefix of another');
});

describe('the judge answer', () => {
  const score = (id: string | number, value: number, explanation = `why ${id}`) => ({ trajectory_id: id, explanation, score: value });

  /** The JudgeAnswerError parseJudgeAnswer throws for this answer. */
  function refusal(answer: unknown, n: number): JudgeAnswerError {
    try {
      parseJudgeAnswer(answer, n);
    } catch (err) {
      expect(err).toBeInstanceOf(JudgeAnswerError);
      return err as JudgeAnswerError;
    }
    throw new Error(`parseJudgeAnswer accepted ${JSON.stringify(answer)}`);
  }

  it('returns the scores in trajectory order, whatever order they come in, with numeric ids read as strings', () => {
    const answer = { scores: [score('3', 0.2), score(1, 0.9), score('2', 0)] };
    expect(parseJudgeAnswer(answer, 3)).toEqual([
      { trajectoryId: '1', explanation: 'why 1', score: 0.9 },
      { trajectoryId: '2', explanation: 'why 2', score: 0 },
      { trajectoryId: '3', explanation: 'why 3', score: 0.2 },
    ]);
    expect(parseJudgeAnswer({ scores: [score('1', 1)] }, 1)[0].score).toBe(1);
  });

  it('refuses a wrong number of scores as worth asking again', () => {
    const fewer = refusal({ scores: [score('1', 0.5)] }, 2);
    expect(fewer).toMatchObject({ retryable: true, message: 'the judge returned 1 scores for 2 trajectories' });
    expect(refusal({ scores: [score('1', 0.5), score('2', 0.5), score('3', 0.5)] }, 2)).toMatchObject({ retryable: true, message: 'the judge returned 3 scores for 2 trajectories' });
  });

  it('refuses the right number of scores when one trajectory has none (ids repeated or off by one), as worth asking again', () => {
    expect(refusal({ scores: [score('1', 0.5), score('1', 0.6)] }, 2)).toMatchObject({ retryable: true, message: 'the judge gave no score for trajectory 2' });
    expect(refusal({ scores: [score('0', 0.5), score('1', 0.6)] }, 2)).toMatchObject({ retryable: true, message: 'the judge gave no score for trajectory 2' });
  });

  it('refuses a score outside [0, 1], for good', () => {
    expect(refusal({ scores: [score('1', 0.5), score('2', 1.5)] }, 2)).toMatchObject({ retryable: false, message: 'the judge scored trajectory 2 1.5, outside [0, 1]' });
    expect(refusal({ scores: [score('1', -0.01), score('2', 0.5)] }, 2)).toMatchObject({ retryable: false, message: 'the judge scored trajectory 1 -0.01, outside [0, 1]' });
  });

  it('refuses an answer of the wrong shape, for good', () => {
    for (const answer of [null, 'scores', {}, { scores: {} }, { scores: [{ trajectory_id: '1', score: 0.5 }] }, { scores: [{ trajectory_id: '1', explanation: 'x', score: '0.5' }] }, { scores: [{ trajectory_id: null, explanation: 'x', score: 0.5 }] }]) {
      const err = refusal(answer, 1);
      expect(err.retryable, JSON.stringify(answer)).toBe(false);
      expect(err.message, JSON.stringify(answer)).toMatch(/^the judge's answer has the wrong shape: /);
    }
  });
});
