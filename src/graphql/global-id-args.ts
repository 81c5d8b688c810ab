// A Pothos plugin that checks relay globalID arguments (`t.arg.globalID({ for: SomeNode })`) before
// plugin-relay decodes them, so a malformed id, or the id of another type, is a ValidationError
// naming the argument ("runId: expected a TrainingRun id, got a Trajectory id") rather than relay's
// generic "ID: … is not of type".
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { parseGlobalIdOf } from './global-id';

const pluginName = 'globalIdArgs';

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      globalIdArgs: GlobalIdArgsPlugin<Types>;
    }
  }
}

/** The argument names and the one type each must name, read from plugin-relay's arg extensions. */
function checksOf(args: Record<string, { extensions?: Readonly<Record<string, unknown>> | null }>): { name: string; typename: string }[] {
  return Object.entries(args).flatMap(([name, arg]) => {
    const forTypes: unknown = arg.extensions?.relayGlobalIDFor;
    if (!Array.isArray(forTypes) || forTypes.length !== 1) return [];
    const typename: unknown = forTypes[0]?.typename;
    return typeof typename === 'string' ? [{ name, typename }] : [];
  });
}

export class GlobalIdArgsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    const checks = checksOf(fieldConfig.args);
    if (checks.length === 0) return fieldConfig;
    const check = (args: Record<string, unknown>) => {
      for (const { name, typename } of checks) {
        const value = args[name];
        if (value != null) parseGlobalIdOf(typename, String(value), name);
      }
      return args;
    };
    // First of the mappers, whichever plugin added its own before: relay's replaces the id with { typename, id }.
    return { ...fieldConfig, argMappers: [check, ...fieldConfig.argMappers] };
  }
}

SchemaBuilder.registerPlugin(pluginName, GlobalIdArgsPlugin);

export default pluginName;
