// Small builders for test data, sent through the public API.
import { randomUUID } from 'node:crypto';

import type { TrainingStatus, TrajectoryInput } from '../gql/graphql';
import { CreateRun, RecordTrajectories, TransitionRun } from '../operations';
import { expectResult } from './results';
import type { TestServer } from './server';

export async function createRun(
  s: TestServer,
  input: Partial<Parameters<typeof s.gql>[1] & object> & Record<string, unknown> = {},
) {
  const res = await s.gql(CreateRun, {
    input: {
      mode: 'TRACKED',
      modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
      projectName: 'demo',
      taskDescription: 'Answer support tickets politely',
      ...input,
    },
  });
  return expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
}

export async function transition(s: TestServer, runId: string, to: TrainingStatus, reason?: string) {
  const res = await s.gql(TransitionRun, { runId, to, reason });
  return expectResult(res.transitionRun, 'TransitionRunPayload').run;
}

/** Walks a run through the lifecycle to the given status along the state machine. */
export async function advanceTo(s: TestServer, runId: string, to: TrainingStatus) {
  const path: TrainingStatus[] = ['GENERATING', 'COLLECTING', 'SCORING', 'TRAINING', 'COMPLETED'];
  if (to === 'FAILED' || to === 'CANCELLED') return transition(s, runId, to, 'test');
  for (const status of path) {
    await transition(s, runId, status);
    if (status === to) break;
  }
}

export function trajectory(step: number, reward: number | null, extra: Partial<TrajectoryInput> = {}): TrajectoryInput {
  return {
    uuid: randomUUID(),
    taskInput: { step, inputText: `input for step ${step}`, context: { source: 'test' } },
    messages: [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: `input for step ${step}` },
      { role: 'assistant', content: `answer ${reward}` },
    ],
    reward,
    metadata: { step },
    ...extra,
  };
}

export async function recordTrajectories(s: TestServer, runId: string, trajectories: TrajectoryInput[]) {
  const res = await s.gql(RecordTrajectories, { runId, trajectories });
  return expectResult(res.recordTrajectories, 'RecordTrajectoriesPayload');
}
