import type { ResultOf } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws'; // Node 20 only: browsers and Node 22+ have a global WebSocket

import { RunStatusChanged } from './operations';

export function createWsClient(url: string, apiKey: string) {
  return createClient({
    url: url.replace(/^http/, 'ws'),
    connectionParams: { authorization: `Bearer ${apiKey}` },
    webSocketImpl: WebSocket,
    // followRun reconnects itself: graphql-ws's own retry would resend the first afterEventId.
    retryAttempts: 0,
  });
}

/**
 * A run's status transitions, those after `afterEventId` first ('0': the whole history), then live.
 * When the connection drops it subscribes again after the last event it saw: nothing missed, nothing twice.
 */
export async function* followRun(client: Client, runId: string, afterEventId?: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      const query = print(RunStatusChanged);
      for await (const result of client.iterate<ResultOf<typeof RunStatusChanged>>({
        query,
        variables: { runId, afterEventId },
      })) {
        if (!result.data) throw new Error(result.errors?.map((e) => e.message).join('; '));
        afterEventId = result.data.runStatusChanged.eventId;
        attempt = 1;
        yield result.data.runStatusChanged;
      }
      return; // the server completed the subscription
    } catch (error) {
      if (Array.isArray(error)) throw new Error(error.map((e) => e.message).join('; ')); // GraphQL errors
      const dropped = typeof error === 'object' && error !== null && 'code' in error && 'reason' in error; // a CloseEvent
      if (!dropped || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}
