// What every per-run subscription does: listen to one topic for that run only, check that the run
// exists, and complete after the run's final transition (at once for a run already final), once what
// was published before it has been delivered. Each event then resolves with fresh dataloaders (a
// subscription's context outlives many events, and cached rows would go stale).
import { freshLoaders, type Context } from '../context';
import { isFinal, type TrainingStatus } from '../domain/status-machine';
import type { RunStatusEvent, TopicName, Topics } from '../events/topics';

/** Whether a status event is the run's final transition. */
export function isFinalTransitionOf(runId: number): (e: RunStatusEvent) => boolean {
  return (e) => e.runId === runId && isFinal(e.to as TrainingStatus);
}

export async function subscribeForRun<K extends TopicName>(ctx: Context, runId: number, topic: K) {
  // Listen before reading the run: a final transition in between ends the subscription either way.
  const events = ctx.services.events.subscribe(topic, {
    filter: (e) => (e as Topics[K] & { runId: number }).runId === runId,
    endOnStatus: isFinalTransitionOf(runId),
  });
  try {
    const run = await ctx.services.runs.get(runId, ctx.loaders.runById);
    if (isFinal(run.status)) events.end();
  } catch (err) {
    await events.return();
    throw err;
  }
  return events;
}

/** The resolve of a subscription field: the event itself, read with fresh loaders. */
export function freshEvent<T>(event: T, _args: unknown, ctx: Context): T {
  freshLoaders(ctx);
  return event;
}
