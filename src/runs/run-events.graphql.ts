// Subscriptions to a run's lifecycle: every status transition (resumable with afterEventId) and
// pipeline progress. Events carry ids; the run itself is loaded fresh for each event.
import { z } from 'zod';

import { parseDate } from '../db/timestamps';
import { isFinal, type TrainingStatus } from '../domain/status-machine';
import { ReplayThenLive } from '../events/replay';
import type { RunProgressEvent, RunStatusEvent } from '../events/topics';
import { builder } from '../graphql/builder';
import { shareSubscribers } from '../graphql/shared-subscription';
import { freshEvent, isFinalTransitionOf, subscribeForRun } from './run-subscription';
import { TrainingRunNode, TrainingRunRef, TrainingStatusEnum } from './runs.graphql';

const REPLAY_PAGE = 500;

const RunStatusEventRef = builder.objectRef<RunStatusEvent>('RunStatusEvent').implement({
  description:
    "One transition of a run's status, pushed after it is stored (or replayed from storage after afterEventId). The event itself is history: `from`, `to`, `at`, `reason` and `statusAtEvent` say what happened then. `run` is the run as stored now, whatever the event's age.",
  fields: (t) => ({
    eventId: t.string({
      description: 'Increases with every transition of a run; pass the last one you saw as afterEventId to resume.',
      resolve: (e) => String(e.eventId),
    }),
    statusAtEvent: t.field({
      type: TrainingStatusEnum,
      description:
        "The run's status as of this event (its `to`). On a replayed event it may differ from `run.status`, which is the status now.",
      resolve: (e) => e.to as TrainingStatus,
    }),
    run: t.field({
      type: TrainingRunRef,
      description:
        'The run as stored now, not as of the event: on a replayed (or late-read) event its status and other fields may be newer than the event. It is the same object a query returns, so clients that cache runs by id (Apollo, Relay, urql) never have current fields overwritten by old ones; read the status as of the event from `statusAtEvent`.',
      resolve: (e, _a, ctx) => ctx.services.runs.get(e.runId, ctx.loaders.runById),
    }),
    from: t.field({ type: TrainingStatusEnum, nullable: true, resolve: (e) => e.from as TrainingStatus | null }),
    to: t.field({ type: TrainingStatusEnum, resolve: (e) => e.to as TrainingStatus }),
    at: t.field({ type: 'DateTime', resolve: (e) => parseDate(e.at) }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

const PipelineStageEnum = builder.enumType('PipelineStage', {
  description:
    'What a pipeline run is doing within its step. VALIDATE (evalEvery) has no TrainingStatus of its own: the run keeps the status it had (GENERATING before the first step, TRAINING between steps).',
  values: {
    COLLECT: { value: 'collect', description: 'Rollouts of the step (status COLLECTING).' },
    SCORE: { value: 'score', description: 'RULER scoring the step (status SCORING).' },
    TRAIN: { value: 'train', description: 'Training on the step (status TRAINING).' },
    VALIDATE: {
      value: 'validate',
      description:
        "Rollouts of the VAL scenarios on the current checkpoint and their scoring; rolloutsDone/rolloutsTotal and judgeCallsDone/judgeCallsTotal count the validation's.",
    },
  } as const,
});

const RunProgressRef = builder.objectRef<RunProgressEvent>('RunProgress').implement({
  description: "A pipeline run's progress within its current step.",
  fields: (t) => ({
    stage: t.field({ type: PipelineStageEnum, resolve: (e) => e.stage ?? 'collect' }),
    run: t.field({
      type: TrainingRunRef,
      resolve: (e, _a, ctx) => ctx.services.runs.get(e.runId, ctx.loaders.runById),
    }),
    step: t.exposeInt('step'),
    totalSteps: t.exposeInt('totalSteps'),
    epoch: t.exposeInt('epoch'),
    rolloutsDone: t.exposeInt('rolloutsDone'),
    rolloutsTotal: t.exposeInt('rolloutsTotal'),
    judgeCallsDone: t.exposeInt('judgeCallsDone'),
    judgeCallsTotal: t.exposeInt('judgeCallsTotal'),
    gradientStepsDone: t.exposeInt('gradientStepsDone'),
    gradientStepsTotal: t.exposeInt('gradientStepsTotal', {
      nullable: true,
      description: 'Known once the trainer reports it.',
    }),
    at: t.field({ type: 'DateTime', resolve: (e) => parseDate(e.at) }),
  }),
});

builder.subscriptionFields((t) => ({
  runStatusChanged: t.field({
    type: RunStatusEventRef,
    description:
      "Every status transition, of one run, of a project, or of all runs. With afterEventId, the stored transitions after it are replayed first, then live ones follow: nothing missed, nothing twice. With runId, the subscription completes right after the run's final transition (COMPLETED, FAILED or CANCELLED), and at once, after any replay, for a run already final.",
    args: {
      runId: t.arg.globalID({ for: TrainingRunNode }),
      projectName: t.arg.string({ validate: { maxLength: 200 } }),
      afterEventId: t.arg.string({
        validate: { schema: z.string().regex(/^\d{1,15}$/, { message: 'must be an eventId you received' }) },
      }),
    },
    subscribe: async (_root, args, ctx) => {
      const runId = args.runId?.id ?? null;
      const projectName = args.projectName ?? null;
      const projects = ctx.viewer.projects;
      // The key's own projects are no secret to it: naming another is refused, not left silent forever.
      if (projectName !== null) projects.assertMayUse(projectName, 'projectName');
      // Listen before reading the run; one run's stream completes after its final transition. Only
      // events of the projects the caller reaches pass (all runs: those of its projects).
      const live = ctx.services.events.subscribe('runStatus', {
        filter: (e) =>
          (runId === null || e.runId === runId) &&
          (projectName === null || e.projectName === projectName) &&
          projects.allows(e.projectName),
        endOnStatus: runId === null ? undefined : isFinalTransitionOf(runId),
      });
      if (runId !== null) {
        try {
          // Already final: what is queued is delivered (and stored transitions replayed), then it completes.
          if (isFinal((await ctx.services.runs.get(runId, ctx.loaders.runById)).status)) live.end();
        } catch (err) {
          await live.return();
          throw err;
        }
      }
      if (args.afterEventId == null) return live;
      return new ReplayThenLive(
        live,
        (after) =>
          ctx.services.runs.statusEventsAfter(
            after,
            { runId, projectName, projectNames: projects.projectNames },
            REPLAY_PAGE,
          ),
        Number(args.afterEventId),
      );
    },
    resolve: freshEvent,
    // A replay (afterEventId) is this subscriber's own; live ones share one execution per event.
    extensions: shareSubscribers({ unlessArgs: ['afterEventId'] }),
  }),
  runProgress: t.field({
    type: RunProgressRef,
    description:
      "A pipeline run's progress: the current step of the total, and the rollouts, judge calls and gradient steps done in it. Completes after the run's final transition (at once for a run already final).",
    args: { runId: t.arg.globalID({ required: true, for: TrainingRunNode }) },
    subscribe: (_root, args, ctx) => subscribeForRun(ctx, args.runId.id, 'runProgress'),
    resolve: freshEvent,
    extensions: shareSubscribers(),
  }),
}));
