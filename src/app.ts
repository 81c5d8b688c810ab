// createApp(config) wires storage, services, events and the GraphQL server; nothing happens at
// import time, so tests start as many real servers as they like, each on its own port and database.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError, type DocumentNode } from 'graphql';
import { createYoga, maskError as defaultMaskError, useReadinessCheck, type YogaLogger } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import { ApiKeysService } from './auth/api-keys.service';
import { createAuthenticator, type Credentials } from './auth/authenticate';
import { LiveSessions, useLiveSessions } from './auth/live-sessions';
import { decideStartup, isLoopbackHost, keysRequired } from './auth/policy';
import { useScopes } from './auth/use-scopes';
import type { Config } from './config';
import { createContext, type Services } from './context';
import { openDatabase, type Database } from './db/data-source';
import { AtelierError } from './errors';
import { createEventBus, type EventBus } from './events/event-bus';
import { GRAPHIQL_DEFAULT_QUERY } from './graphql/example-operations';
import { getSchema } from './graphql/index';
import { createLogger, type Logger } from './logger';
import { MetricsRepo } from './metrics/metrics.repo';
import { MetricsService } from './metrics/metrics.service';
import { createPipelineDeps } from './pipeline';
import { PipelineRunner } from './pipeline/runner';
import { RunsRepo } from './runs/runs.repo';
import { RunsService } from './runs/runs.service';
import { TrajectoriesRepo } from './trajectories/trajectories.repo';
import { TrajectoriesService } from './trajectories/trajectories.service';
import { useCostLimit } from './security/cost';
import { useDocumentLimits } from './security/document-limits';
import { useFiniteNumberLiterals } from './security/finite-literals';
import { corsPolicy, useBrowserGuard, useIntrospection, verifyUpgrade } from './security/http-exposure';
import { limitError } from './security/limit-error';
import { useMalformedRequests } from './security/malformed-requests';
import { publicError, useRedactedErrors } from './security/public-errors';
import { useMutationRateLimit } from './security/rate-limit';
import { createRedactor, secretsIn, type Redactor } from './security/redact';
import { createDashboard } from './server/dashboard';

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

function buildServices(config: Config, db: Database, events: EventBus, logger: Logger, redactor: Redactor): Services {
  const metricsRepo = new MetricsRepo(db.reader);
  const core = {
    config,
    events,
    apiKeys: new ApiKeysService(db, { lastUsedWriteIntervalMs: config.auth.lastUsedWriteIntervalMs, logger }),
    runs: new RunsService(db, events),
    runsRepo: new RunsRepo(db.reader, db.kind),
    trajectories: new TrajectoriesService(db, events),
    trajectoriesRepo: new TrajectoriesRepo(db.reader),
    metricsRepo,
    metrics: new MetricsService(db, metricsRepo, events),
  };
  const pipelineDeps = createPipelineDeps(config, core, logger, redactor);
  return { ...core, pipelineDeps, pipeline: new PipelineRunner(pipelineDeps, db) };
}

/** Expected outcomes keep their message and code; everything else is masked. */
function maskError(logger: Logger, maxBodyBytes: number) {
  return (error: unknown, message: string, isDev?: boolean) => {
    if (error instanceof GraphQLError && error.extensions?.code === 'REQUEST_ENTITY_TOO_LARGE') {
      return limitError('maxBodyBytes', `the request body is larger than the limit of ${maxBodyBytes} bytes`, { max: maxBodyBytes }, 413);
    }
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (original instanceof AtelierError) {
      return new GraphQLError(original.message, {
        nodes: error instanceof GraphQLError ? error.nodes : undefined,
        path: error instanceof GraphQLError ? error.path : undefined,
        extensions: { code: original.code, ...(original.code === 'BAD_USER_INPUT' ? { issues: (original as { issues?: unknown }).issues } : {}) },
      });
    }
    if (!isClientError(error)) logger.error('unexpected error while executing an operation', original);
    return defaultMaskError(error, message, isDev);
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise.catch(() => fallback), new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)))]).finally(() => clearTimeout(timer));
}

/** Whether an error is the client's doing (bad input, a refused request) rather than Atelier's. */
function isClientError(error: unknown): boolean {
  let origin = error;
  while (origin instanceof GraphQLError && origin.originalError) origin = origin.originalError;
  return origin instanceof GraphQLError || origin instanceof AtelierError;
}

/** Yoga's own log lines go through Atelier's (redacting) logger; clients' mistakes are not errors of ours. */
function yogaLogger(logger: Logger): YogaLogger {
  const adapt = (log: Logger['info']) => (...args: unknown[]) => {
    const error = args.find((a) => a instanceof Error);
    const text = args.filter((a) => !(a instanceof Error)).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
    (error && isClientError(error) ? logger.debug : log)(text || 'refused a request', error);
  };
  return { debug: adapt(logger.debug), info: adapt(logger.info), warn: adapt(logger.warn), error: adapt(logger.error) };
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

  // The dashboard (/, /runs/<id>, /compare, /assets/*) is answered before yoga; everything else is yoga's.
  const dashboard = createDashboard({ simulated: config.simulated, isOpen });
  if (config.simulated) logger.warn('SIMULATED: the model provider and the ART backend are simulators; no run on this server is real training');
  const server: Server = createServer((req, res) => dashboard.handle(req, res) || yoga(req, res));
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
      logger.info(`dashboard at ${url}/${dashboard.built() ? '' : ' (not built yet: run npm run build)'}`);
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
