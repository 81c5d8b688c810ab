// Scenarios from the user: createDataset (checked, split into train and a held-out val part, all or
// nothing) and PIPELINE runs that train on a dataset (datasetId) or on inline scenarios instead of
// generated inputs, through GraphQL against a real server wired to the simulators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { graphql } from './gql';
import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { CreatePipelineRun } from './operations';

const CreateDataset = graphql(`
  mutation CreateDataset($name: String!, $items: [ScenarioInput!]!, $splits: DatasetSplitsInput) {
    createDataset(name: $name, items: $items, splits: $splits) {
      __typename
      ... on CreateDatasetPayload { dataset { id name trainCount valCount items { inputText context split } } }
      ... on ValidationError { issues { field rule message } }
      ... on Error { message }
    }
  }
`);

const Datasets = graphql(`
  query Datasets {
    datasets(first: 100) { id name }
  }
`);

const RunInputs = graphql(`
  query RunInputs($id: ID!) {
    run(id: $id) {
      status error numExamples
      taskInputs { inputText context split }
      trajectories(first: 100) { totalCount edges { node { taskInput { inputText } } } }
    }
  }
`);

let sims: Sims;
beforeAll(async () => {
  sims = await startSims();
});
afterAll(() => sims?.close());
const s = useTestServer(() => ({ pipeline: pipelineConfig(sims) }));

const items = Array.from({ length: 8 }, (_, i) => ({
  inputText: `What is ${i} + ${i}?`,
  context: { answer: 2 * i },
}));

describe('createDataset', () => {
  it('stores the items with a seeded held-out val part, the same split for the same seed', async () => {
    const make = async (seed: number) =>
      expectResult(
        (await s.gql(CreateDataset, { name: 'sums', items, splits: { valCount: 3, seed } })).createDataset,
        'CreateDatasetPayload',
      ).dataset;
    const a = await make(7);
    const b = await make(7);
    expect(a).toMatchObject({ name: 'sums', trainCount: 5, valCount: 3 });
    expect(a.items.map((i) => i.inputText)).toEqual(items.map((i) => i.inputText));
    expect(a.items.map((i) => i.context)).toEqual(items.map((i) => i.context));
    expect(a.items.filter((i) => i.split === 'VAL')).toHaveLength(3);
    expect(b.items.map((i) => i.split)).toEqual(a.items.map((i) => i.split));
    // An item's own split is kept.
    const own = expectResult(
      (await s.gql(CreateDataset, { name: 'own', items: [{ inputText: 'a' }, { inputText: 'b', split: 'VAL' }] }))
        .createDataset,
      'CreateDatasetPayload',
    ).dataset;
    expect(own.items.map((i) => i.split)).toEqual(['TRAIN', 'VAL']);
  });

  it('refuses bad items with every problem named by field and rule, storing nothing', async () => {
    const before = (await s.gql(Datasets, {})).datasets.length;
    const bad = expectResult(
      (
        await s.gql(CreateDataset, {
          name: 'bad',
          items: [{ inputText: '  ' }, { inputText: 'ok' }, { inputText: '' }],
        })
      ).createDataset,
      'ValidationError',
    );
    expect(bad.issues.map((i) => [i.field, i.rule])).toEqual([
      ['items.0.inputText', 'not_blank'],
      ['items.2.inputText', 'not_blank'],
    ]);
    const long = expectResult(
      (await s.gql(CreateDataset, { name: 'long', items: [{ inputText: 'x'.repeat(100_001) }] })).createDataset,
      'ValidationError',
    );
    expect(long.issues[0]).toMatchObject({ field: 'items.0.inputText', rule: 'too_big' });
    const context = expectResult(
      (await s.gql(CreateDataset, { name: 'ctx', items: [{ inputText: 'a', context: { blob: 'x'.repeat(70_000) } }] }))
        .createDataset,
      'ValidationError',
    );
    expect(context.issues[0]).toMatchObject({ field: 'items.0.context', rule: 'max_bytes' });
    const many = expectResult(
      (
        await s.gql(CreateDataset, {
          name: 'many',
          items: Array.from({ length: 10_001 }, (_, i) => ({ inputText: `q${i}` })),
        })
      ).createDataset,
      'ValidationError',
    );
    expect(many.issues[0]).toMatchObject({ field: 'items' });
    const allVal = expectResult(
      (await s.gql(CreateDataset, { name: 'val', items: [{ inputText: 'a', split: 'VAL' }] })).createDataset,
      'ValidationError',
    );
    expect(allVal.issues[0]).toMatchObject({ field: 'items', rule: 'train_required' });
    const tooMany = expectResult(
      (await s.gql(CreateDataset, { name: 'many', items, splits: { valCount: 9 } })).createDataset,
      'ValidationError',
    );
    expect(tooMany.issues[0]).toMatchObject({ field: 'splits.valCount', rule: 'max' });
    expect((await s.gql(Datasets, {})).datasets.length).toBe(before);
  });
});

