// createApp(config) wires storage, services, events and the GraphQL server; nothing happens at
// import time, so tests start as many real servers as they like, each on its own port and database.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError, type DocumentNode } from 'graphql';
import { createYoga, useReadinessCheck } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { createAuthenticator, type Credentials } from './auth/authenticate';
import { LiveSessions, useLiveSessions } from './auth/live-sessions';
import { decideStartup, isLoopbackHost, keysRequired } from './auth/policy';
import { useScopes } from './auth/use-scopes';
import type { Config } from './config';
import { createContext } from './context';
import { openDatabase, type Database } from './db/data-source';
import { createEventBus, type EventBus } from './events/event-bus';
import { GRAPHIQL_DEFAULT_QUERY } from './graphql/example-operations';
import { getSchema } from './graphql/index';
import { createLogger, type Logger } from './logger';
import { useCostLimit } from './security/cost';
import { useDocumentLimits } from './security/document-limits';
import { useFiniteNumberLiterals } from './security/finite-literals';
import { corsPolicy, useBrowserGuard, useIntrospection, verifyUpgrade } from './security/http-exposure';
import { maskError } from './security/mask-errors';
import { useMalformedRequests } from './security/malformed-requests';
import { publicError, useRedactedErrors } from './security/public-errors';
import { useMutationRateLimit } from './security/rate-limit';
import { createRedactor, secretsIn, type Redactor } from './security/redact';
import { buildServices, type Services } from './services';
import { yogaLogger } from './server/yoga-logger';

export interface App {
  /** Listens on the port (0 picks a free one); resolves to the base URL. */
  start(port?: number): Promise<string>;
  stop(): Promise<void>;
  readonly url: string;
  readonly db: Database;
  readonly services: Services;
  readonly events: EventBus;
  /** Live subscriptions and sockets by API key (revoking a key ends them). */
  readonly sessions: LiveSessions;
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise.catch(() => fallback), new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)))]).finally(() => clearTimeout(timer));
}

/** The Node request behind a yoga context: HTTP's `req`, or the upgrade request of a WebSocket. */
function incoming(ctx: { req?: unknown; request?: unknown }): IncomingMessage | undefined {
  const candidate = (ctx.req ?? ctx.request) as { socket?: unknown } | undefined;
  return candidate && typeof candidate === 'object' && 'socket' in candidate ? (candidate as IncomingMessage) : undefined;
}

