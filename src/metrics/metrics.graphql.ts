// GraphQL types and fields for metric history: the per-step points, downsampled on request, and recording.
import { z } from 'zod';

import { ConflictError, NotFoundError, RunModeError, ValidationError } from '../errors';
import type { MetricsRecordedEvent } from '../events/topics';
import { builder } from '../graphql/builder';
import { shareSubscribers } from '../graphql/shared-subscription';
import { freshEvent, subscribeForRun } from '../runs/run-subscription';
import { TrainingMetricsRef, TrainingRunNode, TrainingRunRef } from '../runs/runs.graphql';
import { trackingGuard } from '../runs/write-guard';
import type { MetricPoint } from './metric-point.model';
import { MAX_POINTS_PER_CALL, toBuckets, type HistoryBucket } from './metrics.service';

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
    args: { maxPoints: t.arg.int({ validate: { schema: z.number().int().min(1).max(10_000) } }) },
    resolve: (run, args, ctx) => ctx.services.metrics.history(run.id, args.maxPoints ?? null),
  }),
);

const NamedValueInput = builder.inputType('NamedValueInput', {
  fields: (t) => ({
    name: t.string({
      required: true,
      validate: {
        schema: z.string().regex(/^[A-Za-z_][A-Za-z0-9_./-]{0,99}$/, {
          message: 'must be 1–100 letters, digits, _ . / -, starting with a letter or _',
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
    epoch: t.int({ required: true, validate: { schema: z.number().int().min(0) } }),
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
      "Appends history points (one per step) to a TRACKED run and updates its metrics snapshot. A PIPELINE run's metrics are Atelier's own (RunModeError).",
    errors: { types: [ValidationError, NotFoundError, ConflictError, RunModeError], directResult: true },
    args: {
      runId: t.arg.globalID({ required: true, for: TrainingRunNode }),
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
      const saved = await ctx.services.metrics.record(args.runId.id, points, trackingGuard(ctx.viewer.projects));
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
      resolve: (e, _a, ctx) => ctx.services.metrics.pointsAt(e.runId, e.steps),
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
