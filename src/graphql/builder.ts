// The Pothos schema builder and its plugins. Defines no types: those live next to their domain.
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import RelayPlugin from '@pothos/plugin-relay';
import ZodPlugin from '@pothos/plugin-zod';
import type { Context } from '../context';
import { decodeGlobalId, encodeGlobalId } from './global-id';
import { validationErrorFromZod } from './zod-errors';

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
}>({
  plugins: [ErrorsPlugin, ZodPlugin, RelayPlugin],
  defaultFieldNullability: false,
  errors: { defaultTypes: [], unsafelyHandleInputErrors: true },
  zod: { validationError: (zodError) => validationErrorFromZod(zodError) },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    encodeGlobalID: encodeGlobalId,
    decodeGlobalID: decodeGlobalId,
    nodesQueryOptions: false,
    nodeQueryOptions: { description: 'Fetches any object by its global id: a TrainingRun or a Trajectory.' },
  },
});

builder.queryType({ description: 'Read training runs, their trajectories and their metrics.' });
builder.mutationType({ description: 'The tracking API: create and advance runs, record trajectories and metrics.' });
