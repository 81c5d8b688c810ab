// `npm run demo` end to end: the script starts the simulators and Atelier on its own database,
// labels everything SIMULATED (log, API, page), and its pipeline run goes through every stage to
// COMPLETED, a history point per step, within a minute; SIGTERM stops it cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { graphql } from './gql';
import { ensureDashboardBuilt } from './helpers/dashboard-bundle';
import { gqlAt } from './helpers/server';

const DemoRun = graphql(`
  query DemoRunCheck {
    server { simulated }
    runs(first: 5) { totalCount edges { node { id status projectName totalSteps statusHistory { to } metricHistory { step avgReward trainingLoss } trajectories(first: 1, orderBy: { field: REWARD, direction: DESC }) { totalCount edges { node { judgeExplanation } } } } } }
  }
`);

const AgenticDemoRun = graphql(`
  query AgenticDemoRun {
    runs(first: 5) { edges { node { id status error projectName trajectories(first: 50) { totalCount edges { node { reward metadata messages { role trainable toolCalls { name } } } } } } } }
  }
`);

let dir: string;
let child: ChildProcess | undefined;
let output = '';

beforeAll(() => {
  ensureDashboardBuilt();
  dir = mkdtempSync(join(tmpdir(), 'atelier-demo-'));
}, 120_000);
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('runs a SIMULATED pipeline run through every stage to COMPLETED within a minute, on its own database, and stops on SIGTERM', async () => {
    const started = Date.now();
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
      env: {
        ...process.env,
        PORT: '0',
        LOG_LEVEL: 'info',
        ATELIER_DEMO_DB: join(dir, 'demo.sqlite'),
        DATABASE_URL: 'sqlite:/nonexistent/never-used.sqlite',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo printed no dashboard address:\n${output}`)), 30_000);
      const check = () => {
        const m = /Dashboard:\s+(http:\/\/\S+?)\/\s/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      };
      child!.stdout!.on('data', check);
      child!.once('exit', (code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
    });

    expect(output).toMatch(/SIMULATED/);
    expect(output).toMatch(/WARN SIMULATED: the model provider and the ART backend are simulators/);
    expect(output).toContain(join(dir, 'demo.sqlite'));
    const page = await (await fetch(`${url}/`)).text();
    expect(page).toContain('<meta name="atelier-simulated" content="true" />');

    let data = await gqlAt(url, DemoRun);
    expect(data.server.simulated).toBe(true);
    while (data.runs.edges[0]?.node.status !== 'COMPLETED' && Date.now() - started < 60_000) {
      expect(['FAILED', 'CANCELLED']).not.toContain(data.runs.edges[0]?.node.status);
      await new Promise((r) => setTimeout(r, 500));
      data = await gqlAt(url, DemoRun);
    }
    const seconds = (Date.now() - started) / 1000;
    expect(data.runs.totalCount).toBe(1);
    const run = data.runs.edges[0].node;
    expect(run.status, `the demo run did not complete within a minute:\n${output}`).toBe('COMPLETED');
    const stages = new Set(run.statusHistory.map((t) => t.to));
    for (const stage of ['PENDING', 'GENERATING', 'COLLECTING', 'SCORING', 'TRAINING', 'COMPLETED'] as const)
      expect(stages).toContain(stage);
    expect(run.metricHistory).toHaveLength(run.totalSteps!);
    expect(run.totalSteps).toBeGreaterThanOrEqual(10);
    expect(run.metricHistory.every((p) => p.avgReward !== null && p.trainingLoss !== null)).toBe(true);
    // The simulated learner improves: the last steps score better than the first ones.
    const mean = (xs: (number | null)[]) => xs.reduce<number>((a, b) => a + (b ?? 0), 0) / xs.length;
    expect(mean(run.metricHistory.slice(-4).map((p) => p.avgReward))).toBeGreaterThan(
      mean(run.metricHistory.slice(0, 4).map((p) => p.avgReward)),
    );
    expect(run.trajectories.edges[0].node.judgeExplanation).toBeTruthy();
    console.log(`demo run completed in ${seconds.toFixed(1)} s (${run.totalSteps} steps)`);

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM: stopping');
  }, 90_000);

  it('--agentic runs a multi-turn, tool-calling HTTP-rollout run to COMPLETED against the example environment', async () => {
    const agentic = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--agentic'], {
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ATELIER_DEMO_DB: join(dir, 'agentic.sqlite') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = agentic;
    let out = '';
    agentic.stdout!.on('data', (d) => (out += d));
    agentic.stderr!.on('data', (d) => (out += d));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo printed no dashboard address:\n${out}`)), 30_000);
      agentic.stdout!.on('data', () => {
        const m = /Dashboard:\s+(http:\/\/\S+?)\/\s/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      agentic.once('exit', (code) => reject(new Error(`the demo exited with ${code}:\n${out}`)));
    });
    expect(out).toMatch(/example calculator environment \(HTTP rollouts\)/);
    let run = (await gqlAt(url, AgenticDemoRun)).runs.edges[0]?.node;
    while (!['COMPLETED', 'FAILED', 'CANCELLED'].includes(run?.status ?? '')) {
      await new Promise((r) => setTimeout(r, 500));
      run = (await gqlAt(url, AgenticDemoRun)).runs.edges[0]?.node;
    }
    expect(run!.error).toBeNull();
    expect(run!.status).toBe('COMPLETED');
    expect(run!.projectName).toBe('demo-agentic');
    expect(run!.trajectories.totalCount).toBe(64);
    for (const { node } of run!.trajectories.edges) {
      expect(node.messages.flatMap((m) => m.toolCalls ?? []).length).toBeGreaterThanOrEqual(3);
      expect(node.metadata).toMatchObject({ rollout_kind: 'http', reward_source: 'environment' });
    }
    const exited = new Promise<number | null>((resolve) => agentic.once('exit', (code) => resolve(code)));
    agentic.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});
