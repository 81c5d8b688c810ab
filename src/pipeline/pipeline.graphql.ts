// GraphQL for pipeline runs: test the trained model, and what the pipeline adds to runs and
// trajectories (the current batch, the trainer's gradient steps, RULER's verdicts).
import { z } from 'zod';

import { batchAt } from '../domain/dataset';
import { pipelineSettingsOf } from '../domain/pipeline-settings';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { builder } from '../graphql/builder';
import { ProviderError } from '../providers/http';
import { TrainingInputBatchRef, TrainingRunNode, TrainingRunRef } from '../runs/runs.graphql';
import { TrajectoryRef } from '../trajectories/trajectories.graphql';
import { testTrainedModel } from './test-model';

const GradientStepRef = builder
  .objectRef<{ step: number; gradientStep: number; loss: number | null; values: string; recordedAt: string }>(
    'GradientStep',
  )
  .implement({
    description: 'One gradient step of a training step, as the ART backend streamed it.',
    fields: (t) => ({
      step: t.exposeInt('step'),
      gradientStep: t.exposeInt('gradientStep'),
      loss: t.exposeFloat('loss', { nullable: true }),
      values: t.field({
        type: 'JSON',
        description: 'Every value of the line: loss, grad_norm, policy_loss, entropy, …',
        resolve: (g) => JSON.parse(g.values),
      }),
      recordedAt: t.field({ type: 'DateTime', resolve: (g) => new Date(g.recordedAt) }),
    }),
  });

builder.objectFields(TrainingRunRef, (t) => ({
  currentBatch: t.field({
    type: TrainingInputBatchRef,
    nullable: true,
    description: "The batch of ART's dataset iteration a pipeline run is working on.",
    resolve: async (run, _a, ctx) => {
      if (run.currentStep === null) return null;
      const items = await ctx.loaders.taskInputsByRunId.load(run.id);
      return batchAt(
        items,
        {
          groupsPerStep: pipelineSettingsOf(run.config).groupsPerStep,
          numEpochs: run.numEpochs,
          maxSteps: run.maxSteps,
        },
        run.currentStep,
      );
    },
  }),
  gradientSteps: t.field({
    type: [GradientStepRef],
    description: "The trainer's gradient steps (one loss series per training step), of one step or of all.",
    args: { step: t.arg.int({ validate: { schema: z.number().int().min(0) } }) },
    resolve: (run, args, ctx) => ctx.services.metrics.gradientSteps(run.id, args.step ?? null),
  }),
}));

builder.objectFields(TrajectoryRef, (t) => ({
  judgeExplanation: t.string({
    nullable: true,
    description: "RULER's explanation of this trajectory's score.",
    resolve: (tr) => str(tr.metadata.ruler_explanation),
  }),
  independentReward: t.float({
    nullable: true,
    description: 'The reward before RULER scored it.',
    resolve: (tr) => num(tr.metadata.independent_reward),
  }),
  error: t.string({
    nullable: true,
    description: 'Why this rollout failed, if it did.',
    resolve: (tr) => str(tr.metadata.error),
  }),
  droppedReason: t.string({
    nullable: true,
    description: 'Why its group was not scored or trained, if it was not.',
    resolve: (tr) => str(tr.metadata.dropped_reason),
  }),
  isTest: t.boolean({
    description: 'Made by testTrainedModel, not by training.',
    resolve: (tr) => tr.metadata.test === true,
  }),
}));

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const num = (v: unknown) => (typeof v === 'number' ? v : null);

builder.mutationFields((t) => ({
  testTrainedModel: t.field({
    type: builder.objectRef<{ reply: string; uuid: string }>('TestTrainedModelPayload').implement({
      fields: (f) => ({
        reply: f.exposeString('reply', { description: "The trained model's answer." }),
        trajectory: f.field({
          type: TrajectoryRef,
          description: 'The exchange, stored as a trajectory with taskInput.step 999 and isTest true.',
          resolve: (p, _a, ctx) => ctx.services.trajectories.getByUuid(p.uuid),
        }),
      }),
    }),
    description: "Runs a COMPLETED pipeline run's trained model on a new input and stores the exchange.",
    errors: { types: [ValidationError, NotFoundError, ConflictError, ProviderError], directResult: true },
    args: {
      runId: t.arg.globalID({ required: true, for: TrainingRunNode }),
      inputText: t.arg.string({ required: true, validate: { schema: z.string().min(1).max(100_000) } }),
      step: t.arg.int({
        description:
          'The checkpoint to test (run.checkpoints), under the name recorded for it. Default: the latest. An unknown step is NotFoundError; a deleted checkpoint ConflictError.',
        validate: { schema: z.number().int().min(0) },
      }),
    },
    resolve: async (_root, args, ctx) => {
      // Through the request's loader: a run outside the caller's projects is NotFound.
      const run = await ctx.services.runs.get(args.runId.id, ctx.loaders.runById);
      return testTrainedModel(ctx.services.pipelineDeps, run.id, args.inputText, undefined, args.step ?? null);
    },
  }),
}));
