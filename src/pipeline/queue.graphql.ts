// A pipeline run's place in its backend's queue, pushed to subscribers as it changes (the run's
// backend, lease and queuePosition fields are with the other run fields in runs/runs.graphql.ts).
import { freshLoaders, type Context } from '../context';
import { transformEvents } from '../events/transform';
import { builder } from '../graphql/builder';
import type { TrainingRun } from '../runs/run.model';
import { TrainingRunNode, TrainingRunRef } from '../runs/runs.graphql';

interface QueueUpdate {
  run: TrainingRun;
  position: number | null;
}

const QueueUpdateRef = builder.objectRef<QueueUpdate>('RunQueueUpdate').implement({
  fields: (t) => ({
    run: t.field({ type: TrainingRunRef, resolve: (u) => u.run }),
    position: t.exposeInt('position', {
      nullable: true,
      description: 'Runs ahead of it on its backend; null once it is no longer waiting.',
    }),
  }),
});

async function current(ctx: Context, runId: number): Promise<QueueUpdate> {
  freshLoaders(ctx);
  const run = await ctx.services.runs.get(runId, ctx.loaders.runById);
  return { run, position: await ctx.services.runs.queuePosition(run) };
}

builder.subscriptionField('runQueuePosition', (t) =>
  t.field({
    type: QueueUpdateRef,
    description: "A pipeline run's place in its backend's queue: now, then each time it changes, until the run starts.",
    args: { runId: t.arg.globalID({ required: true, for: TrainingRunNode }) },
    subscribe: async (_root, args, ctx) => {
      const runId = args.runId.id;
      // Listen before reading, so a change in between is not missed. Any transition may move the queue.
      const events = ctx.services.events.subscribe('runStatus');
      let last: QueueUpdate;
      try {
        last = await current(ctx, runId);
      } catch (err) {
        await events.return();
        throw err;
      }
      if (last.position === null) {
        await events.return();
        return transformEvents<never, QueueUpdate>(events as never, async () => ({ done: true }), last);
      }
      return transformEvents(
        events,
        async () => {
          const next = await current(ctx, runId);
          if (next.position === last.position) return {};
          last = next;
          return { value: next, done: next.position === null };
        },
        last,
      );
    },
    resolve: (update) => update,
  }),
);
