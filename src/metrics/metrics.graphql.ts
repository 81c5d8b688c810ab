// GraphQL types and fields for metric history: the per-step points, downsampled on request, and recording.
import { z } from 'zod';

import { ConflictError, NotFoundError, RunModeError, ValidationError } from '../errors';
import type { MetricsRecordedEvent } from '../events/topics';
import { builder } from '../graphql/builder';
import { SPLIT_RULE } from '../graphql/inputs';
import { shareSubscribers } from '../graphql/shared-subscription';
import { freshEvent, subscribeForRun } from '../runs/run-subscription';
import { TrainingMetricsRef, TrainingRunNode, TrainingRunRef } from '../runs/runs.graphql';
import { trackingGuard } from '../runs/write-guard';
import type { MetricPoint } from './metric-point.model';
import { DEFAULT_SPLIT, MAX_POINTS_PER_CALL, toBuckets, type HistoryBucket } from './metrics.service';

/** Any name ART's history can carry (`train/reward`, `loss/grad_norm`, a user's own): 1–200 characters, no control characters. */
const METRIC_NAME = /^[^\u0000-\u001f\u007f]{1,200}$/;

const NamedValueRef = builder.objectRef<{ name: string; value: number | null }>('NamedValue').implement({
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeFloat('value', { nullable: true }) }),
});

const toNamed = (series: Record<string, number | null>) =>
  Object.entries(series).map(([name, value]) => ({ name, value }));

const MetricBucketRef = builder.objectRef<HistoryBucket>('MetricBucket').implement({
  description:
    "The steps a point stands for. Without maxPoints each point is its own bucket. Series are named as the point's fields (avgReward, trainingLoss, …) and `values.<name>` for extra values.",
  fields: (t) => ({
    firstStep: t.exposeInt('firstStep'),
    lastStep: t.exposeInt('lastStep'),
    count: t.exposeInt('count', { description: 'How many steps the bucket holds.' }),
    min: t.field({
      type: [NamedValueRef],
      description: "Each series' minimum within the bucket.",
      resolve: (b) => toNamed(b.min),
    }),
    max: t.field({
      type: [NamedValueRef],
      description: "Each series' maximum within the bucket.",
      resolve: (b) => toNamed(b.max),
    }),
  }),
});

const MetricPointRef = builder.objectRef<HistoryBucket>('MetricPoint').implement({
  description: "One point of a run's history: the values at `step` (the last step of its bucket when downsampled).",
  fields: (t) => {
    const last =
      <K extends keyof MetricPoint>(k: K) =>
      (b: HistoryBucket) =>
        b.last[k];
    return {
      split: t.string({ description: 'train, val, or any split name.', resolve: last('split') }),
      step: t.int({ resolve: last('step') }),
      epoch: t.int({ resolve: last('epoch') }),
      totalTrajectories: t.int({
        description: 'Trajectories stored for this step.',
        resolve: last('totalTrajectories'),
      }),
      avgReward: t.float({ nullable: true, resolve: last('avgReward') }),
      minReward: t.float({ nullable: true, resolve: last('minReward') }),
      maxReward: t.float({ nullable: true, resolve: last('maxReward') }),
      rewardStd: t.float({
        nullable: true,
        description: 'Population standard deviation of the rewards.',
        resolve: last('rewardStd'),
      }),
      trainingLoss: t.float({ nullable: true, resolve: last('trainingLoss') }),
      values: t.field({
        type: [NamedValueRef],
        description: 'Extra named values the trainer sent.',
        resolve: (b) => Object.entries(b.last.values).map(([name, value]) => ({ name, value })),
      }),
      recordedAt: t.field({ type: 'DateTime', resolve: (b) => b.last.recordedAt }),
      bucket: t.field({ type: MetricBucketRef, resolve: (b) => b }),
    };
  },
});

builder.objectField(TrainingRunRef, 'metricHistory', (t) =>
  t.field({
    type: [MetricPointRef],
    description:
      'One point per training step, oldest first. With maxPoints, consecutive steps are bucketed: each point carries the values of its last step and the exact min and max of every series in its bucket; the final step is always the last point.',
    args: {
      maxPoints: t.arg.int({ validate: { schema: z.number().int().min(1).max(10_000) } }),
      split: t.arg.string({
        defaultValue: DEFAULT_SPLIT,
        description: 'The split whose history this is: train (the default), val, or any name the run has.',
        validate: { schema: SPLIT_RULE },
      }),
      names: t.arg.stringList({
        description:
          'Only these named values (all when omitted); the reward statistics and loss come with every point.',
        validate: { maxLength: 100 },
      }),
    },
    resolve: (run, args, ctx) =>
      ctx.services.metrics.history(run.id, args.maxPoints ?? null, args.split ?? DEFAULT_SPLIT, args.names ?? null),
  }),
);

