// Per-run subscriptions end (issue #12 item 1): runStatusChanged(runId), runProgress, metricsRecorded
// and trajectoriesRecorded complete after the run's final transition, having delivered everything
// stored before it, and complete at once (after any replay) for a run already final. Through the
// real clients: graphql-ws and graphql-sse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { advanceTo, createRun, recordTrajectories, trajectory, transition } from './helpers/builders';
import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { REDIS_SKIP_REASON, redisUrl } from './helpers/redis';
import { expectResult } from './helpers/results';
import { useTestServer, type TestServer } from './helpers/server';
import { drain, quiet, sseClient, subscribe, subscribeSse, take, waitFor, wsClient } from './helpers/subscriptions';
import { CreatePipelineRun, OnMetrics, OnProgress, OnRunStatus, OnTrajectoryCounts, RecordMetrics } from './operations';

let sims: Sims;
beforeAll(async () => {
  sims = await startSims();
});
afterAll(() => sims?.close());
const s = useTestServer(() => ({ pipeline: pipelineConfig(sims, { maxConcurrentRuns: 2 }) }));

/** The race the end must not lose: every batch, point and transition queued when the final transition arrives. */
function completesAfterFinal(s: TestServer) {
  it('complete after the final transition, with everything stored before it delivered', async () => {
    const run = await createRun(s);
    const ws = wsClient(s.url);
    const sse = sseClient(s.url);
    const status = subscribe(ws, OnRunStatus, { runId: run.id });
    const statusSse = subscribeSse(sse, OnRunStatus, { runId: run.id });
    const metrics = subscribe(ws, OnMetrics, { runId: run.id });
    const batches = subscribe(ws, OnTrajectoryCounts, { runId: run.id });
    const batchesSse = subscribeSse(sse, OnTrajectoryCounts, { runId: run.id });
    const progress = subscribe(ws, OnProgress, { runId: run.id });
    // Nothing is read until the end: every event waits in the server's queue when the final transition comes.
    const baseline = s.app.events.listenerCount('runStatus'); // the runner listens too
    const started = [
      status.next(),
      statusSse.next(),
      metrics.next(),
      batches.next(),
      batchesSse.next(),
      progress.next(),
    ] as const;
    await waitFor(
      () =>
        s.app.events.listenerCount('trajectoriesRecorded') >= 2 &&
        s.app.events.listenerCount('metricsRecorded') >= 1 &&
        s.app.events.listenerCount('runProgress') >= 1 &&
        s.app.events.listenerCount('runStatus') >= baseline + 2,
      5000,
      'the subscriptions',
    );

    await advanceTo(s, run.id, 'TRAINING');
    for (let step = 0; step < 5; step++) {
      await recordTrajectories(s, run.id, [trajectory(step, 0.1 * step), trajectory(step, 0.2)]);
      expectResult(
        (await s.gql(RecordMetrics, { runId: run.id, points: [{ step, epoch: 0, trainingLoss: 1 / (step + 1) }] }))
          .recordMetrics,
        'RecordMetricsPayload',
      );
    }
    // The last batch and point, and the final transition right behind them.
    await recordTrajectories(s, run.id, [trajectory(5, 1)]);
    await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 5, epoch: 0 }] });
    await transition(s, run.id, 'COMPLETED');

    const [first, firstSse, firstMetric, firstBatch, firstBatchSse, firstProgress] = await Promise.all(started);
    const all = async <R>(head: IteratorResult<{ data?: R | null }>, rest: Parameters<typeof drain<R>>[0]) =>
      head.done ? [] : [head.value.data as R, ...(await drain(rest))];

    const statuses = await all(first, status);
    expect(statuses.map((e) => e.runStatusChanged.to)).toEqual([
      'GENERATING',
      'COLLECTING',
      'SCORING',
      'TRAINING',
      'COMPLETED',
    ]);
    expect((await all(firstSse, statusSse)).map((e) => e.runStatusChanged.to)).toEqual([
      'GENERATING',
      'COLLECTING',
      'SCORING',
      'TRAINING',
      'COMPLETED',
    ]);
    expect((await all(firstMetric, metrics)).map((e) => e.metricsRecorded.points.map((p) => p.step))).toEqual([
      [0],
      [1],
      [2],
      [3],
      [4],
      [5],
    ]);
    const expectedBatches = [0, 1, 2, 3, 4, 5].map((step) => ({ count: step === 5 ? 1 : 2, step }));
    expect((await all(firstBatch, batches)).map((e) => e.trajectoriesRecorded)).toEqual(expectedBatches);
    expect((await all(firstBatchSse, batchesSse)).map((e) => e.trajectoriesRecorded)).toEqual(expectedBatches);
    expect(firstProgress.done).toBe(true);
    await waitFor(
      () =>
        s.app.events.listenerCount('trajectoriesRecorded') === 0 && s.app.events.listenerCount('metricsRecorded') === 0,
      5000,
      'the listeners to be released',
    );
    await ws.dispose();
    sse.dispose();
  });
}

