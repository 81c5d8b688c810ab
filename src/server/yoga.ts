// The GraphQL server (graphql-yoga): schema, per-request context with its viewer, error masking,
// GraphiQL, and the plugins that guard every operation, in the order they must run.
import type { IncomingMessage } from 'node:http';

import { createYoga, useReadinessCheck } from 'graphql-yoga';

import type { Authenticate, Credentials } from '../auth/authenticate';
import { useLiveSessions, type LiveSessions } from '../auth/live-sessions';
import { useScopes } from '../auth/use-scopes';
import type { Config } from '../config';
import { createContext } from '../context';
import type { Database } from '../db/data-source';
import type { EventBus } from '../events/event-bus';
import { GRAPHIQL_DEFAULT_QUERY } from '../graphql/example-operations';
import { getSchema } from '../graphql/index';
import type { Logger } from '../logger';
import { useCostLimit } from '../security/cost';
import { useDocumentLimits } from '../security/document-limits';
import { useFiniteNumberLiterals } from '../security/finite-literals';
import { corsPolicy, useBrowserGuard, useIntrospection } from '../security/http-exposure';
import { useMalformedRequests } from '../security/malformed-requests';
import { maskError } from '../security/mask-errors';
import { useNestingLimit } from '../security/nesting-limit';
import { useRedactedErrors } from '../security/public-errors';
import { useMutationRateLimit, type TokenBuckets } from '../security/rate-limit';
import type { Redactor } from '../security/redact';
import { countResponseBytes, useResponseSizeLimit } from '../security/response-size';
import { useSubscriptionQuota } from '../security/subscription-quota';
import type { Services } from '../services';
import { renderGraphiQLPage } from './graphiql-page';
import type { OperationQueryCounts } from './operation-queries';
import { plannedConnections } from './planned-connections';
import { gateSubscriptions } from './send-gate';
import type { SharedSubscriptions } from './shared-subscriptions';
import { useSseOutboundGuard } from './sse-guard';
import { useSseResume } from './sse-resume';
import { useSseSingleConnection, type SseStreams } from './sse-single-connection';
import { yogaLogger } from './yoga-logger';

export interface YogaDeps {
  config: Config;
  services: Services;
  /** What /ready asks: storage and (when used) Redis. */
  db: Pick<Database, 'ping' | 'countQueries'>;
  events: Pick<EventBus, 'ready'>;
  authenticate: Authenticate;
  /** Whether Atelier runs without keys right now (the browser guard allows more then). */
  isOpen: () => Promise<boolean>;
  sessions: LiveSessions;
  /** The streams of graphql-sse's single connection mode: what they hold, for App.sseStreams. */
  sseStreams?: SseStreams;
  /** Hears how many read statements each query or mutation ran. */
  operationQueries?: OperationQueryCounts;
  /** Subscribers with the same operation, variables and key share one execution per event. */
  sharedSubscriptions?: SharedSubscriptions;
  redactor: Redactor;
  logger: Logger;
  /** The mutation rate limit's buckets, shared with the ART import routes. */
  mutationBuckets?: TokenBuckets;
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.catch(() => fallback),
    new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** The Node request behind a yoga context: HTTP's `req`, or the upgrade request of a WebSocket. */
function incoming(ctx: { req?: unknown; request?: unknown }): IncomingMessage | undefined {
  const candidate = (ctx.req ?? ctx.request) as { socket?: unknown } | undefined;
  return candidate && typeof candidate === 'object' && 'socket' in candidate
    ? (candidate as IncomingMessage)
    : undefined;
}

export function createAtelierYoga({
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
  mutationBuckets,
}: YogaDeps) {
  return createYoga({
    schema: gateSubscriptions(countResponseBytes(getSchema())),
    graphqlEndpoint: '/graphql',
    healthCheckEndpoint: '/health',
    landingPage: false,
    // HTTP and SSE carry credentials in the Authorization header; graphql-ws in connectionParams, or
    // per operation in the subscribe message's extensions.headers (ws.ts passes them as operationHeaders).
    context: async (ctx: {
      request?: Request;
      req?: unknown;
      connectionParams?: Record<string, unknown>;
      operationHeaders?: unknown;
    }) => {
      const credentials: Credentials = {
        // A graphql-ws upgrade request is Node's IncomingMessage, not a Fetch Request: it authenticates by connectionParams.
        authorization:
          typeof ctx.request?.headers?.get === 'function' ? ctx.request.headers.get('authorization') : null,
        connectionParams: ctx.connectionParams,
        operationHeaders: ctx.operationHeaders,
        address: incoming(ctx)?.socket?.remoteAddress,
      };
      return createContext(services, await authenticate(credentials));
    },
    maskedErrors: { maskError: maskError(logger, config.limits.maxBodyBytes), isDev: false },
    graphiql: config.http.graphiql
      ? { title: 'Atelier', defaultQuery: GRAPHIQL_DEFAULT_QUERY, subscriptionsProtocol: 'WS' }
      : false,
    // GraphiQL's offline bundle holds about 30 MB of strings once imported: loaded when GraphiQL is first
    // opened. Its storage is the tab's sessionStorage (graphiql-page.ts): keys never reach localStorage.
    renderGraphiQL: renderGraphiQLPage,
    cors: corsPolicy(config.http.corsOrigins),
    multipart: false,
    maxRequestBodySize: config.limits.maxBodyBytes,
    logging: config.logLevel === 'silent' ? false : yogaLogger(logger),
    plugins: [
      // Ready = storage and (when used) Redis answer; a check that hangs counts as not ready.
      useReadinessCheck({
        endpoint: '/ready',
        check: () =>
          withTimeout(
            Promise.all([db.ping(), events.ready()]).then((r) => r.every(Boolean)),
            2000,
            false,
          ),
      }),
      ...(operationQueries ? [operationQueries.plugin(db, logger)] : []),
      useBrowserGuard(isOpen),
      useMalformedRequests(),
      // Before the parser sees the text: deep nesting would overflow its stack.
      useNestingLimit(config.limits.maxNesting),
      ...useDocumentLimits(config.limits),
      useFiniteNumberLiterals(),
      ...useIntrospection(config.http.introspection),
      // Before anything runs: who (scopes), how much (cost), how often (mutation rate).
      useScopes(),
      useCostLimit(config.limits.maxCost),
      useMutationRateLimit(config.rateLimit, mutationBuckets),
      useResponseSizeLimit(config.limits.maxResponseBytes),
      // After the refusals above (they read the operation as written): pages' edges written straight to JSON.
      plannedConnections.plugin(),
      // Last of the refusals, so a subscription refused above never holds a slot.
      useSubscriptionQuota(config.limits.maxSubscriptionsPerKey),
      useSseOutboundGuard(config.limits, logger),
      useSseResume(),
      useLiveSessions(sessions),
      useRedactedErrors(redactor),
      // graphql-sse's single connection mode, after the guards above, so they see its requests first.
      useSseSingleConnection({
        endpoint: '/graphql',
        authenticate,
        sessions,
        limits: config.limits,
        streams: sseStreams,
        redactor,
        logger,
      }),
      // Last: only subscriptions every plugin above let through are shared.
      ...(sharedSubscriptions ? [sharedSubscriptions.plugin()] : []),
    ],
  });
}

export type AtelierYoga = ReturnType<typeof createAtelierYoga>;
