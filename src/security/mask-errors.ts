// What a client learns from a failed operation: Atelier's expected errors keep their message and
// code, anything unexpected is logged and masked (yoga's maskedErrors.maskError).
import { GraphQLError } from 'graphql';
import { maskError as defaultMaskError } from 'graphql-yoga';

import { AtelierError } from '../errors';
import type { Logger } from '../logger';
import { limitError } from './limit-error';

/** Expected outcomes keep their message and code; everything else is masked. */
export function maskError(logger: Logger, maxBodyBytes: number) {
  return (error: unknown, message: string, isDev?: boolean) => {
    if (error instanceof GraphQLError && error.extensions?.code === 'REQUEST_ENTITY_TOO_LARGE') {
      return limitError(
        'maxBodyBytes',
        `the request body is larger than the limit of ${maxBodyBytes} bytes; send smaller batches, or raise the limit with MAX_BODY_BYTES`,
        { max: maxBodyBytes },
        413,
      );
    }
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (original instanceof AtelierError) {
      return new GraphQLError(original.message, {
        nodes: error instanceof GraphQLError ? error.nodes : undefined,
        path: error instanceof GraphQLError ? error.path : undefined,
        extensions: {
          code: original.code,
          ...(original.code === 'BAD_USER_INPUT' ? { issues: (original as { issues?: unknown }).issues } : {}),
        },
      });
    }
    if (!isClientError(error)) logger.error('unexpected error while executing an operation', original);
    return defaultMaskError(error, message, isDev);
  };
}

/** Whether an error is the client's doing (bad input, a refused request) rather than Atelier's. */
export function isClientError(error: unknown): boolean {
  let origin = error;
  while (origin instanceof GraphQLError && origin.originalError) origin = origin.originalError;
  return origin instanceof GraphQLError || origin instanceof AtelierError;
}
