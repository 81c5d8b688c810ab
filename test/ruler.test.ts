// RULER's prompt as ART builds it (src/art/rewards/ruler.py at OpenPipe/ART 6767051): whole-message
// prefix, "Trajectories:", <available_tools>, identical trajectories scored once; and what Atelier
// adds: the exact ids asked for, and one retry that names what was wrong. Where python3 is present,
// the text is compared with what Python's own json.dumps and textwrap.dedent produce.
import { execFileSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { pythonDedent, pythonJsonDumps } from '../src/pipeline/python-text';
import {
  buildJudgeRequest,
  commonPrefixLength,
  DEFAULT_RUBRIC,
  idProblems,
  JudgeAnswerError,
  parseJudgeAnswer,
  retryRequest,
  scoresForGroup,
} from '../src/pipeline/ruler';
import type { ChatMessage } from '../src/providers/chat';

const system: ChatMessage = { role: 'system', content: 'You answer shipping questions.' };
const user: ChatMessage = { role: 'user', content: 'Where is my parcel? “naïve” 🎉' };
const answer = (text: string): ChatMessage => ({ role: 'assistant', content: text });

function userText(trajectories: ChatMessage[][], tools?: unknown[]): string {
  return buildJudgeRequest('judge', { trajectories, tools }).request.messages[1].content;
}

function python(): string | null {
  try {
    execFileSync('python3', ['-c', 'import json, textwrap'], { stdio: 'ignore' });
    return 'python3';
  } catch {
    return null;
  }
}
const py = python();

describe('RULER prompt assembly', () => {
  it('sends the whole messages every trajectory shares once, as <context>, then "Trajectories:" numbered from 1', () => {
    const text = userText([
      [system, user, answer('In transit.')],
      [system, user, answer('Delivered.')],
    ]);
    expect(text).toBe(
      `<context>\n${pythonJsonDumps([system, user])}\n</context>\n\nTrajectories:\n\n` +
        `<trajectory id="1">\n${pythonJsonDumps([answer('In transit.')])}\n</trajectory>\n\n` +
        `<trajectory id="2">\n${pythonJsonDumps([answer('Delivered.')])}\n</trajectory>\n\n` +
        'Return exactly 2 scores, one for each trajectory_id: 1, 2.',
    );
  });

  it('compares whole messages for the prefix: same text with other fields is not shared', () => {
    const withName = { ...user, name: 'customer' } as ChatMessage;
    expect(
      commonPrefixLength([
        [system, user, answer('a')],
        [system, withName, answer('a')],
      ]),
    ).toBe(1);
    // Key order does not make two messages different (Python compares dicts).
    const reordered = { content: user.content, role: user.role } as ChatMessage;
    expect(
      commonPrefixLength([
        [system, user, answer('a')],
        [system, reordered, answer('b')],
      ]),
    ).toBe(2);
    // No context when nothing is shared.
    expect(
      userText([
        [user, answer('a')],
        [system, answer('b')],
      ]),
    ).toMatch(/^Trajectories:\n\n<trajectory id="1">\n\[\{"role": "user"/);
  });

  it('sends identical trajectories once, whole, with no context, and copies the one score to all', () => {
    const same = [system, user, answer('Delivered.')];
    const prompt = buildJudgeRequest('judge', { trajectories: [same, same, same] });
    const text = prompt.request.messages[1].content;
    expect(prompt.identical).toBe(true);
    expect(prompt.ids).toEqual(['1']);
    expect(text).not.toContain('<context>');
    // The trajectory carries the whole conversation (the bug this replaced sent it as context and trajectory 1 empty).
    expect(text).toBe(
      `Trajectories:\n\n<trajectory id="1">\n${pythonJsonDumps(same)}\n</trajectory>\n\nReturn exactly 1 score, one for each trajectory_id: 1.`,
    );
    const scores = scoresForGroup(
      prompt,
      parseJudgeAnswer({ scores: [{ trajectory_id: '1', explanation: 'fine', score: 0.6 }] }, prompt.ids),
      3,
    );
    expect(scores.map((s) => [s.trajectoryId, s.score])).toEqual([
      ['1', 0.6],
      ['2', 0.6],
      ['3', 0.6],
    ]);
  });

  it('puts the tools the agent had inside <available_tools>, after the context', () => {
    const tools = [
      {
        type: 'function',
        function: { name: 'track_parcel', parameters: { type: 'object', properties: { id: { type: 'string' } } } },
      },
    ];
    const text = userText(
      [
        [system, user, answer('a')],
        [system, user, answer('b')],
      ],
      tools,
    );
    expect(text).toContain(
      `</context>\n\n<available_tools>\n${pythonJsonDumps(tools)}\n</available_tools>\n\nTrajectories:\n\n`,
    );
    expect(
      userText(
        [
          [user, answer('a')],
          [user, answer('b')],
        ],
        [],
      ),
    ).not.toContain('<available_tools>');
  });

  it("uses ART's system prompt, with the default rubric unless the run has its own", () => {
    const [systemMessage] = buildJudgeRequest('judge', { trajectories: [[answer('a')], [answer('b')]] }).request
      .messages;
    expect(systemMessage.content).toContain('give them a score between 0 and 1');
    expect(systemMessage.content).toContain(`Grading standards:\n${DEFAULT_RUBRIC}`);
    const own = buildJudgeRequest('judge', { trajectories: [[answer('a')], [answer('b')]] }, 'Shorter is better.')
      .request.messages[0].content;
    expect(own).toMatch(/Grading standards:\nShorter is better\.\n$/);
    expect(own).not.toContain('significantly higher score');
  });

  it('numbers a group of eight from 1 to 8 in order, and asks for a strict JSON answer with an id and explanation per score', () => {
    const { request, ids } = buildJudgeRequest('judge', {
      trajectories: Array.from({ length: 8 }, (_, i) => [user, answer(`reply ${i}`)]),
    });
    expect(ids).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(
      [
        ...request.messages[1].content.matchAll(
          /<trajectory id="(\d+)">\n\[\{"role": "assistant", "content": "reply (\d)"/g,
        ),
      ].map((m) => [m[1], m[2]]),
    ).toEqual(ids.map((id, i) => [id, String(i)]));
    expect(request.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: {
        name: 'ruler_scores',
        strict: true,
        schema: {
          required: ['scores'],
          properties: { scores: { items: { required: ['trajectory_id', 'explanation', 'score'] } } },
        },
      },
    });
  });

  it.skipIf(!py)(
    `matches Python's json.dumps and textwrap.dedent byte for byte${py ? '' : ' (skipped: no python3 on this machine)'}`,
    () => {
      const value = [
        system,
        user,
        { role: 'tool', content: 'tab\there\nnew line \u007f', tool_call_id: 'c1', n: [1, 2.5, null, true] },
      ];
      const rubric = '\n  - indented rubric\n  - second line\n';
      const template = `\n        All of the trajectories below.\n\n        Grading standards:\n        ${rubric}\n        `;
      const out = execFileSync(
        py!,
        [
          '-c',
          'import json, sys, textwrap; d = json.load(sys.stdin); print(json.dumps([json.dumps(d["value"]), textwrap.dedent(d["template"])]))',
        ],
        {
          input: JSON.stringify({ value, template }),
        },
      ).toString();
      const [dumped, dedented] = JSON.parse(out) as [string, string];
      expect(pythonJsonDumps(value)).toBe(dumped);
      expect(pythonDedent(template)).toBe(dedented);
    },
  );
});

describe('RULER answers', () => {
  const ids = ['1', '2', '3'];
  const score = (id: string, value = 0.5) => ({ trajectory_id: id, explanation: `t${id}`, score: value });

  it('returns the scores in id order, whatever order the judge answered in', () => {
    expect(
      parseJudgeAnswer({ scores: [score('3', 0.1), score('1', 0.9), score('2', 0.5)] }, ids).map((s) => s.score),
    ).toEqual([0.9, 0.5, 0.1]);
  });

  it('names missing, duplicate and unexpected ids, and asks again with the bad answer', () => {
    expect(idProblems(ids, ['1', '1', '7'])).toBe(
      '3 scores for 3 trajectories: missing trajectory_id 2, 3; duplicate trajectory_id 1; unexpected trajectory_id 7',
    );
    expect(idProblems(ids, ['3', '2', '1'])).toBeNull();
    const bad = { scores: [score('1'), score('1')] };
    let error: unknown;
    try {
      parseJudgeAnswer(bad, ids);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(JudgeAnswerError);
    expect((error as JudgeAnswerError).retryable).toBe(true);
    const prompt = buildJudgeRequest('judge', { trajectories: [[answer('a')], [answer('b')], [answer('c')]] });
    const again = retryRequest(prompt, JSON.stringify(bad), 'missing trajectory_id 2, 3; duplicate trajectory_id 1');
    expect(again.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(again.messages[2].content).toBe(JSON.stringify(bad));
    expect(again.messages[3].content).toBe(
      'That answer cannot be used: missing trajectory_id 2, 3; duplicate trajectory_id 1. Return exactly 3 scores, one for each trajectory_id: 1, 2, 3.',
    );
    expect(again.response_format).toEqual(prompt.request.response_format);
  });

  it('refuses scores outside [0, 1] and answers of the wrong shape, without a retry', () => {
    for (const value of [{ scores: [score('1'), score('2'), score('3', 1.5)] }, { scores: 'none' }, null]) {
      let error: unknown;
      try {
        parseJudgeAnswer(value, ids);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(JudgeAnswerError);
      expect((error as JudgeAnswerError).retryable).toBe(false);
    }
  });
});
