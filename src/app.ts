// createApp(config) wires storage, services, events and the GraphQL server; nothing happens at
// import time, so tests start as many real servers as they like, each on its own port and database.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError } from 'graphql';
import { createYoga, maskError as defaultMaskError, useReadinessCheck } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Config } from './config';
import { createContext, type Services } from './context';
import { openDatabase, type Database } from './db/data-source';
import { AtelierError } from './errors';
import { openAccess } from './auth';
import { createEventBus, type EventBus } from './events/event-bus';
import { GRAPHIQL_DEFAULT_QUERY } from './graphql/example-operations';
import { getSchema } from './graphql/index';
import { createLogger, type Logger } from './logger';
import { MetricsRepo } from './metrics/metrics.repo';
import { MetricsService } from './metrics/metrics.service';
import { RunsRepo } from './runs/runs.repo';
import { RunsService } from './runs/runs.service';
import { TrajectoriesRepo } from './trajectories/trajectories.repo';
import { TrajectoriesService } from './trajectories/trajectories.service';

export interface App {
  /** Listens on the port (0 picks a free one); resolves to the base URL. */
  start(port?: number): Promise<string>;
  stop(): Promise<void>;
  readonly url: string;
  readonly db: Database;
  readonly services: Services;
  readonly events: EventBus;
}

function buildServices(db: Database, events: EventBus): Services {
  const metricsRepo = new MetricsRepo(db.reader);
  return {
    events,
    runs: new RunsService(db, events),
    runsRepo: new RunsRepo(db.reader, db.kind),
    trajectories: new TrajectoriesService(db, events),
    trajectoriesRepo: new TrajectoriesRepo(db.reader),
    metrics: new MetricsService(db, metricsRepo, events),
  };
}

/** Expected outcomes keep their message and code; everything else is masked. */
function maskError(logger: Logger) {
  return (error: unknown, message: string, isDev?: boolean) => {
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (original instanceof AtelierError) {
      return new GraphQLError(original.message, {
        nodes: error instanceof GraphQLError ? error.nodes : undefined,
        path: error instanceof GraphQLError ? error.path : undefined,
        extensions: { code: original.code, ...(original.code === 'BAD_USER_INPUT' ? { issues: (original as { issues?: unknown }).issues } : {}) },
      });
    }
    if (!(error instanceof GraphQLError && !error.originalError)) logger.error('unexpected error while executing an operation', original);
    return defaultMaskError(error, message, isDev);
  };
}

export async function createApp(config: Config): Promise<App> {
  const logger = createLogger(config.logLevel);
  const db = await openDatabase(config.database);
  let events: EventBus;
  try {
    events = await createEventBus({ bufferSize: config.subscriptionBuffer, redisUrl: config.redisUrl, redisPrefix: config.redisPrefix, logger });
  } catch (err) {
    await db.close();
    throw new Error(`REDIS_URL: cannot reach Redis (${err instanceof Error ? err.message : err})`);
  }
  const services = buildServices(db, events);
  const authenticate = openAccess;

  const yoga = createYoga({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/health',
    landingPage: false,
    // HTTP and SSE carry credentials in headers; graphql-ws passes connectionParams (see onSubscribe).
    context: async ({ request, connectionParams }: { request?: Request; connectionParams?: Record<string, unknown> }) =>
      createContext(
        services,
        await authenticate({
          // A graphql-ws upgrade request is Node's IncomingMessage, not a Fetch Request: it authenticates by connectionParams.
          authorization: typeof request?.headers?.get === 'function' ? request.headers.get('authorization') : null,
          connectionParams,
        }),
      ),
    maskedErrors: { maskError: maskError(logger), isDev: false },
    graphiql: { title: 'Atelier', defaultQuery: GRAPHIQL_DEFAULT_QUERY, subscriptionsProtocol: 'WS' },
    // GraphiQL's offline bundle holds about 30 MB of strings once imported: load it when GraphiQL is first opened.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    logging: config.logLevel === 'silent' ? false : config.logLevel,
    plugins: [useReadinessCheck({ endpoint: '/ready', check: async () => (await db.ping()) && (await events.ready()) })],
  });

  const server: Server = createServer(yoga);
  const wsServer = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  const wsCleanup = useServer(
    {
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          request: ctx.extra.request,
          socket: ctx.extra.socket,
          connectionParams: ctx.connectionParams,
          params,
        });
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors;
        return args;
      },
    },
    wsServer,
  );

  let url = '';
  return {
    db,
    services,
    events,
    get url() {
      return url;
    },
    async start(port = config.port) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, config.host, () => resolve());
      });
      const addr = server.address() as AddressInfo;
      const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      url = `http://${host}:${addr.port}`;
      logger.info(`Atelier listening on ${url}/graphql (${db.kind} storage)`);
      return url;
    },
    async stop() {
      await wsCleanup.dispose();
      for (const client of wsServer.clients) client.terminate();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
      await yoga.dispose();
      await events.close();
      await db.close();
    },
  };
}
