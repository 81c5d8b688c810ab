// GraphQL over WebSocket (graphql-ws) on the HTTP server's /graphql path: each operation runs
// through yoga's envelop, so it gets the same context, limits and error handling as HTTP.
import type { IncomingMessage, Server } from 'node:http';

import { getOperationAST, GraphQLError, type DocumentNode, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';

import type { Authenticate } from '../auth/authenticate';
import type { LiveSessions } from '../auth/live-sessions';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { verifyUpgrade } from '../security/http-exposure';
import { limitError } from '../security/limit-error';
import { publicError } from '../security/public-errors';
import type { Redactor } from '../security/redact';
import { guardOutbound, type OutboundGuard } from './outbound-guard';
import { SendGate, setGate } from './send-gate';
import { shareOverSocket } from './shared-subscriptions';
import type { AtelierYoga } from './yoga';

export interface GraphqlWsDeps {
  server: Server;
  yoga: Pick<AtelierYoga, 'getEnveloped' | 'graphqlEndpoint'>;
  config: Config;
  authenticate: Authenticate;
  /** Whether Atelier runs without keys right now (upgrades from browsers are allowed more then). */
  isOpen: () => Promise<boolean>;
  sessions: LiveSessions;
  redactor: Redactor;
  logger: Logger;
}

export interface GraphqlWs {
  /** Ends every subscription, drops the sockets and closes the WebSocket server. */
  dispose(): Promise<void>;
}

/**
 * Per socket: the upgrade request, the socket, how to stop tracking it for revocation, and the ids of
 * its subscription operations (a type, not an interface: graphql-ws wants it indexable).
 */
type Extra = {
  request: IncomingMessage;
  socket: WebSocket;
  forget?: () => void;
  subscriptionIds?: Set<string>;
  gate?: SendGate;
};

/** Events a WebSocket may have resolved and not yet sent, across its subscriptions (send-gate.ts). */
export const UNSENT_EVENTS_PER_CONNECTION = 8;

/** WebSocket close code for a client cut off for not reading: "try again later". */
export const NOT_READING_CLOSE_CODE = 1013;

/** Subscriptions this socket still runs (graphql-ws forgets an id when its operation ends). */
function liveSubscriptions(extra: Extra, running: Record<string, unknown>): Set<string> {
  const ids = (extra.subscriptionIds ??= new Set());
  for (const id of ids) if (!(id in running)) ids.delete(id);
  return ids;
}

/**
 * onSubscribe hands each operation its own enveloped execute and subscribe in rootValue (yoga's
 * recipe for graphql-ws): graphql-ws's execute/subscribe options run those, so the plugins apply.
 */
type Enveloped = Pick<ReturnType<AtelierYoga['getEnveloped']>, 'execute' | 'subscribe'>;

function isEnveloped(root: unknown): root is Enveloped {
  return (
    typeof root === 'object' &&
    root !== null &&
    'execute' in root &&
    typeof root.execute === 'function' &&
    'subscribe' in root &&
    typeof root.subscribe === 'function'
  );
}

function envelopedOf(args: ExecutionArgs): Enveloped {
  if (isEnveloped(args.rootValue)) return args.rootValue;
  throw new Error('a graphql-ws operation without the enveloped execute/subscribe that onSubscribe sets');
}

function isReturnable(value: unknown): value is { return(value?: unknown): Promise<unknown> } {
  return typeof value === 'object' && value !== null && 'return' in value && typeof value.return === 'function';
}

const asErrors = (err: unknown) => [
  err instanceof GraphQLError ? err : new GraphQLError(err instanceof Error ? err.message : 'invalid operation'),
];

export function attachGraphqlWs({
  server,
  yoga,
  config,
  authenticate,
  isOpen,
  sessions,
  redactor,
  logger,
}: GraphqlWsDeps): GraphqlWs {
  const { maxSubscriptionsPerConnection } = config.limits;
  const guards = new WeakMap<WebSocket, OutboundGuard>();
  /** graphql-ws's operations of each socket, so a cut-off socket's subscriptions end at once. */
  const operations = new WeakMap<WebSocket, { subscriptions: Record<string, unknown> }>();
  const wsServer = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    maxPayload: config.limits.maxBodyBytes,
    verifyClient: verifyUpgrade(config.http.corsOrigins, isOpen),
  });
  const wsCleanup = useServer<Record<string, unknown>, Extra>(
    {
      isProd: config.production,
      execute: (args) => envelopedOf(args).execute(args),
      subscribe: (args) => envelopedOf(args).subscribe(args),
      onConnect: async (ctx) => {
        operations.set(ctx.extra.socket, ctx);
        // Acknowledged either way: each operation then gets a GraphQL error naming the problem.
        const viewer = await authenticate({
          connectionParams: ctx.connectionParams,
          address: ctx.extra.request.socket?.remoteAddress,
        });
        if (viewer.kind === 'key')
          ctx.extra.forget = sessions.trackSocket(viewer.key.keyId, viewer.key.name, ctx.extra.socket);
        return true;
      },
      onClose: (ctx) => ctx.extra.forget?.(),
      onSubscribe: async (ctx, id, params) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          // Not `request`: yoga would take the upgrade's GET for an HTTP GET and refuse mutations.
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          connectionParams: ctx.connectionParams,
          // GraphiQL sends its Headers tab here; used when connectionParams carry no credentials (authenticate.ts).
          operationHeaders: params.extensions?.headers,
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
        if (getOperationAST(document, params.operationName)?.operation === 'subscription') {
          const live = liveSubscriptions(ctx.extra, ctx.subscriptions);
          if (live.size >= maxSubscriptionsPerConnection) {
            return [
              limitError(
                'maxSubscriptionsPerConnection',
                `${live.size} subscriptions on this connection reach the limit of ${maxSubscriptionsPerConnection}; end one first or open another connection`,
                {
                  max: maxSubscriptionsPerConnection,
                  found: live.size + 1,
                },
              ),
            ];
          }
          live.add(id);
        }
        const variableValues =
          params.variables && typeof params.variables === 'object' && !Array.isArray(params.variables)
            ? params.variables
            : undefined;
        const rootValue: Enveloped = { execute, subscribe };
        const contextValue = await contextFactory();
        setGate(contextValue, (ctx.extra.gate ??= new SendGate(UNSENT_EVENTS_PER_CONNECTION)));
        // A shared subscription (shared-subscriptions.ts) writes its events' frames to the socket itself.
        shareOverSocket(contextValue, id, ctx.extra.socket, () => guards.get(ctx.extra.socket)?.check());
        return {
          schema,
          operationName: params.operationName,
          document,
          variableValues,
          contextValue,
          rootValue,
        };
      },
      onNext: (ctx, _id, _payload, _args, result) => {
        // Checked before and just after each send: the send itself may be what passes the bound.
        const guard = guards.get(ctx.extra.socket);
        guard?.check();
        if (guard) setImmediate(guard.check);
        return result.errors ? { ...result, errors: result.errors.map((e) => publicError(e, redactor)) } : undefined;
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => publicError(e, redactor)),
    },
    wsServer,
  );
  // ws closes a socket that breaks the protocol (oversized or malformed frames) by itself, with the
  // right code; graphql-ws would also print each such error to stderr, which hostile clients could flood.
  wsServer.on('connection', (socket, request) => {
    socket.removeAllListeners('error');
    socket.on('error', (err) => logger.debug(`WebSocket closed for a protocol error: ${err.message}`));
    // A client that stops reading must not make the server buffer without bound (MAX_SOCKET_BUFFER_BYTES).
    const guard = guardOutbound(
      {
        pending: () => socket.bufferedAmount,
        cut: (reason) => {
          logger.warn(
            `closed a WebSocket from ${request.socket.remoteAddress ?? 'an unknown address'} with ${NOT_READING_CLOSE_CODE}: ${reason}`,
          );
          // End its subscriptions now: each would otherwise go on resolving every event for nobody.
          for (const operation of Object.values(operations.get(socket)?.subscriptions ?? {})) {
            if (isReturnable(operation)) void operation.return(undefined).catch(() => undefined);
          }
          socket.close(NOT_READING_CLOSE_CODE, 'Try again later: the client is not reading');
          // The close frame waits behind the unsent output; do not hold that memory for it.
          setTimeout(() => socket.terminate(), 1000).unref();
        },
      },
      config.limits,
    );
    guards.set(socket, guard);
    socket.once('close', () => guard.stop());
  });

  return {
    async dispose() {
      await wsCleanup.dispose();
      for (const client of wsServer.clients) client.terminate();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}
