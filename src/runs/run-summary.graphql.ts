// GraphQL fields of a run's summary metrics (last, min and max of every metric per split) and its
// costs (tokens the generator and judge used, seconds of training), both kept as history arrives.
import { z } from 'zod';

import type { RunSummaryRow } from '../db/entities';
import { builder } from '../graphql/builder';
import { SPLIT_RULE } from '../graphql/inputs';
import { summariesMatching } from './run-fields';
import { RUN_LIMITS } from './run.rules';
import { TrainingRunRef } from './runs.graphql';

const RunSummaryRef = builder.objectRef<RunSummaryRow>('RunSummaryMetric').implement({
  description:
    'One metric of a run over a split of its history: the value at the highest step, and the min and max of every step. Named `<split>/<name>`; the reward statistics and loss of the history points are `<split>/reward`, `<split>/reward_std_dev` and `<split>/loss` unless a value of that name was logged.',
  fields: (t) => ({
    split: t.exposeString('split'),
    name: t.exposeString('name', { description: '`<split>/<name>`, e.g. val/reward: what metrics.<name> searches.' }),
    last: t.exposeFloat('last'),
    min: t.exposeFloat('min'),
    max: t.exposeFloat('max'),
    step: t.exposeInt('step', { description: 'The step of the last value.' }),
  }),
});

builder.objectField(TrainingRunRef, 'summary', (t) =>
  t.field({
    type: [RunSummaryRef],
    description: 'Every metric the run has, per split, with its last, min and max value; sorted by name.',
    args: {
      split: t.arg.string({ description: 'Only this split.', validate: { schema: SPLIT_RULE } }),
      names: t.arg.stringList({
        description: 'Only these names (`val/reward`, …).',
        validate: {
          maxLength: RUN_LIMITS.summaryNames,
          items: { schema: z.string().max(RUN_LIMITS.summaryNameLength) },
        },
      }),
    },
    resolve: async (run, args, ctx) =>
      summariesMatching(await ctx.loaders.summariesByRunId.load(run.id), args.split, args.names),
  }),
);

const RunCostRef = builder.objectRef<{ name: string; total: number; steps: number }>('RunCost').implement({
  description:
    "A cost summed over the run's steps: `tokens/generator/prompt`, `tokens/generator/completion`, `tokens/judge/prompt` and `tokens/judge/completion` (from the providers' `usage`), `time/step_trainer_s` (training time per step, ART's name), and every `costs/…` value logged with the history as ART logs them (`costs/gpu`, `costs/train/llm_judge/…`; not the cumulative `costs/cum/…`).",
  fields: (t) => ({
    name: t.exposeString('name'),
    total: t.exposeFloat('total'),
    steps: t.exposeInt('steps', { description: 'How many steps reported it.' }),
  }),
});

builder.objectField(TrainingRunRef, 'costs', (t) =>
  t.field({
    type: [RunCostRef],
    description: "The run's costs, summed per name over its steps.",
    resolve: (run, _a, ctx) => ctx.loaders.costsByRunId.load(run.id),
  }),
);
