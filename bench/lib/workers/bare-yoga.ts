// Worker: the baseline for the read scenario, a bare graphql-yoga server answering `{ hello }`,
// with yoga's defaults, on node:http like Atelier.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createSchema, createYoga } from 'graphql-yoga';

import { serveWorker } from '../worker';

const yoga = createYoga({
  schema: createSchema({ typeDefs: 'type Query { hello: String! }', resolvers: { Query: { hello: () => 'world' } } }),
  graphqlEndpoint: '/graphql',
  landingPage: false,
  logging: false,
});
const server = createServer(yoga);

serveWorker({
  async start() {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pid: process.pid };
  },
  async close() {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await yoga.dispose();
  },
});