describe('a PIPELINE run on scenarios from the user', () => {
  const base = {
    modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
    projectName: 'scenarios',
    taskDescription: 'Add two numbers',
    rolloutsPerGroup: 2,
    numEpochs: 1,
    pipeline: { groupsPerStep: 2 },
  };

  async function finished(id: string) {
    await waitFor(
      async () => ['COMPLETED', 'FAILED'].includes((await s.gql(RunInputs, { id })).run!.status),
      60_000,
      'the run to finish',
    );
    return (await s.gql(RunInputs, { id })).run!;
  }

  it('trains on a dataset: its items are the run inputs, val held out, nothing generated', async () => {
    const dataset = expectResult(
      (await s.gql(CreateDataset, { name: 'sums', items, splits: { valCount: 2, seed: 1 } })).createDataset,
      'CreateDatasetPayload',
    ).dataset;
    const generated = sims.openai.counts['generate-inputs'];
    const run = expectResult(
      (await s.gql(CreatePipelineRun, { input: { ...base, datasetId: dataset.id } })).createTrainingRun,
      'CreateTrainingRunPayload',
    ).run;
    expect(run.config).toMatchObject({ pipeline: { scenarioSource: expect.stringMatching(/^dataset:/) } });
    const done = await finished(run.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('COMPLETED');
    expect(done.numExamples).toBe(6);
    expect(done.taskInputs).toEqual(
      dataset.items.map((i) => ({ inputText: i.inputText, context: i.context, split: i.split })),
    );
    expect(sims.openai.counts['generate-inputs']).toBe(generated);
    // 6 train items, 2 a step, 2 rollouts each: every train item rolled out twice, no val item ever.
    const val = new Set(dataset.items.filter((i) => i.split === 'VAL').map((i) => i.inputText));
    const train = dataset.items.filter((i) => i.split === 'TRAIN').map((i) => i.inputText);
    const rolled = done.trajectories.edges.map((e) => e.node.taskInput.inputText);
    expect(done.trajectories.totalCount).toBe(12);
    expect(rolled.filter((t) => val.has(t))).toEqual([]);
    expect(new Set(rolled)).toEqual(new Set(train));
  });

  it('trains on inline scenarios and refuses bad ones before anything is created', async () => {
    const run = expectResult(
      (
        await s.gql(CreatePipelineRun, {
          input: { ...base, scenarios: [...items.slice(0, 4), { inputText: 'held out', split: 'VAL' }] },
        })
      ).createTrainingRun,
      'CreateTrainingRunPayload',
    ).run;
    const done = await finished(run.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.taskInputs.map((t) => t.split)).toEqual(['TRAIN', 'TRAIN', 'TRAIN', 'TRAIN', 'VAL']);
    expect(done.trajectories.totalCount).toBe(8);

    for (const [input, field, rule] of [
      [{ scenarios: [{ inputText: '' }] }, 'input.scenarios.0.inputText', 'not_blank'],
      [{ scenarios: items, numExamples: 3 }, 'input.numExamples', 'matches_scenarios'],
      [{ scenarios: items, datasetId: 'RGF0YXNldDo5OTk5' }, 'input.datasetId', 'one_of'],
      [{ datasetId: 'RGF0YXNldDo5OTk5' }, 'input.datasetId', 'exists'],
      [{ mode: 'TRACKED', scenarios: items, pipeline: undefined }, 'input.scenarios', 'pipeline_only'],
    ] as const) {
      const res = expectResult(
        (await s.gql(CreatePipelineRun, { input: { ...base, ...input } as never })).createTrainingRun,
        'ValidationError',
      );
      expect(res.issues[0]).toMatchObject({ field, rule });
    }
  });
});
