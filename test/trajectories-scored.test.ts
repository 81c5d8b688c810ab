// When RULER scores trajectories, subscribers learn it (issue #12 item 2): trajectoriesScored pushes
// each scored group, after its scores are stored, with the rewards and the judge's explanations.
// Before, only unscored trajectories were ever pushed (trajectoriesRecorded, at collection).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { drain, subscribe, waitFor, wsClient } from './helpers/subscriptions';
import { CreatePipelineRun, OnTrajectoriesScored, StepTrajectories } from './operations';

let sims: Sims;
beforeAll(async () => {
  sims = await startSims();
});
afterAll(() => sims?.close());
const s = useTestServer(() => ({ pipeline: pipelineConfig(sims) }));

describe('trajectoriesScored', () => {
  it('pushes every group RULER scores with the stored rewards and explanations, then completes with the run', async () => {
    const ws = wsClient(s.url);
    // The generator answers slowly until the subscription listens, so it misses nothing.
    sims.openai.faults.setLatency(300);
    const res = await s.gql(CreatePipelineRun, {
      input: {
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'scored',
        taskDescription: 'Answer shipping questions',
        numExamples: 4,
        rolloutsPerGroup: 3,
        numEpochs: 1,
        pipeline: { groupsPerStep: 2 },
      },
    });
    const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
    const events = drain(subscribe(ws, OnTrajectoriesScored, { runId: run.id }), 60_000);
    await waitFor(() => s.app.events.listenerCount('trajectoriesScored') === 1, 5000, 'the subscription');
    sims.openai.faults.setLatency(0);

    const scored = (await events).map((e) => e.trajectoriesScored);
    // 4 inputs, 2 per step: 2 steps of 2 groups of 3 rollouts, each group scored once.
    expect(scored).toHaveLength(4);
    expect(scored.map((e) => e.step).sort()).toEqual([0, 0, 1, 1]);
    for (const e of scored) {
      expect(e.count).toBe(3);
      expect(new Set(e.trajectories.map((t) => t.taskInput.step))).toEqual(new Set([e.step]));
      for (const t of e.trajectories) {
        expect(t.reward).toBeGreaterThanOrEqual(0);
        expect(t.reward).toBeLessThanOrEqual(1);
        expect(t.judgeExplanation).toBeTruthy();
      }
    }
    // What was pushed is what is stored.
    const stored = new Map<string, { reward: number | null; judgeExplanation: string | null }>();
    for (const step of [0, 1]) {
      for (const { node } of (await s.gql(StepTrajectories, { runId: run.id, step, first: 100 })).trajectories.edges)
        stored.set(node.uuid, node);
    }
    const pushed = scored.flatMap((e) => e.trajectories);
    expect(pushed).toHaveLength(12);
    expect(new Set(pushed.map((t) => t.uuid)).size).toBe(12);
    for (const t of pushed)
      expect(stored.get(t.uuid)).toMatchObject({ reward: t.reward, judgeExplanation: t.judgeExplanation });
    await ws.dispose();
  }, 60_000);
});
