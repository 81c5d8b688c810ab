// A run's costs through the API, on a real server driving a pipeline run against the simulated
// provider and ART backend over HTTP: the generator's and the judge's tokens as the provider's
// `usage` reported them, summed exactly; training time per step under ART's name; and `costs/…`
// values a tracked script logs with its history, summed as ART logs them (not the cumulative ones).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { tokenize } from './fixtures/openai-sim-replies';
import { graphql } from './gql';
import { createRun } from './helpers/builders';
import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { CreatePipelineRun, RecordMetrics } from './operations';

const Costs = graphql(`
  query RunCosts($id: ID!) {
    run(id: $id) { status costs { name total steps } }
  }
`);

let sims: Sims;
beforeAll(async () => {
  sims = await startSims();
});
afterAll(() => sims?.close());
const s = useTestServer(() => ({ pipeline: pipelineConfig(sims) }));

/** The prompt tokens the simulator reports for a request, and its completion tokens from the answer it sent. */
function promptTokensOf(body: unknown): number {
  const messages = (body as { messages: Array<{ content?: string | null }> }).messages;
  return messages.reduce((sum, m) => sum + 3 + tokenize(m.content ?? '').length, 0);
}

describe('run.costs', () => {
  it("sums the generator's and the judge's tokens from usage, and each step's training time", async () => {
    const res = await s.gql(CreatePipelineRun, {
      input: {
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'costs',
        taskDescription: 'Answer customer questions about shipping',
        numExamples: 4,
        rolloutsPerGroup: 2,
        numEpochs: 1,
        pipeline: { groupsPerStep: 2 },
      },
    });
    const run = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run;
    await waitFor(async () => (await s.gql(Costs, { id: run.id })).run!.status === 'COMPLETED', 60_000, 'COMPLETED');
    const costs = Object.fromEntries((await s.gql(Costs, { id: run.id })).run!.costs.map((c) => [c.name, c]));

    const sent = (kinds: string[]) =>
      sims.openai.requests.filter((r) => kinds.includes(r.kind ?? '') && r.status === 200);
    const generator = sent(['system-prompt', 'generate-inputs']);
    const judge = sent(['judge']);
    expect(costs['tokens/generator/prompt'].total).toBe(generator.reduce((n, r) => n + promptTokensOf(r.body), 0));
    expect(costs['tokens/judge/prompt'].total).toBe(judge.reduce((n, r) => n + promptTokensOf(r.body), 0));
    expect(costs['tokens/judge/completion'].total).toBeGreaterThan(0);
    expect(costs['tokens/judge/prompt'].steps).toBe(2); // 4 inputs, 2 a step
    expect(costs['time/step_trainer_s'].steps).toBe(2);
    expect(costs['time/step_trainer_s'].total).toBeGreaterThan(0);
  }, 90_000);

  it('sums costs/… values a script logs, leaving out the cumulative costs/cum/…', async () => {
    const run = await createRun(s, { projectName: 'costs-tracked' });
    const points = [0, 1, 2].map((step) => ({
      step,
      values: [
        { name: 'costs/train/llm_judge/correctness', value: 0.25 },
        { name: 'costs/cum/all', value: 0.25 * (step + 1) },
        { name: 'train/reward', value: 0.5 },
      ],
    }));
    const recorded = await s.gql(RecordMetrics, { runId: run.id, points });
    expect(recorded.recordMetrics.__typename).toBe('RecordMetricsPayload');
    const costs = (await s.gql(Costs, { id: run.id })).run!.costs;
    expect(costs).toEqual([{ name: 'costs/train/llm_judge/correctness', total: 0.75, steps: 3 }]);
  });
});
