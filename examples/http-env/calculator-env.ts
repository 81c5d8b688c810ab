// A small HTTP environment for Atelier's HTTP rollout kind (docs/ENVIRONMENTS.md): arithmetic with a
// calculator tool and a checkable answer. The agent gets "Compute 12 * 7 + 5", may call
// `calculate(expression)` as often as it likes, and ends by calling `submit_answer(answer)`; the
// environment rewards 1 for the right number, 0 otherwise. No dependencies: node:http only.
//
//   npx tsx examples/http-env/calculator-env.ts        # listens on PORT (default 8765)
import http from 'node:http';
import { pathToFileURL } from 'node:url';

type Json = Record<string, unknown>;
type Message = { role: string; content: string; tool_call_id?: string; name?: string };

interface Episode {
  expected: number;
  /** context.reward === false: the environment gives no reward, and Atelier's RULER judges the episode. */
  rewarded: boolean;
  calls: number;
  /** Answers by turn: a step sent again (after a lost answer) gets the same answer, not a second effect. */
  answers: Map<number, Json>;
}

export const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'calculate',
      description: 'Evaluates an arithmetic expression (numbers, + - * / and parentheses) and returns the result.',
      parameters: {
        type: 'object',
        properties: { expression: { type: 'string', description: 'e.g. (12 + 7) * 3' } },
        required: ['expression'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'submit_answer',
      description: 'Submits the final numeric answer and ends the task.',
      parameters: { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] },
    },
  },
];

/** Evaluates + - * / and parentheses over numbers; anything else is an error (never eval). */
export function evaluate(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[+\-*/()]|\S/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const primary = (): number => {
    const t = next();
    if (t === '(') {
      const v = sum();
      if (next() !== ')') throw new Error('expected )');
      return v;
    }
    if (t === '-') return -primary();
    if (t !== undefined && /^\d/.test(t)) return Number(t);
    throw new Error(`unexpected ${t ?? 'end of expression'}`);
  };
  const product = (): number => {
    let v = primary();
    while (peek() === '*' || peek() === '/') v = next() === '*' ? v * primary() : v / primary();
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === '+' || peek() === '-') v = next() === '+' ? v + product() : v - product();
    return v;
  };
  const value = sum();
  if (i !== tokens.length) throw new Error(`unexpected ${tokens[i]}`);
  return value;
}

/** The expression in a task text ("Compute 12 * 7 + 5" → "12 * 7 + 5"). */
export function expressionIn(text: string): string | null {
  return /[\d(][\d\s+\-*/().]*[\d)]/.exec(text)?.[0]?.trim() ?? null;
}

export interface CalculatorEnv {
  handle(path: string, body: Json): { status: number; body: Json };
  /** Episodes open now (reset and not closed). */
  open(): string[];
}

export function createCalculatorEnv(): CalculatorEnv {
  const episodes = new Map<string, Episode>();

  function reset(body: Json) {
    const scenario = (body.scenario ?? {}) as {
      input_text?: string;
      context?: { answer?: number; reward?: boolean } | null;
    };
    const text = String(scenario.input_text ?? '');
    const expression = expressionIn(text);
    const expected =
      typeof scenario.context?.answer === 'number' ? scenario.context.answer : expression ? evaluate(expression) : NaN;
    // A reset of an episode id that exists starts it again (a resumed run replays its episodes).
    episodes.set(String(body.episodeId), {
      expected,
      rewarded: scenario.context?.reward !== false,
      calls: 0,
      answers: new Map(),
    });
    const messages: Message[] = [
      {
        role: 'system',
        content: 'Solve the arithmetic task: use the calculate tool, then call submit_answer with the number.',
      },
      { role: 'user', content: text },
    ];
    return { status: 200, body: { messages, tools: TOOLS } };
  }

  function step(body: Json) {
    const episode = episodes.get(String(body.episodeId));
    if (!episode) return { status: 404, body: { error: `no open episode ${String(body.episodeId)}` } };
    const turn = Number(body.turn);
    const repeat = episode.answers.get(turn);
    if (repeat) return { status: 200, body: repeat };
    const message = (body.message ?? {}) as {
      tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    };
    const messages: Message[] = [];
    let answer: Json | null = null;
    for (const call of message.tool_calls ?? []) {
      episode.calls++;
      let args: Json = {};
      try {
        args = JSON.parse(call.function.arguments) as Json;
      } catch {
        messages.push({ role: 'tool', tool_call_id: call.id, content: 'error: arguments are not JSON' });
        continue;
      }
      if (call.function.name === 'calculate') {
        let content: string;
        try {
          content = String(evaluate(String(args.expression ?? '')));
        } catch (err) {
          content = `error: ${(err as Error).message}`;
        }
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      } else if (call.function.name === 'submit_answer') {
        const correct = Number(args.answer) === episode.expected;
        messages.push({ role: 'tool', tool_call_id: call.id, content: correct ? 'correct' : 'incorrect' });
        answer = {
          ...(episode.rewarded ? { reward: correct ? 1 : 0 } : {}),
          done: true,
          metrics: { correct: correct ? 1 : 0, tool_calls: episode.calls },
        };
      } else {
        messages.push({ role: 'tool', tool_call_id: call.id, content: `error: no tool named ${call.function.name}` });
      }
    }
    if (!message.tool_calls?.length)
      messages.push({ role: 'user', content: 'Use the calculate tool, then call submit_answer with the number.' });
    const out = { messages, done: false, ...(answer ?? {}) };
    episode.answers.set(turn, out);
    return { status: 200, body: out };
  }

  return {
    handle(path, body) {
      if (path === '/reset') return reset(body);
      if (path === '/step') return step(body);
      if (path === '/close') {
        episodes.delete(String(body.episodeId));
        return { status: 200, body: {} };
      }
      return { status: 404, body: { error: `no route ${path}` } };
    },
    open: () => [...episodes.keys()],
  };
}

/** Serves an environment over HTTP on a port (0: a free one). */
export function serve(env: CalculatorEnv, port = 0): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      let body: Json = {};
      try {
        body = raw ? (JSON.parse(raw) as Json) : {};
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"the body is not JSON"}');
        return;
      }
      const answer =
        req.method === 'POST' ? env.handle(req.url ?? '/', body) : { status: 405, body: { error: 'POST only' } };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${address.port}`, server });
    }),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void serve(createCalculatorEnv(), Number(process.env.PORT ?? 8765)).then(({ url }) =>
    console.log(`calculator environment at ${url} (POST /reset, /step, /close)`),
  );
}