describe('per-run subscriptions of a TRACKED run', () => {
  completesAfterFinal(s);

  it('complete at once for a run already final, after replaying what afterEventId asks for', async () => {
    const run = await createRun(s);
    await advanceTo(s, run.id, 'TRAINING');
    await transition(s, run.id, 'CANCELLED', 'stopped');
    const ws = wsClient(s.url);
    expect(await drain(subscribe(ws, OnRunStatus, { runId: run.id }), 5000)).toEqual([]);
    const replayed = await drain(subscribe(ws, OnRunStatus, { runId: run.id, afterEventId: '0' }), 5000);
    expect(replayed.map((e) => e.runStatusChanged.to)).toEqual([
      'PENDING',
      'GENERATING',
      'COLLECTING',
      'SCORING',
      'TRAINING',
      'CANCELLED',
    ]);
    const tail = await drain(
      subscribe(ws, OnRunStatus, { runId: run.id, afterEventId: replayed[3].runStatusChanged.eventId }),
      5000,
    );
    expect(tail.map((e) => e.runStatusChanged.to)).toEqual(['TRAINING', 'CANCELLED']);
    expect(
      await drain(
        subscribe(ws, OnRunStatus, { runId: run.id, afterEventId: replayed[5].runStatusChanged.eventId }),
        5000,
      ),
    ).toEqual([]);
    expect(await drain(subscribe(ws, OnMetrics, { runId: run.id }), 5000)).toEqual([]);
    expect(await drain(subscribe(ws, OnTrajectoryCounts, { runId: run.id }), 5000)).toEqual([]);
    expect(await drain(subscribe(ws, OnProgress, { runId: run.id }), 5000)).toEqual([]);
    expect(await drain(subscribeSse(sseClient(s.url), OnRunStatus, { runId: run.id }), 5000)).toEqual([]);
    await ws.dispose();
  });

  it('a project or all-runs subscription stays open when one of its runs ends', async () => {
    const ws = wsClient(s.url);
    const baseline = s.app.events.listenerCount('runStatus'); // the runner listens too
    const project = subscribe(ws, OnRunStatus, { projectName: 'stays-open' });
    const first = project.next();
    await waitFor(() => s.app.events.listenerCount('runStatus') > baseline, 5000, 'the subscription');
    const run = await createRun(s, { projectName: 'stays-open' });
    await transition(s, run.id, 'CANCELLED', 'done');
    expect((await first).value.data.runStatusChanged.to).toBe('PENDING');
    expect((await take(project, 1))[0].runStatusChanged.to).toBe('CANCELLED');
    expect(await quiet(project, 300)).toBe(true);
    await ws.dispose();
  });
});

describe.skipIf(!redisUrl)(`per-run subscriptions over Redis${redisUrl ? '' : ` [${REDIS_SKIP_REASON}]`}`, () => {
  completesAfterFinal(useTestServer({ redisUrl, redisPrefix: `completion-${process.pid}-${Date.now()}` }));
});

describe('per-run subscriptions of a PIPELINE run', () => {
  it('complete after COMPLETED, every step, point and batch delivered', async () => {
    const ws = wsClient(s.url);
    // The generator answers slowly until every subscription is listening, so none misses the start.
    sims.openai.faults.setLatency(300);
    const res = await s.gql(CreatePipelineRun, {
      input: {
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'ends',
        taskDescription: 'Answer shipping questions',
        numExamples: 4,
        rolloutsPerGroup: 2,
        numEpochs: 2,
        pipeline: { groupsPerStep: 2 },
      },
    });
    const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
    const streams = {
      status: drain(subscribe(ws, OnRunStatus, { runId: run.id, afterEventId: '0' }), 60_000),
      progress: drain(subscribe(ws, OnProgress, { runId: run.id }), 60_000),
      metrics: drain(subscribe(ws, OnMetrics, { runId: run.id }), 60_000),
      batches: drain(subscribe(ws, OnTrajectoryCounts, { runId: run.id }), 60_000),
    };
    await waitFor(
      () =>
        s.app.events.listenerCount('trajectoriesRecorded') === 1 &&
        s.app.events.listenerCount('metricsRecorded') === 1 &&
        s.app.events.listenerCount('runProgress') === 1,
      5000,
      'the subscriptions',
    );
    sims.openai.faults.setLatency(0);
    const status = await streams.status;
    expect(status.at(-1)!.runStatusChanged.to).toBe('COMPLETED');
    // 4 inputs / 2 per step × 2 epochs: 4 steps, each 2 groups of 2 rollouts.
    expect((await streams.metrics).flatMap((e) => e.metricsRecorded.points.map((p) => p.step))).toEqual([0, 1, 2, 3]);
    expect((await streams.batches).reduce((n, e) => n + e.trajectoriesRecorded.count, 0)).toBe(16);
    const progress = await streams.progress;
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)!.runProgress.step).toBe(3);
    await ws.dispose();
  }, 90_000);
});

describe('what a status event says', () => {
  it('a replayed event says the status as of the event; its run is the run as stored now', async () => {
    const run = await createRun(s);
    await advanceTo(s, run.id, 'TRAINING');
    await transition(s, run.id, 'COLLECTING'); // the next step
    const ws = wsClient(s.url);
    const events = subscribe(ws, OnRunStatus, { runId: run.id, afterEventId: '0' });
    const replayed = (await take(events, 6)).map((e) => e.runStatusChanged);
    expect(replayed.map((e) => [e.to, e.statusAtEvent, e.run.status])).toEqual([
      ['PENDING', 'PENDING', 'COLLECTING'],
      ['GENERATING', 'GENERATING', 'COLLECTING'],
      ['COLLECTING', 'COLLECTING', 'COLLECTING'],
      ['SCORING', 'SCORING', 'COLLECTING'],
      ['TRAINING', 'TRAINING', 'COLLECTING'],
      ['COLLECTING', 'COLLECTING', 'COLLECTING'],
    ]);
    // Live, the status at the event is the status now.
    await transition(s, run.id, 'FAILED', 'out of memory');
    const [live] = (await take(events, 1)).map((e) => e.runStatusChanged);
    expect(live).toMatchObject({
      to: 'FAILED',
      statusAtEvent: 'FAILED',
      run: { status: 'FAILED', error: 'out of memory' },
    });
    expect(await drain(events, 5000)).toEqual([]);
    await ws.dispose();
  });
});
