// A WORKER rollout's settings are checked when the run is created: a typed ValidationError naming the
// field and the rule, and nothing is stored (no Python needed: the checks are Atelier's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { CreatePipelineRun } from './operations';

let sims: Sims;
beforeAll(async () => {
  sims = await startSims();
});
afterAll(() => sims?.close());
// The run's backend is an `art run` server, not an Atelier worker.
const s = useTestServer(() => ({ pipeline: pipelineConfig(sims) }));

const RUNS = `query { runs(first: 100) { totalCount } }`;

async function create(rollout: Record<string, unknown>) {
  const res = await s.gql(CreatePipelineRun, {
    input: {
      modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
      projectName: 'worker-settings',
      taskDescription: 'Solve arithmetic',
      rolloutsPerGroup: 2,
      scenarios: [{ inputText: 'Compute 1 + 1', context: { answer: 2 } }],
      pipeline: { rollout: rollout as never },
    },
  });
  return expectResult(res.createTrainingRun, 'ValidationError');
}

describe('WORKER rollout settings', () => {
  it('are refused with the field and the rule named, and nothing is stored', async () => {
    const before = (await s.gql<{ runs: { totalCount: number } }, unknown>(RUNS, {})).runs.totalCount;
    expect((await create({ kind: 'WORKER' })).issues).toEqual([
      expect.objectContaining({ field: 'input.pipeline.rollout.entrypoint', rule: 'required' }),
    ]);
    const malformed = await create({ kind: 'WORKER', entrypoint: 'not a module path' });
    expect(malformed.issues[0]).toMatchObject({ field: 'input.pipeline.rollout.entrypoint' });
    expect(malformed.issues[0].message).toContain('pkg.module:function');
    // Not a worker backend, and no worker url: nowhere to run the user's Python.
    const nowhere = await create({ kind: 'WORKER', entrypoint: 'agent.rollouts:rollout' });
    expect(nowhere.issues).toEqual([
      expect.objectContaining({ field: 'input.pipeline.rollout.url', rule: 'required' }),
    ]);
    expect(nowhere.issues[0].message).toContain('--rollouts-only');
    expect((await s.gql<{ runs: { totalCount: number } }, unknown>(RUNS, {})).runs.totalCount).toBe(before);
  });

  it('take a worker url for the rollouts when the backend trains elsewhere', async () => {
    const res = await s.gql(CreatePipelineRun, {
      input: {
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'worker-settings-url',
        taskDescription: 'Solve arithmetic',
        rolloutsPerGroup: 2,
        scenarios: [{ inputText: 'Compute 1 + 1', context: { answer: 2 } }],
        pipeline: {
          rollout: { kind: 'WORKER', entrypoint: 'agent.rollouts:rollout', url: 'http://127.0.0.1:9' },
        },
      },
    });
    const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
    expect((run.config as { pipeline: { rollout: unknown } }).pipeline.rollout).toEqual({
      kind: 'worker',
      entrypoint: 'agent.rollouts:rollout',
      url: 'http://127.0.0.1:9',
    });
    const { CancelRun } = await import('./operations');
    await s.gql(CancelRun, { id: run.id });
  });
});
