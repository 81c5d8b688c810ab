// Resume after a crash: Atelier runs as its own process, is SIGKILLed in the middle of a pipeline
// run (once while collecting, once while training), and started again on the same database. The
// run completes with every step trained exactly once and no trajectory duplicated or lost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pipelineEnv, spawnServer, startSims, type ServerProcess, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { gqlAt } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { CreatePipelineRun, PipelineRunDetails, StepTrajectories } from './operations';

let sims: Sims;
let dir: string;
beforeAll(async () => {
  sims = await startSims({ gradientStepMs: 150 });
  sims.openai.faults.setLatency(40, 'rollout');
  dir = mkdtempSync(join(tmpdir(), 'atelier-resume-'));
});
afterAll(async () => {
  await sims?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('resume after SIGKILL', () => {
  it('completes the run with no step trained twice and no trajectory duplicated', async () => {
    const env = pipelineEnv(sims, `sqlite:${join(dir, 'atelier.sqlite')}`);
    let server: ServerProcess = await spawnServer(env);
    const details = async (id: string) => (await gqlAt(server.url, PipelineRunDetails, { id })).run!;
    let runId = '';
    try {
      const created = await gqlAt(server.url, CreatePipelineRun, {
        input: {
          modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
          projectName: 'resume',
          taskDescription: 'Classify tickets',
          numExamples: 6,
          rolloutsPerGroup: 3,
          numEpochs: 2,
          pipeline: { groupsPerStep: 2, maxConcurrentRollouts: 2 },
        },
      });
      runId = expectResult(created.createTrainingRun, 'CreateTrainingRunPayload').run.id;

      // Kill once while step 1 is collecting, once while step 3 is training.
      for (const [status, step] of [
        ['COLLECTING', 1],
        ['TRAINING', 3],
      ] as const) {
        await waitFor(
          async () => {
            const r = await details(runId);
            return (
              r.status === status &&
              r.currentStep === step &&
              (status !== 'COLLECTING' || r.trajectories.totalCount > step * 6)
            );
          },
          60_000,
          `${status} at step ${step}`,
        );
        await server.kill('SIGKILL');
        server = await spawnServer(env);
      }
      await waitFor(
        async () => ['COMPLETED', 'FAILED'].includes((await details(runId)).status),
        60_000,
        'the run to finish',
      );
      const done = await details(runId);
      expect(done.error).toBeNull();
      expect(done.status).toBe('COMPLETED');

      // Every step exactly once, in order, on the backend and in the history.
      expect(sims.art.completedSteps('resume', done.trainedModelName!)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(done.metricHistory.map((p) => p.step)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(done.metricHistory.every((p) => p.totalTrajectories === 6)).toBe(true);
      expect(done.metricHistory.map((p) => p.values.find((v) => v.name === 'groups')?.value)).toEqual([
        2, 2, 2, 2, 2, 2,
      ]);

      // Exactly items × rollouts per step: the interrupted step was redone cleanly, not duplicated.
      expect(done.trajectories.totalCount).toBe(36);
      const uuids = new Set<string>();
      for (let step = 0; step < 6; step++) {
        const page = (await gqlAt(server.url, StepTrajectories, { runId, step, first: 100 })).trajectories;
        expect(page.totalCount).toBe(6);
        for (const e of page.edges) {
          uuids.add(e.node.uuid);
          expect(e.node.reward).not.toBeNull();
        }
      }
      expect(uuids.size).toBe(36);
      expect(done.statusHistory.filter((h) => h.to === 'COMPLETED')).toHaveLength(1);
    } finally {
      await server.kill('SIGTERM');
    }
  }, 150_000);
});
