// What shared subscriptions (shared-subscriptions.ts) need to know about Atelier: who a subscriber is
// (as far as results can differ), the context a group executes with, and how graphql-ws sends a result.
import { GraphQLError, type ExecutionResult } from 'graphql';

import type { Config } from '../config';
import { createLoaders, type Context } from '../context';
import type { EventBus } from '../events/event-bus';
import type { Logger } from '../logger';
import { maskError } from '../security/mask-errors';
import { publicError } from '../security/public-errors';
import type { Redactor } from '../security/redact';
import type { SharedSubscriptionsOptions } from './shared-subscriptions';
import { UNSENT_EVENTS_PER_CONNECTION } from './ws';

function isContext(value: unknown): value is Context {
  return typeof value === 'object' && value !== null && 'viewer' in value && 'services' in value;
}

/** The bus as a group sees it: its one listener counts for each member (EventBus.listenerCount). */
function countingMembers(bus: EventBus, members: () => number): EventBus {
  return Object.assign(Object.create(bus) as EventBus, {
    subscribe: ((topic, options) => bus.subscribe(topic, { ...options, members })) as EventBus['subscribe'],
  });
}

export function atelierSharing({
  config,
  logger,
  redactor,
}: {
  config: Config;
  logger: Logger;
  redactor: Redactor;
}): SharedSubscriptionsOptions {
  const mask = maskError(logger, config.limits.maxBodyBytes);
  return {
    bufferSize: config.subscriptionBuffer,
    heldPerConnection: UNSENT_EVENTS_PER_CONNECTION,
    // Results depend on the viewer through its scope at most; keys never share with each other.
    identity: (ctx) => {
      if (!isContext(ctx)) return null;
      const viewer = ctx.viewer;
      if (viewer.kind === 'open') return 'open';
      if (viewer.kind === 'key') return `key:${viewer.key.keyId}:${viewer.key.scope}`;
      return null;
    },
    // The viewer and services of the first member, nothing of its transport (socket, request, send gate).
    groupContext: (ctx, members) => {
      const { services, viewer } = ctx as Context;
      const shared: Context = {
        services: { ...services, events: countingMembers(services.events, members) },
        viewer,
        // The group's members share a key, and so its project scope.
        loaders: createLoaders(services, { projects: viewer.projects }),
      };
      return shared;
    },
    // As graphql-ws sent it: errors masked as yoga masks them (mask-errors.ts), then made public (ws.ts onNext).
    serialize: (result: ExecutionResult) =>
      JSON.stringify(
        result.errors
          ? {
              ...result,
              errors: result.errors.map((e) =>
                publicError(mask(e, 'Unexpected error.', false) as GraphQLError, redactor),
              ),
            }
          : result,
      ),
  };
}
