// Resume after a crash for HTTP rollouts: Atelier runs as its own process and is SIGKILLed while a
// step's episodes are being played against the example environment, with part of the step stored;
// started again on the same database, it redoes that step cleanly (the environment's episodes reset
// again under the same ids) and completes with every step trained once and no trajectory duplicated.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHttpEnvSim, type HttpEnvSim } from './fixtures/http-env-sim';
import { pipelineEnv, spawnServer, startSims, type ServerProcess, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { gqlAt } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { AgenticTrajectories, CreatePipelineRun, PipelineRunDetails } from './operations';

let sims: Sims;
let env: HttpEnvSim;
let dir: string;
beforeAll(async () => {
  [sims, env] = await Promise.all([startSims({ gradientStepMs: 100 }), startHttpEnvSim()]);
  sims.openai.faults.setLatency(60, 'rollout');
  dir = mkdtempSync(join(tmpdir(), 'atelier-http-resume-'));
});
afterAll(async () => {
  await env?.close();
  await sims?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('HTTP rollouts: resume after SIGKILL', () => {
  it('redoes the interrupted step cleanly: every step trained once, no trajectory duplicated', async () => {
    const serverEnv = pipelineEnv(sims, `sqlite:${join(dir, 'atelier.sqlite')}`);
    let server: ServerProcess = await spawnServer(serverEnv);
    const details = async (id: string) => (await gqlAt(server.url, PipelineRunDetails, { id })).run!;
    try {
      const created = await gqlAt(server.url, CreatePipelineRun, {
        input: {
          modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
          projectName: 'http-resume',
          taskDescription: 'Solve arithmetic with a calculator',
          systemPrompt: 'You are careful with numbers.',
          rolloutsPerGroup: 2,
          numEpochs: 1,
          scenarios: [3, 4, 5, 6, 7, 8].map((n) => ({
            inputText: `Compute ${n} * ${n} + 1`,
            context: { answer: n * n + 1 },
          })),
          pipeline: {
            groupsPerStep: 2,
            maxConcurrentRollouts: 2,
            rollout: { kind: 'HTTP', url: env.url, maxTurns: 6 },
          },
        },
      });
      const runId = expectResult(created.createTrainingRun, 'CreateTrainingRunPayload').run.id;

      // Kill while step 1 is collecting, with one of its groups stored and the other being played.
      await waitFor(
        async () => {
          const r = await details(runId);
          return r.status === 'COLLECTING' && r.currentStep === 1 && r.trajectories.totalCount > 4;
        },
        60_000,
        'step 1 partly stored',
      );
      await server.kill('SIGKILL');
      const resetsBefore = env.callsTo('/reset').length;
      server = await spawnServer(serverEnv);
      await waitFor(
        async () => ['COMPLETED', 'FAILED'].includes((await details(runId)).status),
        90_000,
        'the run to finish',
      );
      const done = await details(runId);
      expect(done.error).toBeNull();
      expect(done.status).toBe('COMPLETED');
      expect(sims.art.completedSteps('http-resume', done.trainedModelName!)).toEqual([0, 1, 2]);
      expect(done.metricHistory.map((p) => p.step)).toEqual([0, 1, 2]);
      expect(done.metricHistory.every((p) => p.totalTrajectories === 4)).toBe(true);

      const trajectories = (await gqlAt(server.url, AgenticTrajectories, { runId })).trajectories.edges.map(
        (e) => e.node,
      );
      expect(trajectories).toHaveLength(12);
      expect(new Set(trajectories.map((t) => t.uuid)).size).toBe(12);
      for (const t of trajectories) {
        expect(t.error).toBeNull();
        expect(t.messages.flatMap((m) => m.toolCalls ?? []).length).toBeGreaterThanOrEqual(3);
      }
      // The redone step's episodes were reset again under the ids they had: the same episodes, replayed.
      const replayed = env
        .callsTo('/reset')
        .slice(resetsBefore)
        .map((c) => c.body.episodeId);
      const first = new Set(
        env
          .callsTo('/reset')
          .slice(0, resetsBefore)
          .map((c) => c.body.episodeId),
      );
      expect(replayed.filter((id) => first.has(id)).length).toBeGreaterThan(0);
      expect(new Set(env.callsTo('/reset').map((c) => c.body.episodeId)).size).toBe(12);
    } finally {
      await server.kill('SIGTERM');
    }
  }, 180_000);
});
