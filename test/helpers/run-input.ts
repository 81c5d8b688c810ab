// Input for a run the test reports into itself. Where the server can also drive runs (the pipeline's
// `mode` field), such a run is TRACKED; the helper asks the schema, so these tests hold either way.
import type { GraphQLInputObjectType } from 'graphql';
import { getSchema } from '../../src/graphql/index';

const hasModes = 'mode' in (getSchema().getType('CreateTrainingRunInput') as GraphQLInputObjectType).getFields();

export function trackedRun<T extends object>(input: T): T {
  return hasModes ? { ...input, mode: 'TRACKED' } : input;
}
