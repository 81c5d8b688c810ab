// Hundreds of concurrent mutations of every kind against one server: every acknowledged write is
// stored, and nothing that was refused or failed left anything behind.
import { describe, expect, it } from 'vitest';

import type { TrainingStatus } from './gql/graphql';
import { createRun, trajectory } from './helpers/builders';
import { useTestServer } from './helpers/server';
import {
  CreateRun,
  GetRun,
  ListRuns,
  ListTrajectories,
  MetricHistory,
  RecordMetrics,
  RecordTrajectories,
  TransitionRun,
} from './operations';

const s = useTestServer();

describe('concurrent writes', () => {
  it('stores exactly what was acknowledged', async () => {
    const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => createRun(s, { projectName: `conc-${i}` })));
    const ops: Promise<void>[] = [];
    const created: string[] = [];
    const recorded = new Map<string, Set<string>>(runs.map((r) => [r.id, new Set()]));
    const points = new Map<string, Set<number>>(runs.map((r) => [r.id, new Set()]));
    const transitions = new Map<string, number>(runs.map((r) => [r.id, 0]));
    let refused = 0;

    for (let i = 0; i < 100; i++) {
      ops.push(
        s
          .gql(CreateRun, {
            input: {
              mode: 'TRACKED',
              modelName: 'm',
              projectName: 'burst',
              taskDescription: `t${i}`,
              learningRate: i % 5 === 0 ? 5 : 0.001,
            },
          })
          .then((r) => {
            if (r.createTrainingRun.__typename === 'CreateTrainingRunPayload')
              created.push(r.createTrainingRun.run.uuid);
            else refused++;
          }),
      );
    }
    for (const run of runs) {
      const path: TrainingStatus[] = [
        'GENERATING',
        'COLLECTING',
        'SCORING',
        'TRAINING',
        'COLLECTING',
        'TRAINING',
        'SCORING',
        'CANCELLED',
      ];
      for (const to of path) {
        ops.push(
          s.gql(TransitionRun, { runId: run.id, to }).then((r) => {
            if (r.transitionRun.__typename === 'TransitionRunPayload')
              transitions.set(run.id, transitions.get(run.id)! + 1);
            else refused++;
          }),
        );
      }
      const shared = Array.from({ length: 20 }, () => trajectory(0, Math.random()));
      for (let b = 0; b < 12; b++) {
        // Every other batch re-sends the shared trajectories: idempotency under concurrency.
        const batch = [...(b % 2 ? shared : []), ...Array.from({ length: 15 }, () => trajectory(b % 3, Math.random()))];
        if (b === 5) batch.push({ ...trajectory(0, 1), messages: [{ role: 'narrator', content: 'invalid role' }] });
        ops.push(
          s.gql(RecordTrajectories, { runId: run.id, trajectories: batch }).then((r) => {
            if (r.recordTrajectories.__typename === 'RecordTrajectoriesPayload')
              batch.forEach((t) => recorded.get(run.id)!.add(t.uuid!));
            else refused++;
          }),
        );
      }
      for (let step = 0; step < 10; step++) {
        for (const copy of [0, 1]) {
          ops.push(
            s
              .gql(RecordMetrics, { runId: run.id, points: [{ step, epoch: 0, trainingLoss: step + copy / 10 }] })
              .then((r) => {
                if (r.recordMetrics.__typename === 'RecordMetricsPayload') points.get(run.id)!.add(step);
                else refused++;
              }),
          );
        }
      }
    }
    const results = await Promise.allSettled(ops);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(ops.length).toBeGreaterThan(400);
    expect(refused).toBeGreaterThan(0);

    const burst = await s.gql(ListRuns, { filter: { projectName: 'burst' }, first: 100 });
    expect(burst.runs.totalCount).toBe(created.length);
    expect(created.length).toBe(80);

    for (const run of runs) {
      const got = (await s.gql(GetRun, { id: run.id })).run!;
      expect(got.statusHistory).toHaveLength(1 + transitions.get(run.id)!);
      expect(got.status).toBe(got.statusHistory.at(-1)!.to);
      const stored = (await s.gql(ListTrajectories, { runId: run.id, first: 0 })).trajectories.totalCount;
      expect(stored).toBe(recorded.get(run.id)!.size);
      expect(got.metrics?.totalTrajectories).toBe(stored);
      const history = (await s.gql(MetricHistory, { id: run.id })).run!.metricHistory;
      expect(history.map((p) => p.step)).toEqual([...points.get(run.id)!].sort((a, b) => a - b));
      expect(history).toHaveLength(10);
    }
    expect((await fetch(`${s.url}/ready`)).status).toBe(200);
  }, 120_000);
});
