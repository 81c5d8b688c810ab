// A pipeline run that trained nothing never ends COMPLETED in silence: every rollout failing, a
// backend that answers a training call without training, and a backend whose model is already far
// beyond the run's plan each end FAILED with the cause; a run where only some steps trained nothing
// ends COMPLETED and says which and why. (Before, all of these ended COMPLETED with no error.)
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { CreatePipelineRun, PipelineRunDetails } from './operations';

let sims: Sims;
beforeAll(async () => {
  sims = await startSims();
});
afterAll(() => sims?.close());
const s = useTestServer(() => ({ pipeline: pipelineConfig(sims, { retryAttempts: 2 }) }));
afterEach(() => {
  sims.openai.faults.reset();
  sims.art.faults.reset();
});

async function run(projectName: string, input: Record<string, unknown> = {}) {
  const res = await s.gql(CreatePipelineRun, {
    input: {
      modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
      projectName,
      taskDescription: 'Answer customer questions about shipping',
      numExamples: 4,
      rolloutsPerGroup: 2,
      numEpochs: 1,
      pipeline: { groupsPerStep: 2, maxConcurrentRollouts: 1 },
      ...input,
    },
  });
  const id = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run.id;
  let status = '';
  await waitFor(
    async () =>
      ['COMPLETED', 'FAILED', 'CANCELLED'].includes((status = (await s.gql(PipelineRunDetails, { id })).run!.status)),
    30_000,
    `run ${projectName} to end (last ${status})`,
  );
  return (await s.gql(PipelineRunDetails, { id })).run!;
}

describe('a pipeline run that trained nothing', () => {
  it('fails with the cause when every rollout failed', async () => {
    sims.openai.faults.failNext(8, 400, { kind: 'rollout', message: 'the model is overloaded' });
    const done = await run('all-rollouts-fail');
    expect(done.status).toBe('FAILED');
    expect(done.error).toMatch(
      /^TRAINING: no step was trained: step 0: every rollout failed \(last error: .*HTTP 400.*overloaded.*\); step 1: every rollout failed/,
    );
    expect(sims.art.callsTo('/_train_model').some((r) => JSON.stringify(r.body).includes('"all-rollouts-fail"'))).toBe(
      false,
    );
  }, 60_000);

  it('fails with the cause when the backend answers a training call without training', async () => {
    sims.art.faults.emptyTrainNext(2);
    const done = await run('empty-train');
    expect(done.status).toBe('FAILED');
    expect(done.error).toMatch(
      /no step was trained: step 0: the ART backend answered without training \(its step stayed at 0\); step 1: /,
    );
  }, 60_000);

  it("fails when the backend's model is already beyond what the run trained", async () => {
    sims.art.setStep('shared-name', 'reused-model', 40);
    const done = await run('shared-name', { trainedModelName: 'reused-model' });
    expect(done.status).toBe('FAILED');
    expect(done.error).toMatch(
      /reports model reused-model at step 40, but this run recorded 0 steps of its 2: another run or script has trained a model of this name/,
    );
    expect(done.metricHistory).toEqual([]);
  }, 60_000);

  it('completes, saying which steps trained nothing and why, when only some did', async () => {
    sims.openai.faults.failNext(4, 400, { kind: 'rollout', message: 'context length exceeded' });
    const done = await run('some-untrained');
    expect(done.status).toBe('COMPLETED');
    expect(done.error).toBeNull();
    const completed = done.statusHistory.at(-1)!;
    expect(completed.to).toBe('COMPLETED');
    expect(completed.reason).toMatch(
      /^1 of 2 steps trained nothing: step 0: every rollout failed \(last error: .*context length exceeded/,
    );
    expect(done.metricHistory.map((p) => p.step)).toEqual([0, 1]);
  }, 60_000);
});
