// The tracking API writes only into TRACKED runs (issue #12 item 10). It once wrote into PIPELINE
// runs, while they ran and after they completed: an injected trajectory was counted in step 0's
// avgReward, a recorded point made a phantom step 5, a transition fought the runner. Now
// recordTrajectories, recordMetrics and transitionRun on a PIPELINE run answer a RunModeError and
// change nothing; the pipeline's own writes go on, and cancelTrainingRun still stops a run.
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { trajectory } from './helpers/builders';
import { tableChecksums } from './helpers/db-checksum';
import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import {
  CancelRun,
  CreatePipelineRun,
  FleetRun,
  PipelineRunDetails,
  RecordCheckpoint,
  RecordMetrics,
  RecordTrajectories,
  RecordTrajectoryGroups,
  StepTrajectories,
  TransitionRun,
} from './operations';

let sims: Sims;
beforeAll(async () => {
  sims = await startSims({ gradientStepMs: 150 });
});
afterAll(() => sims?.close());
const s = useTestServer(() => ({ pipeline: pipelineConfig(sims, { maxConcurrentRuns: 2 }) }));

async function createPipelineRun(projectName: string) {
  const res = await s.gql(CreatePipelineRun, {
    input: {
      modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
      projectName,
      taskDescription: 'Answer shipping questions',
      numExamples: 4,
      rolloutsPerGroup: 2,
      numEpochs: 1,
      pipeline: { groupsPerStep: 2 },
    },
  });
  return expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
}

const status = async (id: string) => (await s.gql(PipelineRunDetails, { id })).run!.status;

/** The tracking writes, each of which must come back as a RunModeError naming PIPELINE. */
async function expectAllRefused(runId: string) {
  const injected = trajectory(0, 1, { uuid: '3f1c9a52-5e0b-4c3e-9d6e-2b7f00c0ffee' });
  const t = await s.gql(RecordTrajectories, { runId, trajectories: [injected] });
  expect(expectResult(t.recordTrajectories, 'RunModeError').mode).toBe('PIPELINE');
  const m = await s.gql(RecordMetrics, { runId, points: [{ step: 5, epoch: 0, trainingLoss: 9 }] });
  expect(expectResult(m.recordMetrics, 'RunModeError').mode).toBe('PIPELINE');
  const g = await s.gql(RecordTrajectoryGroups, { runId, step: 0, groups: [{ trajectories: [{ reward: 1 }] }] });
  expect(expectResult(g.recordTrajectoryGroups, 'RunModeError').message).toMatch(/PIPELINE run/);
  const c = await s.gql(RecordCheckpoint, { runId, step: 1, name: 'injected@1' });
  expect(expectResult(c.recordCheckpoint, 'RunModeError').message).toMatch(/PIPELINE run/);
  const tr = await s.gql(TransitionRun, { runId, to: 'FAILED', reason: 'injected' });
  const err = expectResult(tr.transitionRun, 'RunModeError');
  expect(err).toMatchObject({ mode: 'PIPELINE' });
  expect(err.message).toMatch(/PIPELINE run.*TRACKED runs.*cancelTrainingRun/);
}

describe('tracking writes into a PIPELINE run', () => {
  it('are refused while it runs and after it completes, and its records stay its own', async () => {
    const run = await createPipelineRun('mode-guard');
    await waitFor(
      async () => ['COLLECTING', 'SCORING', 'TRAINING'].includes(await status(run.id)),
      20_000,
      'the run to be under way',
    );
    await expectAllRefused(run.id);

    await waitFor(async () => (await status(run.id)) === 'COMPLETED', 30_000, 'the run to complete');
    const done = (await s.gql(PipelineRunDetails, { id: run.id })).run!;
    // 4 inputs, 2 per step, 1 epoch: steps 0 and 1, each 2 groups of 2 rollouts.
    expect(done.statusHistory.map((h) => h.to)).not.toContain('FAILED');
    expect(done.metricHistory.map((p) => p.step)).toEqual([0, 1]);
    expect(done.trajectories.totalCount).toBe(8);
    const step0 = (await s.gql(StepTrajectories, { runId: run.id, step: 0, first: 100 })).trajectories.edges.map(
      (e) => e.node,
    );
    expect(step0.map((t) => t.uuid)).not.toContain('3f1c9a52-5e0b-4c3e-9d6e-2b7f00c0ffee');
    const mean = step0.reduce((sum, t) => sum + t.reward!, 0) / step0.length;
    expect(done.metricHistory[0].avgReward).toBeCloseTo(mean, 12);
    expect(done.metricHistory[0].totalTrajectories).toBe(4);

    // Once it is finished, and its lease handed back, nothing the tracking API sends changes a byte.
    await waitFor(
      async () => (await s.gql(FleetRun, { id: run.id })).run!.leaseOwner === null,
      10_000,
      'the lease to be released',
    );
    const file = join(s.dir, 'atelier.sqlite');
    const before = tableChecksums(file);
    await expectAllRefused(run.id);
    expect(tableChecksums(file)).toEqual(before);
  }, 60_000);

  it('cancelTrainingRun still stops a PIPELINE run', async () => {
    const run = await createPipelineRun('mode-cancel');
    const res = await s.gql(CancelRun, { id: run.id });
    expect(expectResult(res.cancelTrainingRun, 'CancelTrainingRunPayload').run.status).toBe('CANCELLED');
  });
});
