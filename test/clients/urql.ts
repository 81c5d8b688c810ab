import { cacheExchange, Client, fetchExchange, subscriptionExchange } from '@urql/core';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws'; // Node 20 only: browsers and Node 22+ have a global WebSocket

/** urql for Atelier at http(s)://host/graphql: queries and mutations over HTTP, subscriptions over graphql-ws. */
export function createUrqlClient(url: string, apiKey: string) {
  const ws = createClient({
    url: url.replace(/^http/, 'ws'),
    connectionParams: { authorization: `Bearer ${apiKey}` },
    webSocketImpl: WebSocket,
  });
  return new Client({
    url,
    fetchOptions: { headers: { authorization: `Bearer ${apiKey}` } },
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
}
