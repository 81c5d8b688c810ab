import { createClient } from 'graphql-sse';

/** graphql-sse over HTTP: the same Authorization header as queries, no WebSocket needed. */
export function createSseClient(url: string, apiKey: string) {
  return createClient({ url, headers: { authorization: `Bearer ${apiKey}` } });
}
