// A Pothos plugin that checks relay globalID arguments before plugin-relay decodes them:
// - `t.arg.globalID({ for: SomeNode })`: a malformed id, or the id of another type, is a
//   ValidationError naming the argument ("runId: expected a TrainingRun id, got a Trajectory id")
//   rather than relay's generic "ID: … is not of type";
// - node(id:) and nodes(ids:), which take any node's id: an id naming a type that is no Node of the
//   schema is a ValidationError too (BAD_USER_INPUT like every other bad id), not a masked failure.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { isInterfaceType, type GraphQLSchema } from 'graphql';

import { ValidationError } from '../errors';
import { decodeGlobalId, parseGlobalIdOf } from './global-id';

const pluginName = 'globalIdArgs';

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      globalIdArgs: GlobalIdArgsPlugin<Types>;
    }
  }
}

type ArgConfigs = Record<string, { extensions?: Readonly<Record<string, unknown>> | null }>;

/** The argument names and the one type each must name, read from plugin-relay's arg extensions. */
function checksOf(args: ArgConfigs): { name: string; typename: string }[] {
  return Object.entries(args).flatMap(([name, arg]) => {
    const forTypes: unknown = arg.extensions?.relayGlobalIDFor;
    if (!Array.isArray(forTypes) || forTypes.length !== 1) return [];
    const typename: unknown = forTypes[0]?.typename;
    return typeof typename === 'string' ? [{ name, typename }] : [];
  });
}

/** Arguments that take the id of any node (node's id, nodes' ids): plugin-relay marks them to be parsed always, for no type. */
function anyNodeArgsOf(args: ArgConfigs): string[] {
  return Object.entries(args)
    .filter(([, arg]) => arg.extensions?.relayGlobalIDAlwaysParse === true && arg.extensions?.relayGlobalIDFor == null)
    .map(([name]) => name);
}

const nodeTypeNames = new WeakMap<GraphQLSchema, string[]>();

/** The object types implementing Node, sorted: what a node id may name. */
function nodeTypes(schema: GraphQLSchema): string[] {
  let names = nodeTypeNames.get(schema);
  if (!names) {
    const node = schema.getType('Node');
    names = isInterfaceType(node)
      ? schema
          .getPossibleTypes(node)
          .map((t) => t.name)
          .sort()
      : [];
    nodeTypeNames.set(schema, names);
  }
  return names;
}

function checkAnyNodeId(value: unknown, field: string, info: { schema: GraphQLSchema }): void {
  if (value == null) return;
  let typename: string;
  try {
    typename = decodeGlobalId(String(value)).typename;
  } catch {
    throw ValidationError.of(field, 'global_id', `"${String(value).slice(0, 64)}" is not a valid global id`);
  }
  const known = nodeTypes(info.schema);
  if (!known.includes(typename)) {
    throw ValidationError.of(
      field,
      'global_id',
      `expected the id of a ${known.join(' or a ')}, got the id of a ${typename.slice(0, 64)}, which Atelier does not have`,
    );
  }
}

export class GlobalIdArgsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    const checks = checksOf(fieldConfig.args);
    const anyNode = anyNodeArgsOf(fieldConfig.args);
    if (checks.length === 0 && anyNode.length === 0) return fieldConfig;
    const check = (args: Record<string, unknown>, _ctx: Types['Context'], info: { schema: GraphQLSchema }) => {
      for (const { name, typename } of checks) {
        const value = args[name];
        if (value != null) parseGlobalIdOf(typename, String(value), name);
      }
      for (const name of anyNode) {
        const value = args[name];
        if (Array.isArray(value)) value.forEach((v, i) => checkAnyNodeId(v, `${name}.${i}`, info));
        else checkAnyNodeId(value, name, info);
      }
      return args;
    };
    // First of the mappers, whichever plugin added its own before: relay's replaces the id with { typename, id }.
    return { ...fieldConfig, argMappers: [check, ...fieldConfig.argMappers] };
  }
}

SchemaBuilder.registerPlugin(pluginName, GlobalIdArgsPlugin);

export default pluginName;