builder.objectField(TrainingRunRef, 'metricNames', (t) =>
  t.field({
    type: [
      builder.objectRef<{ split: string; name: string | null }>('MetricName').implement({
        description:
          'A split the run has history of (name null: its reward statistics and loss), or a named value in it.',
        fields: (f) => ({ split: f.exposeString('split'), name: f.exposeString('name', { nullable: true }) }),
      }),
    ],
    description: "Every split of the run's history and every value name in each: what a chart can plot.",
    resolve: (run, _a, ctx) => ctx.services.metrics.names(run.id),
  }),
);

const NamedValueInput = builder.inputType('NamedValueInput', {
  fields: (t) => ({
    name: t.string({
      required: true,
      validate: {
        schema: z.string().regex(METRIC_NAME, {
          message: 'must be 1–200 characters without control characters',
        }),
      },
    }),
    value: t.float({ required: true }),
  }),
});

const MetricPointInput = builder.inputType('MetricPointInput', {
  description:
    "One training step's metrics. Reward statistics are computed from the run's stored trajectories of that step.",
  fields: (t) => ({
    step: t.int({ required: true, validate: { schema: z.number().int().min(0) } }),
    epoch: t.int({
      description: "Atelier's epoch of the step; 0 when omitted (ART's history has none).",
      validate: { schema: z.number().int().min(0) },
    }),
    trainingLoss: t.float(),
    values: t.field({ type: [NamedValueInput], validate: { maxLength: 100 } }),
  }),
});

builder.mutationField('recordMetrics', (t) =>
  t.field({
    type: builder.objectRef<{ points: HistoryBucket[] }>('RecordMetricsPayload').implement({
      fields: (f) => ({ points: f.field({ type: [MetricPointRef], resolve: (p) => p.points }) }),
    }),
    description:
      "Appends history points (one per step of a split) to a TRACKED run and updates its metrics snapshot. A point for a step the split already has merges into it: new names are added, the same values again are a no-op, a different value is a ConflictError. A PIPELINE run's metrics are Atelier's own (RunModeError).",
    errors: { types: [ValidationError, NotFoundError, ConflictError, RunModeError], directResult: true },
    args: {
      runId: t.arg.globalID({ required: true, for: TrainingRunNode }),
      split: t.arg.string({
        defaultValue: DEFAULT_SPLIT,
        description: "The split these points belong to, as ART's model.log(split=) names it: train, val, or any name.",
        validate: { schema: SPLIT_RULE },
      }),
      points: t.arg({ type: [MetricPointInput], required: true, validate: { maxLength: MAX_POINTS_PER_CALL } }),
    },
    resolve: async (_root, args, ctx) => {
      const points = args.points.map((p, i) => {
        const values: Record<string, number> = {};
        for (const [j, v] of (p.values ?? []).entries()) {
          if (v.name in values)
            throw ValidationError.of(`points.${i}.values.${j}.name`, 'unique', `value ${v.name} appears twice`);
          values[v.name] = v.value;
        }
        return { step: p.step, epoch: p.epoch, trainingLoss: p.trainingLoss, values };
      });
      const saved = await ctx.services.metrics.record(
        args.runId.id,
        points,
        trackingGuard(ctx.viewer.projects),
        args.split ?? DEFAULT_SPLIT,
      );
      return { points: toBuckets(saved, null) };
    },
  }),
);

// ---- live ----

const MetricsRecordedRef = builder.objectRef<MetricsRecordedEvent>('MetricsRecordedEvent').implement({
  description: 'New history points of a run and its updated metrics snapshot.',
  fields: (t) => ({
    points: t.field({
      type: [MetricPointRef],
      resolve: (e, _a, ctx) => ctx.services.metrics.pointsAt(e.runId, e.split, e.steps),
    }),
    metrics: t.field({
      type: TrainingMetricsRef,
      nullable: true,
      description: "The run's metrics snapshot after these points.",
      resolve: async (e, _a, ctx) => (await ctx.loaders.runById.load(e.runId))?.metrics ?? null,
    }),
  }),
});

builder.subscriptionField('metricsRecorded', (t) =>
  t.field({
    type: MetricsRecordedRef,
    description:
      "Each new history point of the run, with the updated metrics snapshot. Completes after the run's final transition, once every point stored before it was pushed (at once for a run already final).",
    args: { runId: t.arg.globalID({ required: true, for: TrainingRunNode }) },
    subscribe: (_root, args, ctx) => subscribeForRun(ctx, args.runId.id, 'metricsRecorded'),
    resolve: freshEvent,
    extensions: shareSubscribers(),
  }),
);
