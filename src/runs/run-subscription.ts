// What every per-run subscription does: check that the run exists, then listen to
// one topic for that run only. Each event then resolves with fresh dataloaders (a subscription's
// context outlives many events, and cached rows would go stale).
import { freshLoaders, type Context } from '../context';
import type { TopicName, Topics } from '../events/topics';

export async function subscribeForRun<K extends TopicName>(ctx: Context, runId: number, topic: K) {
  await ctx.services.runs.get(runId, ctx.loaders.runById);
  return ctx.services.events.subscribe(topic, { filter: (e) => (e as Topics[K] & { runId: number }).runId === runId });
}

/** The resolve of a subscription field: the event itself, read with fresh loaders. */
export function freshEvent<T>(event: T, _args: unknown, ctx: Context): T {
  freshLoaders(ctx);
  return event;
}
