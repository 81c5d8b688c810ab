// Whether a TRACKED run has gone silent: `stalled`, `stalledSince` and `lastActivityAt` on the run,
// and runStallChanged, pushed when a run is found stalled (no rows for STALL_TIMEOUT_SECONDS while not
// finished) and when rows arrive again. Also checkpointRecorded, so pages show checkpoints as they land.
import { parseDate } from '../db/timestamps';
import type { CheckpointRecordedEvent, RunStallEvent } from '../events/topics';
import { builder } from '../graphql/builder';
import { shareSubscribers } from '../graphql/shared-subscription';
import { lastActivityOf, stalledSinceOf } from './run-fields';
import { freshEvent, subscribeForRun } from './run-subscription';
import { TrainingRunNode, TrainingRunRef } from './runs.graphql';

builder.objectFields(TrainingRunRef, (t) => ({
  stalled: t.boolean({
    description:
      'A TRACKED run not finished whose rows (history points, trajectories, checkpoints) stopped arriving for STALL_TIMEOUT_SECONDS: its script or watcher may be hung. False again as soon as rows arrive; always false for finished and PIPELINE runs (the pipeline fails a hung run itself).',
    resolve: async (r, _a, ctx) => stalledSinceOf(r, await ctx.loaders.activityByRunId.load(r.id)) !== null,
  }),
  stalledSince: t.field({
    type: 'DateTime',
    nullable: true,
    description: 'When the run was found stalled; null while it is not.',
    resolve: async (r, _a, ctx) => stalledSinceOf(r, await ctx.loaders.activityByRunId.load(r.id)),
  }),
  lastActivityAt: t.field({
    type: 'DateTime',
    nullable: true,
    description:
      "A TRACKED run: when its last rows arrived, through any door (its start, or creation, before any). Null for PIPELINE runs (see the run's progress).",
    resolve: async (r, _a, ctx) =>
      r.mode === 'tracked' ? lastActivityOf(r, await ctx.loaders.activityByRunId.load(r.id)) : null,
  }),
}));

const RunStallEventRef = builder.objectRef<RunStallEvent>('RunStallEvent').implement({
  description:
    'A TRACKED run found stalled (no rows for STALL_TIMEOUT_SECONDS while not finished), or active again when rows arrived. Pushed once per change, by whichever server process saw it first.',
  fields: (t) => ({
    run: t.field({
      type: TrainingRunRef,
      description: 'The run as stored now.',
      resolve: (e, _a, ctx) => ctx.services.runs.get(e.runId, ctx.loaders.runById),
    }),
    stalled: t.exposeBoolean('stalled', { description: 'True: found stalled; false: rows arrived again.' }),
    stalledSince: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (e) => (e.stalledSince ? parseDate(e.stalledSince) : null),
    }),
    lastActivityAt: t.field({ type: 'DateTime', resolve: (e) => parseDate(e.lastActivityAt) }),
    at: t.field({ type: 'DateTime', resolve: (e) => parseDate(e.at) }),
  }),
});

const CheckpointRecordedRef = builder.objectRef<CheckpointRecordedEvent>('CheckpointRecordedEvent').implement({
  description: 'A checkpoint just stored for the run (read the run’s checkpoints for its name and metrics).',
  fields: (t) => ({
    run: t.field({
      type: TrainingRunRef,
      resolve: (e, _a, ctx) => ctx.services.runs.get(e.runId, ctx.loaders.runById),
    }),
    step: t.exposeInt('step'),
  }),
});

builder.subscriptionFields((t) => ({
  runStallChanged: t.field({
    type: RunStallEventRef,
    description:
      'TRACKED runs found stalled or active again: of one run (completes after its final transition, at once for a run already final), of a project, or of all the runs the key reaches.',
    args: {
      runId: t.arg.globalID({ for: TrainingRunNode }),
      projectName: t.arg.string({ validate: { maxLength: 200 } }),
    },
    subscribe: async (_root, args, ctx) => {
      const runId = args.runId?.id ?? null;
      if (runId !== null) return subscribeForRun(ctx, runId, 'runStall');
      const projectName = args.projectName ?? null;
      const projects = ctx.viewer.projects;
      if (projectName !== null) projects.assertMayUse(projectName, 'projectName');
      return ctx.services.events.subscribe('runStall', {
        filter: (e) => (projectName === null || e.projectName === projectName) && projects.allows(e.projectName),
      });
    },
    resolve: freshEvent,
    extensions: shareSubscribers(),
  }),
  checkpointRecorded: t.field({
    type: CheckpointRecordedRef,
    description:
      "Each checkpoint stored for the run. Completes after the run's final transition (at once for a run already final).",
    args: { runId: t.arg.globalID({ required: true, for: TrainingRunNode }) },
    subscribe: (_root, args, ctx) => subscribeForRun(ctx, args.runId.id, 'checkpointRecorded'),
    resolve: freshEvent,
    extensions: shareSubscribers(),
  }),
}));
