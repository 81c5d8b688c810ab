// createApp(config) is the composition root: config → redactor, logger → database → events → services
// → auth → yoga → HTTP server → graphql-ws. Nothing happens at import time, so tests start as many real
// servers as they like, each on its own port and database.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createAuthenticator } from './auth/authenticate';
import { LiveSessions } from './auth/live-sessions';
import { decideStartup, isLoopbackHost, keysRequired } from './auth/policy';
import type { Config } from './config';
import { openDatabase, type Database } from './db/data-source';
import { createEventBus, type EventBus } from './events/event-bus';
import { createLogger } from './logger';
import { RunsRepo } from './runs/runs.repo';
import { TokenBuckets } from './security/rate-limit';
import { createRedactor, secretsIn, type Redactor } from './security/redact';
import { createArtRoutes } from './server/art-routes';
import { createDashboard } from './server/dashboard';
import { OperationQueryCounts } from './server/operation-queries';
import { atelierSharing } from './server/shared-context';
import { SharedSubscriptions } from './server/shared-subscriptions';
import { SseStreams } from './server/sse-single-connection';
import { attachGraphqlWs } from './server/ws';
import { createAtelierYoga } from './server/yoga';
import { buildServices, type Services } from './services';

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
  /** Subscriptions sharing one execution per event: their groups, members and executions. */
  readonly sharedSubscriptions: SharedSubscriptions;
  /** The read statements each query or mutation ran itself (nothing that ran beside it). */
  readonly operationQueries: OperationQueryCounts;
  /** graphql-sse single connection streams: reserved and open, and what the reserved ones hold. */
  readonly sseStreams: SseStreams;
}

export async function createApp(config: Config): Promise<App> {
  const redactor: Redactor = createRedactor(secretsIn(config));
  const logger = createLogger(config.logLevel, redactor);
  const db = await openDatabase(config.database, {
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    onLockWait: (message) => logger.warn(message),
  });
  let events: EventBus;
  try {
    // Status events are stored before they are published: with Redis, the bus delivers any it finds stored but never received.
    const transitions = new RunsRepo(db.reader, db.kind);
    const statusLog = {
      after: (id: number, limit: number) => transitions.statusEventsAfter(id, {}, limit),
      latestId: () => transitions.latestTransitionId(),
    };
    events = await createEventBus({
      bufferSize: config.subscriptionBuffer,
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
      logger,
      statusLog,
    });
  } catch (err) {
    await db.close();
    throw new Error(`REDIS_URL: cannot reach Redis (${err instanceof Error ? err.message : err})`);
  }
  const services = buildServices(config, db, events, logger, redactor);

  // Who may do what (src/auth/): keys are required unless the policy says Atelier runs open.
  const loopback = isLoopbackHost(config.host);
  const keysRequiredNow = async () =>
    keysRequired(config.auth.mode, loopback, config.auth.mode === 'auto' ? await services.apiKeys.anyEverMade() : true);
  const isOpen = async () => !(await keysRequiredNow());
  const authenticate = createAuthenticator(services.apiKeys, keysRequiredNow);
  const sessions = new LiveSessions();
  services.apiKeys.onRevoke((keyId) => void sessions.revoke(keyId));
  sessions.watch(
    (ids) => services.apiKeys.invalidAmong(ids),
    config.auth.revocationCheckMs,
    (err) => logger.warn('could not check revoked keys', err),
  );

  const sharedSubscriptions = new SharedSubscriptions(atelierSharing({ config, logger, redactor }));
  const operationQueries = new OperationQueryCounts();
  const sseStreams = new SseStreams();
  // One rate limit for mutations and ART imports alike.
  const mutationBuckets = new TokenBuckets(config.rateLimit.mutationsPerSecond, config.rateLimit.burst);
  const yoga = createAtelierYoga({
    mutationBuckets,
    config,
    services,
    db,
    events,
    authenticate,
    isOpen,
    sessions,
    operationQueries,
    sseStreams,
    sharedSubscriptions,
    redactor,
    logger,
  });
  // The dashboard (/, /runs/<id>, /compare, /assets/*) is answered before yoga; everything else is yoga's.
  const dashboard = createDashboard({ simulated: config.simulated, isOpen });
  if (config.simulated)
    logger.warn(
      'SIMULATED: the model provider and the ART backend are simulators; no run on this server is real training',
    );
  const artRoutes = createArtRoutes({
    config,
    artFolders: services.artFolders,
    apiKeys: services.apiKeys,
    authenticate,
    isOpen,
    buckets: mutationBuckets,
    logger,
  });
  const server: Server = createServer(
    (req, res) => artRoutes.handle(req, res) || dashboard.handle(req, res) || yoga(req, res),
  );
  const graphqlWs = attachGraphqlWs({ server, yoga, config, authenticate, isOpen, sessions, redactor, logger });

  let url = '';
  return {
    db,
    services,
    events,
    sessions,
    sharedSubscriptions,
    operationQueries,
    sseStreams,
    get url() {
      return url;
    },
    async start(port = config.port) {
      // Decided before listening: on a non-loopback address without keys nothing is ever exposed.
      const facts = {
        mode: config.auth.mode,
        host: config.host,
        port,
        activeKeys: await services.apiKeys.countActive(),
        anyKeyEverMade: await services.apiKeys.anyEverMadeNow(),
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
      services.stalls.start();
      if (services.pipeline.enabled) await services.pipeline.start();
      else
        logger.info(
          'pipeline runs are off: set ART_BACKEND_URL and OPENAI_BASE_URL to enable them (tracked runs work without)',
        );
      return url;
    },
    async stop() {
      await services.stalls.stop();
      await services.pipeline.stop();
      sessions.stop();
      await graphqlWs.dispose();
      server.closeAllConnections();
      await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
      await yoga.dispose();
      await services.artFolders.close();
      await events.close();
      await db.close();
    },
  };
}
