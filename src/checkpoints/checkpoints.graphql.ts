// GraphQL types and fields for checkpoints: a run's list, the best one by a metric, and recording.
import { z } from 'zod';

import { ConflictError, NotFoundError, RunModeError, ValidationError } from '../errors';
import { builder } from '../graphql/builder';
import { TrainingRunNode, TrainingRunRef } from '../runs/runs.graphql';
import { trackingGuard } from '../runs/write-guard';
import type { CheckpointWithMetrics } from './checkpoints.service';

const CheckpointMetricRef = builder.objectRef<{ name: string; value: number }>('CheckpointMetric').implement({
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeFloat('value') }),
});

export const CheckpointRef = builder.objectRef<CheckpointWithMetrics>('Checkpoint').implement({
  description: 'The model after `step` steps, under the name its backend serves it.',
  fields: (t) => ({
    step: t.exposeInt('step'),
    name: t.exposeString('name', {
      description: "The name inference serves it under: `name@step` on ART's LocalBackend and the worker.",
    }),
    uri: t.exposeString('uri', { nullable: true, description: 'Where it is stored, e.g. the W&B artifact.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (c) => new Date(c.createdAt) }),
    deletedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When retention deleted its files (the record stays).',
      resolve: (c) => (c.deletedAt ? new Date(c.deletedAt) : null),
    }),
    deletionReason: t.exposeString('deletionReason', { nullable: true }),
    metrics: t.field({
      type: [CheckpointMetricRef],
      description:
        "The history values at its step, every split, as `<split>/<name>` (`val/reward`, `train/reward`, `loss/train`, …); `<split>/reward` is the average reward of that split's trajectories where none was logged.",
      resolve: (c) => c.metrics,
    }),
  }),
});

builder.objectField(TrainingRunRef, 'checkpoints', (t) =>
  t.field({
    type: [CheckpointRef],
    description: "The run's checkpoints, by step (deleted ones included, with deletedAt).",
    args: {
      first: t.arg.int({ defaultValue: 100, validate: { schema: z.number().int().min(1).max(1000) } }),
      afterStep: t.arg.int({ description: 'Only checkpoints after this step (the next page).' }),
    },
    resolve: async (run, args, ctx) =>
      ctx.services.checkpoints.withMetrics(
        run.id,
        await ctx.services.checkpoints.list(run.id, args.afterStep ?? null, args.first ?? 100),
      ),
  }),
);

const BestCheckpointRef = builder
  .objectRef<{ step: number; value: number; checkpoint: CheckpointWithMetrics | null }>('BestCheckpoint')
  .implement({
    description: "The best step by a history metric, as ART's delete_checkpoints picks it, and its checkpoint.",
    fields: (t) => ({
      step: t.exposeInt('step'),
      value: t.exposeFloat('value', { description: "The metric's average over the step's history rows." }),
      checkpoint: t.field({
        type: CheckpointRef,
        nullable: true,
        description: 'Null when no checkpoint was recorded for that step.',
        resolve: (b) => b.checkpoint,
      }),
    }),
  });

builder.objectField(TrainingRunRef, 'bestCheckpoint', (t) =>
  t.field({
    type: BestCheckpointRef,
    nullable: true,
    description:
      "The step whose average of `metric` over its history rows is highest (ART 0.5.17's Model.delete_checkpoints; ties go to the latest step), with its checkpoint. Null when no step has the metric.",
    args: {
      metric: t.arg.string({ defaultValue: 'val/reward', validate: { schema: z.string().min(1).max(200) } }),
    },
    resolve: async (run, args, ctx) => {
      const best = await ctx.services.checkpoints.best(run.id, args.metric ?? 'val/reward');
      if (!best) return null;
      const [checkpoint] = best.checkpoint ? await ctx.services.checkpoints.withMetrics(run.id, [best.checkpoint]) : [];
      return { step: best.step, value: best.value, checkpoint: checkpoint ?? null };
    },
  }),
);

builder.mutationField('recordCheckpoint', (t) =>
  t.field({
    type: builder.objectRef<{ checkpoint: CheckpointWithMetrics }>('RecordCheckpointPayload').implement({
      fields: (f) => ({ checkpoint: f.field({ type: CheckpointRef, resolve: (p) => p.checkpoint }) }),
    }),
    description:
      "Records a TRACKED run's checkpoint (a PIPELINE run records its own). The same checkpoint again is a no-op; another name or uri for a recorded step is a ConflictError.",
    errors: { types: [ValidationError, NotFoundError, ConflictError, RunModeError], directResult: true },
    args: {
      runId: t.arg.globalID({ required: true, for: TrainingRunNode }),
      step: t.arg.int({ required: true, validate: { schema: z.number().int().min(0) } }),
      name: t.arg.string({ required: true, validate: { schema: z.string().min(1).max(300) } }),
      uri: t.arg.string({ validate: { schema: z.string().max(10_000) } }),
    },
    resolve: async (_root, args, ctx) => {
      const row = await ctx.services.checkpoints.record(
        args.runId.id,
        { step: args.step, name: args.name, uri: args.uri },
        trackingGuard(ctx.viewer.projects),
      );
      const [checkpoint] = await ctx.services.checkpoints.withMetrics(args.runId.id, [row]);
      return { checkpoint };
    },
  }),
);
