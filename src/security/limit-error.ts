// The error every refused-for-cost request gets: it names the limit (its config name and the
// environment variable that sets it), the maximum, and what the request asked for.
import { GraphQLError } from 'graphql';

export const LIMIT_ENV = {
  maxDepth: 'MAX_QUERY_DEPTH',
  maxAliases: 'MAX_QUERY_ALIASES',
  maxTokens: 'MAX_QUERY_TOKENS',
  maxDirectives: 'MAX_QUERY_DIRECTIVES',
  maxCost: 'MAX_QUERY_COST',
  maxBodyBytes: 'MAX_BODY_BYTES',
  maxNesting: 'MAX_QUERY_NESTING',
  maxResponseBytes: 'MAX_RESPONSE_BYTES',
  maxSubscriptionsPerConnection: 'MAX_SUBSCRIPTIONS_PER_CONNECTION',
  maxSubscriptionsPerKey: 'MAX_SUBSCRIPTIONS_PER_KEY',
  maxSocketBufferBytes: 'MAX_SOCKET_BUFFER_BYTES',
  maxSseReservationsPerKey: 'MAX_SSE_RESERVATIONS_PER_KEY',
  maxSseReservationOperations: 'MAX_SSE_RESERVATION_OPERATIONS',
  mutationRate: 'RATE_LIMIT_MUTATIONS_PER_SECOND',
} as const;

export type LimitName = keyof typeof LIMIT_ENV;

export function limitError(
  limit: LimitName,
  message: string,
  details: { max: number; found?: number },
  httpStatus = 400,
): GraphQLError {
  return new GraphQLError(`${message} (limit ${limit}, set by ${LIMIT_ENV[limit]})`, {
    extensions: { code: 'LIMIT_EXCEEDED', limit, ...details, http: { status: httpStatus } },
  });
}
