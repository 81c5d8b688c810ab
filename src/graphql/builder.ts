// The Pothos schema builder, its plugins and the three root types. Defines no other types: those
// live next to their domain, shared ones in graphql/.
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import RelayPlugin from '@pothos/plugin-relay';
import ZodPlugin from '@pothos/plugin-zod';

import type { Context } from '../context';
import { decodeGlobalId, encodeGlobalId } from './global-id';
import GlobalIdArgsPlugin from './global-id-args';
import NoNulArgsPlugin from './no-nul-args';
import { MAX_PAGE_SIZE } from './pagination';
import { validationErrorFromZod } from './zod-errors';

/** nodes(ids:) takes as many ids as a page holds. */
const MAX_NODES = MAX_PAGE_SIZE;

export interface JsonObject {
  [key: string]: unknown;
}

export const builder = new SchemaBuilder<{
  Context: Context;
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  /** Every connection counts its matches, lazily: toConnection (pagination.ts) gives each one. */
  Connection: { totalCount: () => Promise<number> };
}>({
  // Pothos hands each field to the plugins last to first: the NUL check, prepended last, reads arguments first.
  plugins: [ErrorsPlugin, ZodPlugin, NoNulArgsPlugin, GlobalIdArgsPlugin, RelayPlugin],
  defaultFieldNullability: false,
  errors: { defaultTypes: [], unsafelyHandleInputErrors: true },
  zod: { validationError: (zodError) => validationErrorFromZod(zodError) },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    encodeGlobalID: encodeGlobalId,
    decodeGlobalID: decodeGlobalId,
    nodesQueryOptions: {
      description: `Fetches objects by their global ids (at most ${MAX_NODES}), in the order asked: null for an id that matches nothing. A malformed id, or one of a type Atelier does not have, is BAD_USER_INPUT.`,
      args: { ids: { validate: { maxLength: MAX_NODES } } },
    },
    nodeQueryOptions: { description: 'Fetches any object by its global id: a TrainingRun or a Trajectory.' },
  },
});

builder.queryType({ description: 'Read training runs, their trajectories and their metrics.' });
builder.mutationType({ description: 'The tracking API: create and advance runs, record trajectories and metrics.' });
builder.subscriptionType({
  description:
    'Live updates, pushed after each change is stored: over graphql-ws (WebSocket) or server-sent events on /graphql.',
});
