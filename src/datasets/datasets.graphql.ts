// GraphQL types and fields for datasets: createDataset, dataset(id), datasets, and the scenario input
// PIPELINE runs take inline (runs.graphql.ts). Thin: parse arguments, call the service.
import { z } from 'zod';

import type { DatasetRow } from '../db/entities';
import { SCENARIO_LIMITS, type Scenario } from '../domain/scenarios';
import { NotFoundError, ValidationError } from '../errors';
import { builder } from '../graphql/builder';
import { encodeGlobalId, parseGlobalIdOf } from '../graphql/global-id';
import { jsonObject, text } from '../graphql/json-rules';

export const ScenarioSplitEnum = builder.enumType('ScenarioSplit', {
  description: '`TRAIN` items are trained on; `VAL` items are held out (evaluated, never trained on).',
  values: { TRAIN: { value: 'train' }, VAL: { value: 'val' } } as const,
});

export const ScenarioInput = builder.inputType('ScenarioInput', {
  description:
    "One scenario, as the seed's TaskInput: the text the agent gets (the first user message, or the environment's `scenario.input_text`) and a context object (an answer to check, ids, anything the environment needs).",
  fields: (t) => ({
    inputText: t.string({ required: true, validate: { schema: z.string().max(SCENARIO_LIMITS.inputText) } }),
    context: t.field({ type: 'JSON', validate: { schema: jsonObject(SCENARIO_LIMITS.contextBytes) } }),
    split: t.field({
      type: ScenarioSplitEnum,
      description: 'Default: TRAIN, unless `splits` holds it out.',
    }),
  }),
});

export const DatasetSplitsInput = builder.inputType('DatasetSplitsInput', {
  description:
    'Which items without a split of their own are held out as VAL: a count or a fraction, chosen by a seeded shuffle (the same items and seed give the same split).',
  fields: (t) => ({
    valCount: t.int({ validate: { schema: z.number().int().min(0) } }),
    valFraction: t.float({ validate: { schema: z.number().min(0).max(1) } }),
    seed: t.int({ description: 'Default 0.' }),
  }),
});

const DatasetItemRef = builder.objectRef<Scenario>('DatasetItem').implement({
  fields: (t) => ({
    inputText: t.exposeString('inputText'),
    context: t.field({ type: 'JSON', nullable: true, resolve: (i) => i.context }),
    split: t.field({ type: ScenarioSplitEnum, resolve: (i) => i.split }),
  }),
});

export const DatasetRef = builder.objectRef<DatasetRow>('Dataset').implement({
  description: 'Scenarios for PIPELINE runs (`datasetId`), with a held-out VAL part.',
  fields: (t) => ({
    id: t.id({ resolve: (d) => encodeGlobalId('Dataset', d.id) }),
    uuid: t.exposeString('uuid'),
    name: t.exposeString('name'),
    trainCount: t.exposeInt('trainCount'),
    valCount: t.exposeInt('valCount'),
    createdAt: t.field({ type: 'DateTime', resolve: (d) => new Date(d.createdAt) }),
    items: t.field({
      type: [DatasetItemRef],
      args: { split: t.arg({ type: ScenarioSplitEnum }) },
      resolve: async (d, args, ctx) => {
        const items = await ctx.services.datasets.items(d.id);
        return args.split ? items.filter((i) => i.split === args.split) : items;
      },
    }),
  }),
});

/** A Dataset global id as a database id (a ValidationError naming `field` when it is not one). */
export function datasetIdOf(globalId: string, field: string): number {
  return parseGlobalIdOf('Dataset', globalId, field);
}

builder.queryFields((t) => ({
  dataset: t.field({
    type: DatasetRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.datasets.find(datasetIdOf(String(args.id), 'id')),
  }),
  datasets: t.field({
    type: [DatasetRef],
    description: 'The newest datasets first.',
    args: { first: t.arg.int({ defaultValue: 20, validate: { schema: z.number().int().min(1).max(100) } }) },
    resolve: (_root, args, ctx) => ctx.services.datasets.list(args.first ?? 20),
  }),
}));

builder.mutationFields((t) => ({
  createDataset: t.field({
    type: builder
      .objectRef<{ dataset: DatasetRow }>('CreateDatasetPayload')
      .implement({ fields: (f) => ({ dataset: f.field({ type: DatasetRef, resolve: (p) => p.dataset }) }) }),
    description: `Stores a dataset of at most ${SCENARIO_LIMITS.items} scenarios (each checked: non-blank text of at most ${SCENARIO_LIMITS.inputText} characters, a context of at most ${SCENARIO_LIMITS.contextBytes} bytes), with a held-out VAL part; all or nothing.`,
    errors: { types: [ValidationError, NotFoundError], directResult: true },
    args: {
      name: t.arg.string({ required: true, validate: { schema: text(200) } }),
      items: t.arg({ type: [ScenarioInput], required: true, validate: { maxLength: SCENARIO_LIMITS.items } }),
      splits: t.arg({ type: DatasetSplitsInput }),
    },
    resolve: async (_root, args, ctx) => ({
      dataset: await ctx.services.datasets.create(
        args.name,
        args.items.map((i) => ({
          inputText: i.inputText,
          context: (i.context as Record<string, unknown> | null | undefined) ?? null,
          split: i.split ?? null,
        })),
        args.splits,
      ),
    }),
  }),
}));
