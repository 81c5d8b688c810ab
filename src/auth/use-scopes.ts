// Authorization, in one place: before any operation runs (over HTTP, SSE or graphql-ws), the
// viewer must hold the scope the operation needs (scopes.ts). Otherwise it gets UNAUTHENTICATED
// (no valid key where one is required) or FORBIDDEN (a key without the scope), and nothing runs.
import { getOperationAST, GraphQLError, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';

import type { Context } from '../context';
import { allows, requiredScope } from './scopes';
import { viewerScope, type Viewer } from './viewer';

export function unauthenticatedError(problem: string): GraphQLError {
  return new GraphQLError(`not authenticated: ${problem}`, {
    extensions: {
      code: 'UNAUTHENTICATED',
      http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="atelier"' } },
    },
  });
}

function refusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  viewer: Viewer,
): GraphQLError | null {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return null;
  const held = viewerScope(viewer);
  if (held === null) return unauthenticatedError(viewer.kind === 'anonymous' ? viewer.problem : 'no credentials');
  const needed = requiredScope(schema, operation, document);
  if (allows(held, needed)) return null;
  const who =
    viewer.kind === 'key' ? `the key "${viewer.key.name}" has the ${held} scope` : `you have the ${held} scope`;
  return new GraphQLError(`forbidden: this ${operation.operation} needs the ${needed} scope, and ${who}`, {
    extensions: { code: 'FORBIDDEN', requiredScope: needed, scope: held, http: { status: 403 } },
  });
}

export function useScopes(): Plugin<Context> {
  const check = (
    args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; contextValue: Context },
    stop: (result: { errors: GraphQLError[] }) => void,
  ) => {
    const { viewer, services } = args.contextValue;
    const error = refusal(args.schema, args.document, args.operationName, viewer);
    if (error) stop({ errors: [error] });
    else if (viewer.kind === 'key') services.apiKeys.recordUse(viewer.key);
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) => check(args, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) => check(args, setResultAndStopExecution),
  };
}
