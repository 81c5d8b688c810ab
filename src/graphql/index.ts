// Builds the schema: imports every module that adds types or fields, then prints nothing itself.
import { lexicographicSortSchema, type GraphQLSchema } from 'graphql';

import { builder } from './builder';

import './scalars';
import './errors';
import './inputs';
import '../datasets/datasets.graphql';
import '../runs/runs.graphql';
import '../runs/run-events.graphql';
import '../runs/run-summary.graphql';
import '../runs/run-stall.graphql';
import '../trajectories/trajectories.graphql';
import '../metrics/metrics.graphql';
import '../checkpoints/checkpoints.graphql';
import '../evaluations/evaluations.graphql';
import '../pipeline/pipeline.graphql';
import '../pipeline/queue.graphql';
import '../auth/api-keys.graphql';
import '../server/server-info.graphql';

let schema: GraphQLSchema | undefined;

/** The executable schema, built once. */
export function getSchema(): GraphQLSchema {
  schema ??= builder.toSchema();
  return schema;
}

/** The schema sorted for printing, so schema.graphql diffs stay readable. */
export function getSortedSchema(): GraphQLSchema {
  return lexicographicSortSchema(getSchema());
}
