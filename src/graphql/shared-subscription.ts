// Which subscription fields may share one execution among their subscribers
// (src/server/shared-subscriptions.ts). A field opts in with `extensions: shareSubscribers()` next to
// its definition when its events depend only on its arguments and the viewer, never on state of its
// own: a field whose stream starts with a snapshot taken at subscribe time (runQueuePosition) does
// not opt in, and arguments that make a stream per subscriber (afterEventId: a replay from where this
// client stopped) are named so that subscriptions using them run on their own.
export const SHARED_SUBSCRIPTION = 'sharedSubscription';

export interface SharedSubscriptionExtension {
  /** Arguments that, when given a non-null value, make the subscription run on its own. */
  unlessArgs: string[];
}

export function shareSubscribers(options: { unlessArgs?: string[] } = {}): Record<string, SharedSubscriptionExtension> {
  return { [SHARED_SUBSCRIPTION]: { unlessArgs: options.unlessArgs ?? [] } };
}
