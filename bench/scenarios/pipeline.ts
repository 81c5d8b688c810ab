// Pipeline: a whole pipeline run against the simulated provider and ART backend with fixed latencies
// (50 ms per rollout, 200 ms per judge call, 100 ms per gradient step), 32 inputs × 4 rollouts × 2
// epochs, against the critical path the configured concurrency allows: per step, the rollouts in
// waves of maxConcurrentRollouts, the judge calls in waves of maxConcurrentJudgeCalls, and the
// gradient steps the backend streamed one after another. Efficiency = critical path / wall time.
import { join } from 'node:path';

import { createApp } from '../../src/app';
import { makeConfig, parseDatabaseUrl } from '../../src/config';
import { startArtBackendSim } from '../../test/fixtures/art-backend-sim';
import { startOpenAISim } from '../../test/fixtures/openai-sim';
import { fmt, median, spread } from '../lib/stats';
import type { Scenario } from '../lib/types';

const ROUNDS = 3;
const TARGET = 0.9;
const INPUTS = 32;
const ROLLOUTS = 4;
const EPOCHS = 2;
const GROUPS_PER_STEP = 8;
const MAX_ROLLOUTS = 32;
const MAX_JUDGE_CALLS = 8;
const LATENCY = { rollout: 50, judge: 200, gradientStep: 100 };

const CREATE = `mutation($input: CreateTrainingRunInput!) { createTrainingRun(input: $input) { __typename ... on CreateTrainingRunPayload { run { id } } ... on Error { message } } }`;
const DETAILS = `query($id: ID!) { run(id: $id) { status error trainedModelName statusHistory { to at } } }`;

export const scenario: Scenario = {
  name: 'pipeline',
  order: 5,
  title: 'Pipeline',
  measures: `wall time of a pipeline run against the simulators with fixed latencies (${LATENCY.rollout} ms per rollout, ${LATENCY.judge} ms per judge call, ${LATENCY.gradientStep} ms per gradient step), ${INPUTS} inputs × ${ROLLOUTS} rollouts × ${EPOCHS} epochs, against the critical path the configured concurrency allows`,
  async run(ctx) {
    const openai = await startOpenAISim();
    const art = await startArtBackendSim({ inferenceUrl: openai.url, gradientStepMs: LATENCY.gradientStep });
    openai.faults.setLatency(LATENCY.rollout, 'rollout');
    openai.faults.setLatency(LATENCY.judge, 'judge');
    const config = makeConfig({
      port: 0,
      logLevel: 'silent',
      database: parseDatabaseUrl(`sqlite:${join(ctx.tempDir, 'pipeline.sqlite')}`),
      pipeline: {
        ...makeConfig().pipeline,
        artBackends: [{ name: 'sim', url: art.url }],
        openaiBaseUrl: openai.url,
        generatorModel: 'sim-generator',
        judgeModel: 'sim-judge',
      },
    });
    const app = await createApp(config);
    const url = `${await app.start(0)}/graphql`;
    const gql = async (query: string, variables: unknown) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as { data?: any; errors?: unknown };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    };
    const walls: number[] = [];
    const paths: number[] = [];
    const efficiencies: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const project = `bench-${round}`;
        const created = await gql(CREATE, {
          input: {
            modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
            projectName: project,
            taskDescription: 'Answer shipping questions',
            numExamples: INPUTS,
            rolloutsPerGroup: ROLLOUTS,
            numEpochs: EPOCHS,
            pipeline: {
              groupsPerStep: GROUPS_PER_STEP,
              maxConcurrentRollouts: MAX_ROLLOUTS,
              maxConcurrentJudgeCalls: MAX_JUDGE_CALLS,
            },
          },
        });
        const id = created.createTrainingRun.run.id as string;
        let run: any;
        const deadline = Date.now() + 120_000;
        do {
          await new Promise((r) => setTimeout(r, 100));
          run = (await gql(DETAILS, { id })).run;
          if (Date.now() > deadline)
            throw new Error(`the pipeline run did not finish within 2 minutes: ${JSON.stringify(run)}`);
        } while (!['COMPLETED', 'FAILED'].includes(run.status));
        if (run.status !== 'COMPLETED') throw new Error(`the pipeline run failed: ${run.error}`);
        const started = Date.parse(run.statusHistory.find((h: { to: string }) => h.to === 'GENERATING').at);
        const wall = Date.parse(run.statusHistory.at(-1).at) - started;
        // The critical path of each step, from what the backend actually trained.
        const steps = art.trainCalls.filter((c) => c.project === project && c.outcome === 'completed');
        const rolloutWaves = Math.ceil((GROUPS_PER_STEP * ROLLOUTS) / MAX_ROLLOUTS);
        const judgeWaves = Math.ceil(GROUPS_PER_STEP / MAX_JUDGE_CALLS);
        const path = steps.reduce(
          (sum, s) =>
            sum + rolloutWaves * LATENCY.rollout + judgeWaves * LATENCY.judge + s.gradientSteps * LATENCY.gradientStep,
          0,
        );
        walls.push(wall);
        paths.push(path);
        efficiencies.push(path / wall);
        ctx.log(
          `round ${round + 1}: ${steps.length} steps, wall ${fmt(wall / 1000)} s, critical path ${fmt(path / 1000)} s, efficiency ${fmt(path / wall)}`,
        );
      }
    } finally {
      await app.stop();
      await art.close();
      await openai.close();
    }
    const efficiency = median(efficiencies);
    const pass = efficiency >= TARGET;
    const overhead = median(walls.map((w, i) => w - paths[i]));
    return {
      status: 'measured',
      figures: [
        { label: 'wall time (median)', value: `${fmt(median(walls) / 1000)} s` },
        { label: 'critical path (median)', value: `${fmt(median(paths) / 1000)} s` },
        { label: 'efficiency per round', value: spread(efficiencies) },
        { label: 'time beyond the critical path (median)', value: `${fmt(overhead)} ms` },
      ],
      checks: [{ name: 'critical path / wall time', value: efficiency, target: `≥ ${TARGET}`, pass }],
      notes: [
        `${INPUTS} inputs, ${GROUPS_PER_STEP} groups per step: ${(INPUTS / GROUPS_PER_STEP) * EPOCHS} steps; maxConcurrentRollouts ${MAX_ROLLOUTS}, maxConcurrentJudgeCalls ${MAX_JUDGE_CALLS}. Wall time runs from GENERATING to COMPLETED, as stored; input generation, registration and preparation answer at once in the simulators and count as overhead. Medians of ${ROUNDS} runs in one server.`,
        ...(pass
          ? []
          : [
              `**Why the target is missed:** measured in this run: a run's wall time was ${fmt(median(walls))} ms against a critical path of ${fmt(median(paths))} ms, so ${fmt(overhead)} ms per run were spent outside the simulated latencies. The critical path is computed from the configured concurrency, not measured: the baseline the issue asks for, the same run driven by a minimal loop over the same simulators side by side, is not built yet.`,
            ]),
      ],
    };
  },
};
