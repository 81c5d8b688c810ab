// The MCP rollout kind end to end: the example MCP server (examples/mcp-server) as its own process on
// a free port, reached over Streamable HTTP with the official SDK; the simulated inference server
// calls its tools and then complete_task; RULER ranks the groups with <available_tools>; the trainer
// gets every assistant choice with its logprobs.
import { spawn, type ChildProcess } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { waitDone } from './fixtures/pipeline-bed';
import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { AgenticTrajectories, CreatePipelineRun } from './operations';

let sims: Sims;
let mcp: ChildProcess;
let mcpUrl = '';
beforeAll(async () => {
  sims = await startSims();
  mcp = spawn(process.execPath, ['--import', 'tsx', 'examples/mcp-server/math-server.ts'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  mcpUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the MCP server did not start:\n${out}`)), 30_000);
    const read = (d: Buffer) => {
      out += d;
      const m = /MCP server at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    mcp.stdout!.on('data', read);
    mcp.stderr!.on('data', read);
  });
});
afterAll(async () => {
  mcp?.kill('SIGTERM');
  await sims?.close();
});
const s = useTestServer(() => ({ pipeline: pipelineConfig(sims) }));

describe('MCP rollouts', () => {
  it("run the tool loop against a real MCP server, RULER scores with the server's tools, every choice is trained", async () => {
    const judgeCalls = sims.openai.callsOf('judge').length;
    const trainsBefore = sims.art.requests.filter((r) => r.path === '/_train_model').length;
    const res = await s.gql(CreatePipelineRun, {
      input: {
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'mcp',
        taskDescription: 'Answer math questions with the tools',
        rolloutsPerGroup: 2,
        numEpochs: 1,
        scenarios: [{ inputText: 'What is 12 * 12 - 4?' }, { inputText: 'What is a gross plus 6 * 7?' }],
        pipeline: { groupsPerStep: 2, rollout: { kind: 'MCP', url: mcpUrl, maxTurns: 6 } },
      },
    });
    const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
    const done = await waitDone(s, run.id, 60_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('COMPLETED');

    const trajectories = (await s.gql(AgenticTrajectories, { runId: run.id })).trajectories.edges.map((e) => e.node);
    expect(trajectories).toHaveLength(4);
    for (const t of trajectories) {
      expect(t.error).toBeNull();
      const calls = t.messages.flatMap((m) => m.toolCalls ?? []);
      expect(calls.map((c) => c.name)).toEqual(['calculate', 'lookup_constant', 'calculate', 'complete_task']);
      // Results came from the MCP server itself.
      const results = t.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(results[1]).toMatch(/^(gross = 144|unknown constant)/);
      expect(results[3]).toBe('Task marked complete.');
      expect((t.tools as Array<{ function: { name: string } }>).map((x) => x.function.name)).toEqual([
        'calculate',
        'lookup_constant',
        'complete_task',
      ]);
      expect(t.judgeExplanation).toBeTruthy();
      expect(t.metadata).toMatchObject({ rollout_kind: 'mcp', turns: 4 });
    }
    const judged = sims.openai.callsOf('judge').slice(judgeCalls);
    expect(judged).toHaveLength(2);
    for (const call of judged) {
      const prompt = (call.body as { messages: Array<{ content: string }> }).messages[1].content;
      expect(prompt).toContain('<available_tools>');
      expect(prompt).toContain('"name": "lookup_constant"');
    }
    const train = sims.art.requests.filter((r) => r.path === '/_train_model').slice(trainsBefore);
    expect(train).toHaveLength(1);
    const body = train[0].body as {
      trajectory_groups: Array<{ trajectories: Array<{ messages_and_choices: Array<Record<string, unknown>> }> }>;
    };
    for (const t of body.trajectory_groups.flatMap((g) => g.trajectories)) {
      const choices = t.messages_and_choices.filter((m) => m.role === undefined);
      expect(choices).toHaveLength(4);
      for (const c of choices) expect((c.logprobs as { content: unknown[] }).content.length).toBeGreaterThan(0);
    }
  });

  it('stores episodes failed with their cause when the MCP server cannot be reached', async () => {
    const res = await s.gql(CreatePipelineRun, {
      input: {
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'mcp-down',
        taskDescription: 'Answer math questions with the tools',
        rolloutsPerGroup: 2,
        numEpochs: 1,
        scenarios: [{ inputText: 'What is 2 + 2?' }],
        pipeline: { groupsPerStep: 1, rollout: { kind: 'MCP', url: 'http://127.0.0.1:9/mcp', maxTurns: 3 } },
      },
    });
    const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
    const done = await waitDone(s, run.id, 60_000);
    expect(done.status).toBe('FAILED');
    expect(done.error).toContain('every rollout failed');
    const trajectories = (await s.gql(AgenticTrajectories, { runId: run.id })).trajectories.edges.map((e) => e.node);
    expect(trajectories.map((t) => t.error)).toEqual([
      expect.stringMatching(/^EnvironmentError: MCP server http:\/\/127\.0\.0\.1:9\/mcp: could not connect/),
      expect.stringMatching(/^EnvironmentError: MCP server http:\/\/127\.0\.0\.1:9\/mcp: could not connect/),
    ]);
  });

  it("writes a run's inputs from the MCP server's tools when it has no scenarios", async () => {
    const before = sims.openai.callsOf('generate-inputs').length;
    const res = await s.gql(CreatePipelineRun, {
      input: {
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'mcp-generated',
        taskDescription: 'Answer math questions with the tools',
        numExamples: 2,
        rolloutsPerGroup: 2,
        numEpochs: 1,
        pipeline: { groupsPerStep: 2, rollout: { kind: 'MCP', url: mcpUrl, maxTurns: 6 } },
      },
    });
    const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
    const done = await waitDone(s, run.id, 60_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('COMPLETED');
    expect(done.taskInputs).toHaveLength(2);
    const asked = sims.openai.callsOf('generate-inputs').slice(before);
    expect(asked.length).toBeGreaterThan(0);
    const prompt = (asked[0].body as { messages: Array<{ role: string; content: string }> }).messages
      .map((m) => m.content)
      .join('\n');
    expect(prompt).toContain('- calculate: Evaluates an arithmetic expression');
    expect(prompt).toContain('- lookup_constant: The value of a named constant');
  });
});

/** A proxy in front of the MCP server that answers the next tools/call requests with scripted faults. */
async function faultyProxy(upstream: string) {
  const { createServer } = await import('node:http');
  const { Readable } = await import('node:stream');
  const faults: Array<'503' | 'malformed'> = [];
  const served: string[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    if (req.method === 'POST' && body.includes('"tools/call"') && faults.length) {
      const fault = faults.shift()!;
      served.push(fault);
      if (fault === '503') res.writeHead(503, { 'content-type': 'text/plain' }).end('overloaded');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc": "2.0", "res');
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k)) headers[k] = v;
    const up = await fetch(new URL(req.url!, upstream), {
      method: req.method,
      headers,
      body: ['GET', 'HEAD'].includes(req.method!) ? undefined : body,
    });
    const out: Record<string, string> = {};
    up.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    res.writeHead(up.status, out);
    if (up.body) Readable.fromWeb(up.body as import('node:stream/web').ReadableStream).pipe(res);
    else res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${new URL(upstream).pathname}`,
    faults,
    served,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('MCP faults, mapped and retried as HTTP faults are (src/rollouts/faults.ts)', () => {
  it('asks a tools/call again after a 5xx and after a malformed answer, with backoff; the episodes succeed', async () => {
    const proxy = await faultyProxy(mcpUrl);
    try {
      proxy.faults.push('503', '503', 'malformed');
      const res = await s.gql(CreatePipelineRun, {
        input: {
          modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
          projectName: 'mcp-faults',
          taskDescription: 'Answer math questions with the tools',
          rolloutsPerGroup: 2,
          numEpochs: 1,
          scenarios: [{ inputText: 'What is 12 * 12 - 4?' }],
          pipeline: { groupsPerStep: 1, rollout: { kind: 'MCP', url: proxy.url, maxTurns: 6 } },
        },
      });
      const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
      const done = await waitDone(s, run.id, 60_000);
      expect(done.error).toBeNull();
      expect(done.status).toBe('COMPLETED');
      expect(proxy.served).toEqual(['503', '503', 'malformed']);
      const trajectories = (await s.gql(AgenticTrajectories, { runId: run.id })).trajectories.edges.map((e) => e.node);
      expect(trajectories.map((t) => t.error)).toEqual([null, null]);
      for (const t of trajectories)
        expect(t.messages.flatMap((m) => m.toolCalls ?? []).map((c) => c.name)).toEqual([
          'calculate',
          'lookup_constant',
          'calculate',
          'complete_task',
        ]);
    } finally {
      await proxy.close();
    }
  });
});
