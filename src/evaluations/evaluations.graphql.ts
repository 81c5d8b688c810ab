// GraphQL for evaluations: evaluateCheckpoint, run.evaluations, and the evaluationProgress
// subscription. Thin: parse arguments, load the run through the request's loaders (its project must
// be in the caller's scope), call the service.
import { z } from 'zod';

import { freshLoaders } from '../context';
import { datasetIdOf } from '../datasets/datasets.graphql';
import { parseDate } from '../db/timestamps';
import { CheckpointNotServedError, ConflictError, NotFoundError, RunModeError, ValidationError } from '../errors';
import type { EvaluationUpdatedEvent } from '../events/topics';
import { builder } from '../graphql/builder';
import { encodeGlobalId, parseGlobalIdOf } from '../graphql/global-id';
import { EvalScenarioInput } from '../runs/pipeline-settings.graphql';
import { TrainingRunNode, TrainingRunRef } from '../runs/runs.graphql';
import { TrajectoryRef } from '../trajectories/trajectories.graphql';
import { trajectoryFromRow } from '../trajectories/trajectory.model';
import { groupOffsetOf, type Evaluation } from './evaluations.service';

const FINAL = new Set(['completed', 'failed', 'cancelled']);

export const EvaluationStatusEnum = builder.enumType('EvaluationStatus', {
  values: {
    PENDING: { value: 'pending', description: 'Waiting for a runner (at once, unless every slot is busy).' },
    RUNNING: { value: 'running' },
    COMPLETED: { value: 'completed', description: "Its metrics are in the run's history, split `eval`." },
    FAILED: { value: 'failed', description: 'With its error; the run is not affected.' },
    CANCELLED: { value: 'cancelled', description: 'Its run was cancelled.' },
  } as const,
});

const EvaluationMetricRef = builder.objectRef<{ name: string; value: number }>('EvaluationMetric').implement({
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeFloat('value') }),
});

export const EvaluationRef = builder.objectRef<Evaluation>('Evaluation').implement({
  description:
    "An evaluation of one kept checkpoint on held-out scenarios (evaluateCheckpoint): rolled out on that checkpoint's served name with the run's rollout kind, scored by the environment or RULER.",
  fields: (t) => ({
    id: t.id({ resolve: (e) => encodeGlobalId('Evaluation', e.id) }),
    uuid: t.exposeString('uuid'),
    step: t.exposeInt('step', { description: "The checkpoint's step: its metrics are recorded at this step." }),
    status: t.field({ type: EvaluationStatusEnum, resolve: (e) => e.status }),
    source: t.exposeString('source', {
      description: 'Where its scenarios came from: `scenarios`, `run:val` (the run’s VAL inputs) or `dataset:<uuid>`.',
    }),
    scenarioCount: t.int({ resolve: (e) => e.scenarios.length }),
    modelName: t.exposeString('modelName', {
      nullable: true,
      description: 'The served name it rolled out on (`name@step` on the worker, the W&B artifact step on serverless).',
    }),
    metrics: t.field({
      type: [EvaluationMetricRef],
      description:
        'Once COMPLETED: `eval/reward` (the mean scored reward), `eval/reward_std_dev`, `eval/exception_rate`, `eval/trajectories`, `eval/scored`.',
      resolve: (e) =>
        Object.entries(e.metrics ?? {})
          .map(([name, value]) => ({ name: `eval/${name}`, value }))
          .sort((a, b) => a.name.localeCompare(b.name)),
    }),
    error: t.exposeString('error', { nullable: true }),
    trajectories: t.field({
      type: [TrajectoryRef],
      description: 'Its trajectories (split `eval` of its step, in its own ART groups), in the order they were stored.',
      resolve: async (e, _a, ctx) => {
        const offset = groupOffsetOf(e.id);
        const rows = await ctx.services.trajectories.inGroups(
          e.runId,
          'eval',
          e.step,
          offset,
          offset + Math.max(0, e.scenarios.length - 1),
        );
        return rows.map(trajectoryFromRow);
      },
    }),
    run: t.field({
      type: TrainingRunRef,
      resolve: (e, _a, ctx) => ctx.services.runs.get(e.runId, ctx.loaders.runById),
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => parseDate(e.createdAt) }),
    startedAt: t.field({ type: 'DateTime', nullable: true, resolve: (e) => parseDate(e.startedAt) }),
    completedAt: t.field({ type: 'DateTime', nullable: true, resolve: (e) => parseDate(e.completedAt) }),
  }),
});

builder.objectField(TrainingRunRef, 'evaluations', (t) =>
  t.field({
    type: [EvaluationRef],
    description: "The run's evaluations (evaluateCheckpoint), newest first.",
    args: { first: t.arg.int({ defaultValue: 100, validate: { schema: z.number().int().min(1).max(1000) } }) },
    resolve: (run, args, ctx) => ctx.services.evaluations.list(run.id, args.first ?? 100),
  }),
);