export async function createApp(config: Config): Promise<App> {
  const redactor: Redactor = createRedactor(secretsIn(config));
  const logger = createLogger(config.logLevel, redactor);
  const db = await openDatabase(config.database);
  let events: EventBus;
  try {
    events = await createEventBus({ bufferSize: config.subscriptionBuffer, redisUrl: config.redisUrl, redisPrefix: config.redisPrefix, logger });
  } catch (err) {
    await db.close();
    throw new Error(`REDIS_URL: cannot reach Redis (${err instanceof Error ? err.message : err})`);
  }
  const services = buildServices(config, db, events, logger, redactor);

  // Who may do what (src/auth/): keys are required unless the policy says Atelier runs open.
  const loopback = isLoopbackHost(config.host);
  const keysRequiredNow = async () => keysRequired(config.auth.mode, loopback, config.auth.mode === 'auto' ? await services.apiKeys.anyEverMade() : true);
  const isOpen = async () => !(await keysRequiredNow());
  const authenticate = createAuthenticator(services.apiKeys, keysRequiredNow);
  const sessions = new LiveSessions();
  services.apiKeys.onRevoke((keyId) => void sessions.revoke(keyId));
  sessions.watch((ids) => services.apiKeys.repo.invalidAmong(ids), config.auth.revocationCheckMs, (err) => logger.warn('could not check revoked keys', err));

  const yoga = createYoga({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/health',
    landingPage: false,
    // HTTP and SSE carry credentials in the Authorization header; graphql-ws in connectionParams (see onSubscribe).
    context: async (ctx: { request?: Request; req?: unknown; connectionParams?: Record<string, unknown> }) => {
      const credentials: Credentials = {
        // A graphql-ws upgrade request is Node's IncomingMessage, not a Fetch Request: it authenticates by connectionParams.
        authorization: typeof ctx.request?.headers?.get === 'function' ? ctx.request.headers.get('authorization') : null,
        connectionParams: ctx.connectionParams,
        address: incoming(ctx)?.socket?.remoteAddress,
      };
      return createContext(services, await authenticate(credentials));
    },
    maskedErrors: { maskError: maskError(logger, config.limits.maxBodyBytes), isDev: false },
    graphiql: config.http.graphiql ? { title: 'Atelier', defaultQuery: GRAPHIQL_DEFAULT_QUERY, subscriptionsProtocol: 'WS' } : false,
    // GraphiQL's offline bundle holds about 30 MB of strings once imported: load it when GraphiQL is first opened.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    cors: corsPolicy(config.http.corsOrigins),
    multipart: false,
    maxRequestBodySize: config.limits.maxBodyBytes,
    logging: config.logLevel === 'silent' ? false : yogaLogger(logger),
    plugins: [
      // Ready = storage and (when used) Redis answer; a check that hangs counts as not ready.
      useReadinessCheck({ endpoint: '/ready', check: () => withTimeout(Promise.all([db.ping(), events.ready()]).then((r) => r.every(Boolean)), 2000, false) }),
      useBrowserGuard(isOpen),
      useMalformedRequests(),
      ...useDocumentLimits(config.limits),
      useFiniteNumberLiterals(),
      ...useIntrospection(config.http.introspection),
      // Before anything runs: who (scopes), how much (cost), how often (mutation rate).
      useScopes(),
      useCostLimit(config.limits.maxCost),
      useMutationRateLimit(config.rateLimit),
      useLiveSessions(sessions),
      useRedactedErrors(redactor),
    ],
  });

  const server: Server = createServer(yoga);
  const wsServer = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    maxPayload: config.limits.maxBodyBytes,
    verifyClient: verifyUpgrade(config.http.corsOrigins, isOpen),
  });
  const asErrors = (err: unknown) => [err instanceof GraphQLError ? err : new GraphQLError(err instanceof Error ? err.message : 'invalid operation')];
  const wsCleanup = useServer<Record<string, unknown>, { request: IncomingMessage; socket: WebSocket; forget?: () => void }>(
    {
      isProd: config.production,
      execute: (args: any) => args.rootValue.execute(args),
      subscribe: (args: any) => args.rootValue.subscribe(args),
      onConnect: async (ctx) => {
        // Acknowledged either way: each operation then gets a GraphQL error naming the problem.
        const viewer = await authenticate({ connectionParams: ctx.connectionParams, address: ctx.extra.request.socket?.remoteAddress });
        if (viewer.kind === 'key') ctx.extra.forget = sessions.trackSocket(viewer.key.keyId, viewer.key.name, ctx.extra.socket);
        return true;
      },
      onClose: (ctx) => ctx.extra.forget?.(),
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          // Not `request`: yoga would take the upgrade's GET for an HTTP GET and refuse mutations.
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          connectionParams: ctx.connectionParams,
          params,
        });
        // Hostile input answers with errors, never with a closed socket: parse and validate may throw.
        let document: DocumentNode;
        try {
          if (typeof params.query !== 'string') throw new GraphQLError('the subscribe message needs a query string');
          document = parse(params.query);
          const errors = validate(schema, document);
          if (errors.length) return errors;
        } catch (err) {
          return asErrors(err);
        }
        const variableValues = params.variables && typeof params.variables === 'object' && !Array.isArray(params.variables) ? params.variables : undefined;
        return {
          schema,
          operationName: params.operationName,
          document,
          variableValues,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map((e) => publicError(e, redactor)) } : undefined),
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => publicError(e, redactor)),
    },
    wsServer,
  );
  // ws closes a socket that breaks the protocol (oversized or malformed frames) by itself, with the
  // right code; graphql-ws would also print each such error to stderr, which hostile clients could flood.
  wsServer.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (err) => logger.debug(`WebSocket closed for a protocol error: ${err.message}`));
  });

  let url = '';
  return {
    db,
    services,
    events,
    sessions,
    get url() {
      return url;
    },
    async start(port = config.port) {
      // Decided before listening: on a non-loopback address without keys nothing is ever exposed.
      const facts = {
        mode: config.auth.mode,
        host: config.host,
        port,
        activeKeys: await services.apiKeys.repo.countActive(),
        anyKeyEverMade: await services.apiKeys.repo.anyEverMade(),
      };
      if (!decideStartup(facts).start) throw new Error(decideStartup(facts).message);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, config.host, () => resolve());
      });
      const addr = server.address() as AddressInfo;
      const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      url = `http://${host}:${addr.port}`;
      const decision = decideStartup({ ...facts, port: addr.port });
      logger[decision.level](decision.message);
      logger.info(`Atelier listening on ${url}/graphql (${db.kind} storage)`);
      if (services.pipeline.enabled) await services.pipeline.start();
      else logger.info('pipeline runs are off: set ART_BACKEND_URL and OPENAI_BASE_URL to enable them (tracked runs work without)');
      return url;
    },
    async stop() {
      await services.pipeline.stop();
      sessions.stop();
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
