// A Pothos plugin that refuses U+0000 (NUL) in every String and ID argument, at any depth of input
// objects and lists, before anything else reads the arguments. PostgreSQL cannot store NUL in text
// (nor take it as a query parameter) while SQLite can: refusing it here, for every field at once,
// makes the answer the same on both databases, a ValidationError naming each field with rule
// `no_nul`, instead of a masked failure on one of them. JSON values are left alone: they are stored
// as JSON text, where NUL is written as the escape \u0000.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import {
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';

import { ValidationError, type ValidationIssue } from '../errors';

const pluginName = 'noNulArgs';

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      noNulArgs: NoNulArgsPlugin<Types>;
    }
  }
}

/** Enough to say what is wrong without echoing a whole hostile batch back. */
const MAX_ISSUES = 50;
const TEXT_SCALARS = new Set(['String', 'ID']);
export const NO_NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

/** Whether a value of this type can hold a String or ID anywhere (input objects may be recursive). */
function holdsText(type: GraphQLInputType, seen = new Set<string>()): boolean {
  const named = getNamedType(type);
  if (isScalarType(named)) return TEXT_SCALARS.has(named.name);
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  seen.add(named.name);
  return Object.values(named.getFields()).some((f) => holdsText(f.type, seen));
}

function collect(value: unknown, type: GraphQLInputType, path: string, issues: ValidationIssue[]): void {
  if (value == null || issues.length >= MAX_ISSUES) return;
  if (isNonNullType(type)) return collect(value, type.ofType, path, issues);
  if (isListType(type)) {
    if (Array.isArray(value)) value.forEach((v, i) => collect(v, type.ofType, `${path}.${i}`, issues));
    else collect(value, type.ofType, path, issues);
    return;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object') return;
    const fields = type.getFields();
    for (const [name, v] of Object.entries(value)) {
      const field = fields[name];
      if (field) collect(v, field.type, `${path}.${name}`, issues);
    }
    return;
  }
  if (isScalarType(type) && TEXT_SCALARS.has(type.name) && typeof value === 'string' && value.includes('\u0000')) {
    issues.push({ field: path, rule: 'no_nul', message: NO_NUL_MESSAGE });
  }
}

type ArgTypes = Array<{ name: string; type: GraphQLInputType }>;

export class NoNulArgsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (Object.keys(fieldConfig.args).length === 0) return fieldConfig;
    const { parentType, name: fieldName } = fieldConfig;
    // The argument types as built, read once per schema from the schema itself.
    const argTypes = new WeakMap<GraphQLSchema, ArgTypes>();
    const typesIn = (schema: GraphQLSchema): ArgTypes => {
      let types = argTypes.get(schema);
      if (!types) {
        const owner = schema.getType(parentType);
        const field = owner && 'getFields' in owner ? owner.getFields()[fieldName] : undefined;
        const args = field && 'args' in field ? field.args : [];
        types = args.filter((a) => holdsText(a.type)).map((a) => ({ name: a.name, type: a.type }));
        argTypes.set(schema, types);
      }
      return types;
    };
    const check = (args: Record<string, unknown>, _ctx: Types['Context'], info: { schema: GraphQLSchema }) => {
      const issues: ValidationIssue[] = [];
      for (const { name, type } of typesIn(info.schema)) collect(args[name], type, name, issues);
      if (issues.length > 0) throw new ValidationError(issues);
      return args;
    };
    // First of the mappers: nothing (zod, relay's id decoding) reads an argument before this check.
    return { ...fieldConfig, argMappers: [check, ...fieldConfig.argMappers] };
  }
}

SchemaBuilder.registerPlugin(pluginName, NoNulArgsPlugin);

export default pluginName;
