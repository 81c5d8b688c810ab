// Proves the test simulators behave like the servers they stand in for (over real HTTP): strict request
// checks, answer shapes, deterministic replies, scripted faults, and ART's step and streaming semantics.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startArtBackendSim, type ArtBackendSim } from './fixtures/art-backend-sim';
import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { logprobsFor, tokenize } from './fixtures/openai-sim-replies';

const KEY = 'sk-sim-test';

function post(url: string, body: unknown, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: init.signal,
  });
}

const chat = (sim: OpenAISim, body: unknown, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}) =>
  post(`${sim.url}/chat/completions`, body, { ...init, headers: { authorization: `Bearer ${KEY}`, ...init.headers } });

const rolloutBody = (input: string, extra: Record<string, unknown> = {}) => ({
  model: 'agent@3',
  messages: [
    { role: 'system', content: 'You are a helpful support agent.' },
    { role: 'user', content: input },
  ],
  ...extra,
});

const judgeBody = (replies: string[]) => ({
  model: 'openai/o3',
  messages: [
    { role: 'system', content: 'All of the trajectories below pursued the same goal. Score each from 0 to 1.' },
    {
      role: 'user',
      content:
        `<context>[{"role":"user","content":"reset my password"}]</context>\n\n` +
        replies
          .map(
            (r, i) =>
              `<trajectory id="${i + 1}">\n[{"role":"assistant","content":${JSON.stringify(r)}}]\n</trajectory>`,
          )
          .join('\n'),
    },
  ],
  response_format: {
    type: 'json_schema',
    json_schema: {
      name: 'Response',
      schema: { type: 'object', properties: { scores: { type: 'array' } } },
      strict: true,
    },
  },
});

const contentOf = async (res: Response) =>
  ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content;