builder.mutationField('evaluateCheckpoint', (t) =>
  t.field({
    type: builder
      .objectRef<{ evaluation: Evaluation }>('EvaluateCheckpointPayload')
      .implement({ fields: (f) => ({ evaluation: f.field({ type: EvaluationRef, resolve: (p) => p.evaluation }) }) }),
    description:
      "Starts an evaluation of a kept checkpoint of a PIPELINE run, while it trains or after it ended (not once cancelled): its scenarios (or a dataset's VAL items, or else the run's own VAL inputs) are rolled out on that checkpoint's served name with the run's rollout kind and scored; when it completes, its metrics are recorded in the run's history at that step, split `eval`. Follow it with evaluationProgress. A failed evaluation never fails the run; cancelling the run cancels it; retention never deletes its checkpoint while it is pending or running.",
    errors: {
      types: [ValidationError, NotFoundError, ConflictError, RunModeError, CheckpointNotServedError],
      directResult: true,
    },
    args: {
      runId: t.arg.globalID({ required: true, for: TrainingRunNode }),
      step: t.arg.int({ required: true, validate: { schema: z.number().int().min(0) } }),
      scenarios: t.arg({
        type: [EvalScenarioInput],
        description: 'At most 1000. At most one of scenarios and datasetId.',
        validate: { maxLength: 1000 },
      }),
      datasetId: t.arg.id({ description: 'A stored dataset: its VAL items are the scenarios.' }),
    },
    resolve: async (_root, args, ctx) => {
      // Through the request's loader: a run outside the caller's projects is NotFound.
      const run = await ctx.services.runs.get(args.runId.id, ctx.loaders.runById);
      if (args.scenarios && args.datasetId != null)
        throw ValidationError.of('datasetId', 'one_of', 'give scenarios or datasetId, not both');
      let scenarios: Array<{ inputText: string; context: Record<string, unknown> | null }>;
      let source: string;
      if (args.scenarios) {
        scenarios = args.scenarios.map((s) => ({
          inputText: s.inputText,
          context: (s.context as Record<string, unknown> | null | undefined) ?? null,
        }));
        source = 'scenarios';
      } else if (args.datasetId != null) {
        const id = datasetIdOf(String(args.datasetId), 'datasetId');
        const dataset = await ctx.services.datasets.find(id);
        if (!dataset) throw ValidationError.of('datasetId', 'exists', 'no dataset has the id given');
        scenarios = (await ctx.services.datasets.items(id))
          .filter((i) => i.split === 'val')
          .map((i) => ({ inputText: i.inputText, context: i.context }));
        if (scenarios.length === 0)
          throw ValidationError.of('datasetId', 'has_val', `dataset ${dataset.uuid} has no VAL items to evaluate on`);
        source = `dataset:${dataset.uuid}`;
      } else {
        scenarios = (await ctx.services.runs.taskInputs(run.id))
          .filter((t) => t.split === 'val')
          .map((t) => ({ inputText: t.inputText, context: t.context }));
        if (scenarios.length === 0)
          throw ValidationError.of(
            'scenarios',
            'required',
            'the run has no VAL inputs: give scenarios or a datasetId with a VAL split',
          );
        source = 'run:val';
      }
      return {
        evaluation: await ctx.services.evaluations.create(run.id, args.step, scenarios, source, ctx.viewer.projects),
      };
    },
  }),
);

const EvaluationProgressRef = builder.objectRef<EvaluationUpdatedEvent>('EvaluationProgress').implement({
  description: "An evaluation's status and progress.",
  fields: (t) => ({
    evaluation: t.field({
      type: EvaluationRef,
      resolve: async (e, _a, ctx) => {
        const found = await ctx.services.evaluations.find(e.evaluationId);
        if (!found) throw new NotFoundError('Evaluation', encodeGlobalId('Evaluation', e.evaluationId));
        return found;
      },
    }),
    status: t.field({ type: EvaluationStatusEnum, description: 'As of this event.', resolve: (e) => e.status }),
    rolloutsDone: t.exposeInt('rolloutsDone'),
    rolloutsTotal: t.exposeInt('rolloutsTotal'),
    judgeCallsDone: t.exposeInt('judgeCallsDone'),
    judgeCallsTotal: t.exposeInt('judgeCallsTotal'),
    at: t.field({ type: 'DateTime', resolve: (e) => parseDate(e.at) }),
  }),
});

builder.subscriptionField('evaluationProgress', (t) =>
  t.field({
    type: EvaluationProgressRef,
    description:
      "An evaluation's status changes and progress (rollouts and judge calls done). Completes after it is COMPLETED, FAILED or CANCELLED (at once, with its status, for one already ended).",
    args: { evaluationId: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      const id = parseGlobalIdOf('Evaluation', String(args.evaluationId), 'evaluationId');
      const events = ctx.services.events.subscribe('evaluationUpdated', {
        filter: (e) => {
          if (e.evaluationId !== id) return false;
          // Delivered, then the stream ends after it.
          if (FINAL.has(e.status)) queueMicrotask(() => events.end());
          return true;
        },
      });
      try {
        const evaluation = await ctx.services.evaluations.find(id);
        // Its run must be one the caller reaches: NotFound otherwise, as for a missing evaluation.
        if (!evaluation) throw new NotFoundError('Evaluation', String(args.evaluationId));
        await ctx.services.runs.get(evaluation.runId, ctx.loaders.runById);
        if (FINAL.has(evaluation.status)) {
          // Already ended: its status once, then the end.
          const run = await ctx.services.runs.get(evaluation.runId, ctx.loaders.runById);
          await events.return();
          return once<EvaluationUpdatedEvent>({
            evaluationId: evaluation.id,
            runId: evaluation.runId,
            projectName: run.projectName,
            status: evaluation.status,
            rolloutsDone: 0,
            rolloutsTotal: 0,
            judgeCallsDone: 0,
            judgeCallsTotal: 0,
            at: evaluation.completedAt ?? evaluation.createdAt,
          });
        }
      } catch (err) {
        await events.return();
        if (err instanceof NotFoundError) throw new NotFoundError('Evaluation', String(args.evaluationId));
        throw err;
      }
      return events;
    },
    resolve: (event: EvaluationUpdatedEvent, _a, ctx) => {
      freshLoaders(ctx);
      return event;
    },
  }),
);

async function* once<T>(value: T): AsyncGenerator<T> {
  yield value;
}
