// Parent-side helpers for the subscriber crowd (workers/subscribers.ts): the subscription clients
// open, and the wait until the server has really registered every one of them.
import { sleep } from './stats';
import type { Worker } from './worker';

/** The runStatusChanged selection the end-to-end tests use (test/operations.ts OnRunStatus). */
export const ON_RUN_STATUS = `subscription OnRunStatus($runId: ID, $projectName: String, $afterEventId: String) {
  runStatusChanged(runId: $runId, projectName: $projectName, afterEventId: $afterEventId) {
    eventId from to at reason
    run { id status projectName startedAt completedAt error }
  }
}`;

export const TRANSITION = `mutation($runId: ID!, $to: TrainingStatus!) {
  transitionRun(runId: $runId, to: $to) { __typename ... on TransitionRunPayload { run { id status } } ... on Error { message } }
}`;

export function transitionBody(runId: string, to: string): string {
  return JSON.stringify({ query: TRANSITION, variables: { runId, to: to.toUpperCase() } });
}

/**
 * Opens `count` subscriptions in the crowd and waits until `registered()` (asked of the server)
 * reaches the count: a graphql-ws subscribe has no acknowledgement, so only the server can tell.
 */
export async function subscribeCrowd(
  crowd: Worker,
  options: { group: string; url: string; count: number; query: string; variables?: Record<string, unknown> },
  registered: () => Promise<number>,
  timeoutMs = 120_000,
): Promise<{ connectMs: number }> {
  const { ms } = await crowd.call<{ ms: number }>('connect', options, timeoutMs);
  const deadline = Date.now() + timeoutMs;
  let n = 0;
  while ((n = await registered()) < options.count) {
    if (Date.now() > deadline)
      throw new Error(`${options.group}: only ${n} of ${options.count} subscriptions registered on the server`);
    await sleep(50);
  }
  return { connectMs: ms };
}