async function until(condition: () => boolean, ms = 1_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('OpenAI-compatible simulator', () => {
  let sim: OpenAISim;
  beforeAll(async () => {
    sim = await startOpenAISim({ apiKey: KEY });
  });
  afterEach(() => sim.faults.reset());
  afterAll(() => sim.close());

  it.each([
    ['missing model', { messages: [{ role: 'user', content: 'hi' }] }, 'model'],
    ['model not a string', { model: 7, messages: [{ role: 'user', content: 'hi' }] }, 'model'],
    ['no messages', { model: 'm', messages: [] }, 'messages'],
    ['unknown role', { model: 'm', messages: [{ role: 'bot', content: 'hi' }] }, 'messages[0].role'],
    ['content not a string', { model: 'm', messages: [{ role: 'user', content: 42 }] }, 'messages[0].content'],
    ['temperature above 2', { ...rolloutBody('x'), temperature: 2.5 }, 'temperature'],
    ['n of 0', { ...rolloutBody('x'), n: 0 }, 'n'],
    ['max_tokens not an integer', { ...rolloutBody('x'), max_tokens: 1.5 }, 'max_tokens'],
    [
      'json_schema without schema',
      { ...rolloutBody('x'), response_format: { type: 'json_schema', json_schema: { name: 'R' } } },
      'response_format.json_schema.schema',
    ],
    ['unknown response_format', { ...rolloutBody('x'), response_format: { type: 'yaml' } }, 'response_format.type'],
    ['top_logprobs without logprobs', { ...rolloutBody('x'), top_logprobs: 3 }, 'top_logprobs'],
    ['unknown argument', { ...rolloutBody('x'), temprature: 0.7 }, 'temprature'],
  ])('rejects %s with a 400 in OpenAI error shape', async (_case, body, param) => {
    const res = await chat(sim, body);
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ type: 'invalid_request_error', param });
    expect(typeof error.message).toBe('string');
    expect(error).toHaveProperty('code');
  });

  it('rejects a body that is not JSON, or not sent as JSON', async () => {
    expect((await chat(sim, '{"model": "m", ')).status).toBe(400);
    const res = await fetch(`${sim.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` }, // fetch labels a string body text/plain
      body: JSON.stringify(rolloutBody('x')),
    });
    expect(res.status).toBe(400);
  });

  it('checks the API key', async () => {
    const missing = await post(`${sim.url}/chat/completions`, rolloutBody('x'));
    expect(missing.status).toBe(401);
    const wrong = await chat(sim, rolloutBody('x'), { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
  });

  it('answers a rollout as a chat.completion with vLLM token-id logprobs', async () => {
    const res = await chat(
      sim,
      rolloutBody('My order #123 never arrived, what now?', { logprobs: true, temperature: 0.7 }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      object: string;
      model: string;
      choices: {
        index: number;
        finish_reason: string;
        message: { role: string; content: string };
        logprobs: { content: { token: string; logprob: number; bytes: number[]; top_logprobs: unknown[] }[] };
      }[];
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
    expect(body).toMatchObject({ object: 'chat.completion', model: 'agent@3' });
    const [choice] = body.choices;
    expect(choice).toMatchObject({ index: 0, finish_reason: 'stop', message: { role: 'assistant' } });
    const tokens = choice.logprobs.content;
    expect(tokens.length).toBe(body.usage.completion_tokens);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    for (const t of tokens) {
      expect(t.token).toMatch(/^token_id:\d+$/);
      expect(t.logprob).toBeLessThanOrEqual(0);
      expect(t.top_logprobs).toEqual([]);
    }
    // The bytes spell the content back, as a real tokenizer's would.
    expect(Buffer.from(tokens.flatMap((t) => t.bytes)).toString('utf8')).toBe(choice.message.content);
  });

  it('replies deterministically: greedy repeats, sampled rollouts of one prompt differ', async () => {
    const greedy = rolloutBody('Explain DNS briefly', { temperature: 0 });
    expect(await contentOf(await chat(sim, greedy))).toBe(await contentOf(await chat(sim, greedy)));
    const sampled = rolloutBody('Explain TLS briefly', { temperature: 0.7 });
    const replies = await Promise.all([1, 2, 3].map(async () => contentOf(await chat(sim, sampled))));
    expect(new Set(replies).size).toBe(3);
    expect(logprobsFor(tokenize(replies[0]), 0).content.length).toBeGreaterThan(0);
  });

  it('cuts a reply at max_tokens with finish_reason "length"', async () => {
    const res = await chat(sim, rolloutBody('Write a long essay', { max_tokens: 2 }));
    const body = (await res.json()) as { choices: { finish_reason: string }[]; usage: { completion_tokens: number } };
    expect(body.choices[0].finish_reason).toBe('length');
    expect(body.usage.completion_tokens).toBe(2);
  });

  it('generates N distinct inputs when the schema asks for inputs', async () => {
    const res = await chat(sim, {
      model: 'gpt-4.1',
      temperature: 1,
      messages: [
        { role: 'system', content: 'You generate diverse, realistic input examples.' },
        { role: 'user', content: 'Generate 7 diverse inputs for this task: triage customer support emails.' },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'Inputs', schema: { type: 'object', properties: { inputs: { type: 'array' } } } },
      },
    });
    const { inputs } = JSON.parse(await contentOf(res)) as { inputs: { input: string }[] };
    expect(inputs).toHaveLength(7);
    expect(new Set(inputs.map((i) => i.input)).size).toBe(7);
    expect(sim.requests.at(-1)?.kind).toBe('generate-inputs');
  });

  it('writes a plain-sentence system prompt', async () => {
    const res = await chat(sim, {
      model: 'gpt-4.1',
      temperature: 0.3,
      messages: [
        { role: 'user', content: 'Write a clear, direct system prompt for this task: triage support emails.' },
      ],
    });
    const content = await contentOf(res);
    expect(content).toMatch(/triage support emails/);
    expect(() => JSON.parse(content)).toThrow();
    expect(sim.requests.at(-1)?.kind).toBe('system-prompt');
  });

  it('judges one score per trajectory, in [0, 1], equal for equal trajectories', async () => {
    const replies = [
      'Reset it from settings.',
      'I cannot help.',
      'Click "forgot password" on the login page.',
      'Reset it from settings.',
    ];
    const { scores } = JSON.parse(await contentOf(await chat(sim, judgeBody(replies)))) as {
      scores: { trajectory_id: string; explanation: string; score: number }[];
    };
    expect(scores.map((s) => s.trajectory_id)).toEqual(['1', '2', '3', '4']);
    for (const s of scores) {
      expect(s.score).toBeGreaterThanOrEqual(0);
      expect(s.score).toBeLessThanOrEqual(1);
      expect(s.explanation).not.toBe('');
    }
    expect(scores[0].score).toBe(scores[3].score);
    expect(new Set(scores.map((s) => s.score)).size).toBeGreaterThan(1);
    expect(sim.requests.at(-1)?.kind).toBe('judge');
  });

  it('records requests without credentials and counts them per kind', async () => {
    const before = sim.counts.rollout;
    await chat(sim, rolloutBody('hello'), { headers: { 'x-run-id': 'run-1' } });
    const last = sim.requests.at(-1)!;
    expect(last).toMatchObject({
      kind: 'rollout',
      status: 200,
      path: '/v1/chat/completions',
      body: { model: 'agent@3' },
    });
    expect(last.headers['x-run-id']).toBe('run-1');
    expect(last.headers.authorization).toBeUndefined();
    expect(sim.counts.rollout).toBe(before + 1);
  });

  it('fails with 429 and Retry-After, then recovers', async () => {
    sim.faults.failNext(1, 429, { retryAfter: 2 });
    const limited = await chat(sim, rolloutBody('x'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    expect((await chat(sim, rolloutBody('x'))).status).toBe(200);
  });

  it('fails only the calls of the kind it was told to', async () => {
    sim.faults.failNext(2, 500, { kind: 'judge' });
    expect((await chat(sim, rolloutBody('x'))).status).toBe(200);
    const failed = await chat(sim, judgeBody(['a', 'b']));
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { error: { type: string } }).error.type).toBe('server_error');
    expect((await chat(sim, judgeBody(['a', 'b']))).status).toBe(500);
    expect((await chat(sim, judgeBody(['a', 'b']))).status).toBe(200);
    expect(sim.faults.pending()).toBe(0);
  });

  it('hangs until the client aborts', async () => {
    sim.faults.hangNext(1);
    const started = Date.now();
    await expect(chat(sim, rolloutBody('x'), { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    await until(() => sim.inFlight === 0);
    expect((await chat(sim, rolloutBody('x'))).status).toBe(200);
  });

  it('returns malformed JSON content, or a malformed body', async () => {
    sim.faults.malformedNext(1, { kind: 'judge' });
    const res = await chat(sim, judgeBody(['a', 'b']));
    expect(res.status).toBe(200);
    const content = await contentOf(res);
    expect(() => JSON.parse(content)).toThrow();

    sim.faults.malformedNext(1, { where: 'body' });
    const broken = await chat(sim, rolloutBody('x'));
    expect(broken.status).toBe(200);
    await expect(broken.json()).rejects.toThrow();
  });

  it('returns the wrong number of judge scores when told to', async () => {
    sim.faults.wrongScoreCountNext(1);
    expect((await chat(sim, rolloutBody('x'))).status).toBe(200); // not a judge call: untouched
    const short = JSON.parse(await contentOf(await chat(sim, judgeBody(['a', 'b', 'c'])))) as { scores: unknown[] };
    expect(short.scores).toHaveLength(2);
    const right = JSON.parse(await contentOf(await chat(sim, judgeBody(['a', 'b', 'c'])))) as { scores: unknown[] };
    expect(right.scores).toHaveLength(3);
  });

  it('adds latency per kind and tracks concurrency', async () => {
    sim.faults.setLatency(80, 'rollout');
    const started = Date.now();
    await Promise.all([1, 2, 3].map(() => chat(sim, rolloutBody('x'))));
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    expect(sim.maxInFlightOf('rollout')).toBeGreaterThanOrEqual(3);
    expect(sim.inFlight).toBe(0);
  });

  it('uses a custom responder and restores the default', async () => {
    sim.setResponder('rollout', (req, ctx) => `custom ${ctx.kind} for ${req.model}`);
    expect(await contentOf(await chat(sim, rolloutBody('x')))).toBe('custom rollout for agent@3');
    sim.setResponder('rollout', null);
    expect(await contentOf(await chat(sim, rolloutBody('x')))).not.toMatch(/^custom/);
  });

  it('destroys hanging connections on close', async () => {
    const own = await startOpenAISim();
    own.faults.hangForever();
    const pending = post(`${own.url}/chat/completions`, rolloutBody('x'));
    await until(() => own.inFlight === 1);
    await own.close();
    await expect(pending).rejects.toThrow();
  });
});

// ---------------------------------------------------------------------------------------------------------

const MODEL = {
  name: 'agent-1',
  project: 'atelier',
  config: null,
  inference_api_key: null,
  inference_base_url: null,
  inference_model_name: null,
  trainable: true,
  base_model: 'Qwen/Qwen2.5-1.5B-Instruct',
};

/** An assistant choice as vLLM returns it, with token-id logprobs. */
function choice(content: string) {
  return {
    finish_reason: 'stop',
    index: 0,
    message: { role: 'assistant', content },
    logprobs: logprobsFor(tokenize(content), 0),
  };
}

function trajectory(reward: number, reply = `reply ${reward}`) {
  return {
    messages_and_choices: [{ role: 'system', content: 'Be helpful.' }, { role: 'user', content: 'Hi' }, choice(reply)],
    tools: null,
    reward,
    metrics: { independent_reward: 0, ruler_score: reward },
    metadata: { step: 0, input: 'Hi' },
    logs: [],
  };
}

const group = (...rewards: number[]) => ({
  trajectories: rewards.map((r) => trajectory(r)),
  metadata: {},
  exceptions: [],
});

const trainBody = (groups: unknown[], model: Record<string, unknown> = MODEL) => ({
  model,
  trajectory_groups: groups,
  config: { learning_rate: 1e-5, beta: 0 },
  dev_config: {},
  verbose: false,
});

/** Reads an NDJSON stream, noting when each line arrived. */
async function readLines(res: Response): Promise<{ line: Record<string, unknown>; at: number }[]> {
  const lines: { line: Record<string, unknown>; at: number }[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      lines.push({ line: JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>, at: Date.now() });
      buffer = buffer.slice(newline + 1);
    }
  }
  expect(buffer).toBe('');
  return lines;
}

async function getStep(art: ArtBackendSim, model: Record<string, unknown> = MODEL): Promise<number> {
  return (await (await post(`${art.url}/_get_step`, model)).json()) as number;
}

describe('ART backend simulator', () => {
  let art: ArtBackendSim;
  beforeAll(async () => {
    art = await startArtBackendSim({ inferenceUrl: 'http://127.0.0.1:5555/v1', inferenceApiKey: 'vllm-key' });
  });
  afterEach(() => {
    art.faults.reset();
    art.setGradientStepMs(0);
  });
  afterAll(() => art.close());

  it('answers healthcheck, register, get_step and prepare', async () => {
    expect(await (await fetch(`${art.url}/healthcheck`)).json()).toEqual({ status: 'ok' });
    const registered = await post(`${art.url}/register`, MODEL);
    expect(registered.status).toBe(200);
    expect(await registered.json()).toBeNull();
    expect(art.isRegistered('atelier', 'agent-1')).toBe(true);
    expect(await getStep(art)).toBe(0);
    const prepared = await post(`${art.url}/_prepare_backend_for_training`, { model: MODEL, config: null });
    expect(await prepared.json()).toEqual(['http://0.0.0.0:5555/v1', 'vllm-key']);
    expect((await fetch(`${art.url}/nope`)).status).toBe(404);
    expect((await fetch(`${art.url}/register`)).status).toBe(405);
  });

  it('streams one NDJSON line per trainable group, paced per gradient step, then advances the step', async () => {
    const model = { ...MODEL, name: 'streamer' };
    art.setGradientStepMs(60);
    const started = Date.now();
    const res = await post(
      `${art.url}/_train_model`,
      trainBody([group(0.1, 0.9), group(0.5, 0.5), group(0.2, 0.4, 0.3)], model),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = await readLines(res);
    expect(lines).toHaveLength(2); // the equal-reward group is skipped
    for (const { line } of lines) {
      expect(line).toMatchObject({ num_gradient_steps: 2 });
      for (const metric of ['loss', 'grad_norm', 'policy_loss', 'entropy']) expect(typeof line[metric]).toBe('number');
      expect(line).not.toHaveProperty('kl_div'); // beta is 0
    }
    expect(lines[0].at - started).toBeGreaterThanOrEqual(50);
    expect(lines[1].at - lines[0].at).toBeGreaterThanOrEqual(40); // flushed one at a time, not buffered
    expect(await getStep(art, model)).toBe(1);
    expect(art.trainCalls.at(-1)).toMatchObject({
      name: 'streamer',
      step: 0,
      groups: 3,
      trainableGroups: 2,
      linesSent: 2,
      outcome: 'completed',
    });
  });

  it('trains nothing on equal-reward groups but still advances the step', async () => {
    const model = { ...MODEL, name: 'flat' };
    art.setStep('atelier', 'flat', 4);
    const res = await post(`${art.url}/_train_model`, trainBody([group(1, 1, 1), group(0, 0)], model));
    expect(res.status).toBe(200);
    expect(await readLines(res)).toEqual([]);
    expect(art.stepOf('atelier', 'flat')).toBe(5);
    expect(art.trainCalls.at(-1)).toMatchObject({
      step: 4,
      trainableGroups: 0,
      gradientSteps: 0,
      outcome: 'completed',
    });
  });

  it('accepts plain assistant messages as context and reports kl_div when beta > 0', async () => {
    const t = trajectory(1);
    t.messages_and_choices.splice(
      2,
      0,
      { role: 'assistant', content: 'earlier turn' },
      { role: 'user', content: 'and?' },
    );
    const body = { ...trainBody([{ trajectories: [t, trajectory(0)] }]), config: { learning_rate: 1e-5, beta: 0.04 } };
    const res = await post(`${art.url}/_train_model`, body);
    expect(res.status).toBe(200);
    const [{ line }] = await readLines(res);
    expect(line).toHaveProperty('kl_div');
  });

  it.each([
    [
      'a choice without logprobs',
      () => {
        const t = trajectory(1);
        t.messages_and_choices[2] = { ...choice('x'), logprobs: null } as unknown as ReturnType<typeof choice>;
        return trainBody([{ trajectories: [t, trajectory(0)] }]);
      },
      ['body', 'trajectory_groups', 0, 'trajectories', 0, 'messages_and_choices', 2, 'logprobs'],
      'value_error',
    ],
    [
      'tokens not spelled token_id:N',
      () => {
        const t = trajectory(1);
        const bad = choice('hello world');
        bad.logprobs.content[0].token = 'hello';
        t.messages_and_choices[2] = bad;
        return trainBody([{ trajectories: [t, trajectory(0)] }]);
      },
      ['body', 'trajectory_groups', 0, 'trajectories', 0, 'messages_and_choices', 2, 'logprobs', 'content', 0, 'token'],
      'value_error',
    ],
    [
      'a missing learning rate',
      () => ({ ...trainBody([group(0, 1)]), config: { beta: 0 } }),
      ['body', 'config', 'learning_rate'],
      'missing',
    ],
    [
      'a reward that is not a number',
      () => trainBody([{ trajectories: [{ ...trajectory(0), reward: 'high' }] }]),
      ['body', 'trajectory_groups', 0, 'trajectories', 0, 'reward'],
      'float_type',
    ],
    [
      'a non-numeric metric',
      () => trainBody([{ trajectories: [{ ...trajectory(0), metrics: { m: 'x' } }] }]),
      ['body', 'trajectory_groups', 0, 'trajectories', 0, 'metrics', 'm'],
      'float_type',
    ],
    [
      'logs that are not strings',
      () => trainBody([{ trajectories: [{ ...trajectory(0), logs: [1] }] }]),
      ['body', 'trajectory_groups', 0, 'trajectories', 0, 'logs', 0],
      'string_type',
    ],
    [
      'a model without base_model',
      () => trainBody([group(0, 1)], { name: 'n', project: 'p' }),
      ['body', 'model', 'base_model'],
      'missing',
    ],
    [
      'no dev_config',
      () => ({ ...trainBody([group(0, 1)]), dev_config: undefined }),
      ['body', 'dev_config'],
      'missing',
    ],
  ])('rejects %s with a FastAPI 422', async (_case, makeBody, loc, type) => {
    const before = art.trainCalls.length;
    const res = await post(`${art.url}/_train_model`, makeBody());
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: unknown[]; type: string; msg: string }[] };
    expect(detail).toContainEqual(expect.objectContaining({ loc, type }));
    expect(art.trainCalls.length).toBe(before);
  });

  it('rejects malformed bodies on the other endpoints', async () => {
    const noBase = await post(`${art.url}/_get_step`, { name: 'n', project: 'p' });
    expect(noBase.status).toBe(422);
    expect(((await noBase.json()) as { detail: { loc: unknown[] }[] }).detail[0].loc).toEqual(['body', 'base_model']);
    expect((await post(`${art.url}/register`, { name: 'n' })).status).toBe(422);
    expect((await post(`${art.url}/_prepare_backend_for_training`, { model: MODEL })).status).toBe(422); // config: null is required
    const broken = await post(`${art.url}/register`, '{"name":');
    expect(broken.status).toBe(422);
    expect(((await broken.json()) as { detail: { type: string }[] }).detail[0].type).toBe('json_invalid');
  });

  it('fails with scripted statuses per endpoint, 429 with Retry-After', async () => {
    art.faults.failNext(1, 503, { endpoint: '/_get_step' });
    art.faults.failNext(1, 429, { retryAfter: 3 });
    expect((await fetch(`${art.url}/healthcheck`)).status).toBe(429); // the unscoped fault takes any endpoint
    const unavailable = await post(`${art.url}/_get_step`, MODEL);
    expect(unavailable.status).toBe(503);
    art.faults.failNext(1, 429, { endpoint: '/_train_model', retryAfter: 3 });
    const limited = await post(`${art.url}/_train_model`, trainBody([group(0, 1)]));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    art.faults.failNext(1, 500);
    const crashed = await post(`${art.url}/_get_step`, MODEL);
    expect(crashed.status).toBe(500);
    expect(await crashed.text()).toBe('Internal Server Error');
  });

  it('hangs until the client aborts, and delays prepare', async () => {
    art.faults.hangNext(1, { endpoint: '/_prepare_backend_for_training' });
    await expect(
      post(
        `${art.url}/_prepare_backend_for_training`,
        { model: MODEL, config: null },
        { signal: AbortSignal.timeout(80) },
      ),
    ).rejects.toThrow();
    art.faults.setPrepareDelay(100);
    const started = Date.now();
    expect((await post(`${art.url}/_prepare_backend_for_training`, { model: MODEL, config: null })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('breaks a training stream mid-way without advancing the step', async () => {
    const model = { ...MODEL, name: 'breaker' };
    art.faults.breakStreamNext(1, 1);
    const res = await post(`${art.url}/_train_model`, trainBody([group(0, 1), group(1, 0)], model));
    expect(res.status).toBe(200);
    await expect(readLines(res)).rejects.toThrow();
    expect(art.stepOf('atelier', 'breaker')).toBe(0);
    expect(art.trainCalls.at(-1)).toMatchObject({ name: 'breaker', linesSent: 1, outcome: 'broken' });
    // The next attempt trains the same step through.
    await readLines(await post(`${art.url}/_train_model`, trainBody([group(0, 1), group(1, 0)], model)));
    expect(art.stepOf('atelier', 'breaker')).toBe(1);
    expect(art.completedSteps('atelier', 'breaker')).toEqual([0]);
  });

  it('detects overlapping training calls', async () => {
    const own = await startArtBackendSim({ gradientStepMs: 40 });
    const a = { ...MODEL, name: 'a' };
    const b = { ...MODEL, name: 'b' };
    await Promise.all(
      [a, b].map(async (m) => readLines(await post(`${own.url}/_train_model`, trainBody([group(0, 1)], m)))),
    );
    expect(own.overlaps).toBe(1);
    expect(own.maxTrainingInFlight).toBe(2);
    expect(own.trainingInFlight).toBe(0);
    await own.close();
  });

  it('trains on a choice taken verbatim from the OpenAI simulator it points clients at', async () => {
    const openai = await startOpenAISim({ apiKey: KEY });
    const own = await startArtBackendSim({ inferenceUrl: openai.url, inferenceApiKey: KEY });
    try {
      const [baseUrl, apiKey] = (await (
        await post(`${own.url}/_prepare_backend_for_training`, { model: MODEL, config: null })
      ).json()) as [string, string];
      expect(new URL(baseUrl).hostname).toBe('0.0.0.0');
      const url = baseUrl.replace('0.0.0.0', '127.0.0.1');
      const completions = await Promise.all(
        [0, 1].map(async () => {
          const res = await post(`${url}/chat/completions`, rolloutBody('Hi', { logprobs: true }), {
            headers: { authorization: `Bearer ${apiKey}` },
          });
          return ((await res.json()) as { choices: unknown[] }).choices[0];
        }),
      );
      const trajectories = completions.map((c, i) => ({
        ...trajectory(i),
        messages_and_choices: [{ role: 'user', content: 'Hi' }, c],
      }));
      const res = await post(`${own.url}/_train_model`, trainBody([{ trajectories }]));
      expect(res.status).toBe(200);
      expect(await readLines(res)).toHaveLength(1);
      expect(own.stepOf('atelier', 'agent-1')).toBe(1);
    } finally {
      await own.close();
      await openai.close();
    }
  });

  it('destroys hanging connections on close', async () => {
    const own = await startArtBackendSim();
    own.faults.hangForever();
    const pending = fetch(`${own.url}/healthcheck`);
    await until(() => own.requests.length === 1);
    await own.close();
    await expect(pending).rejects.toThrow();
  });
});
