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

/** Checks a value of one input type, its path the keys down to it (joined only for an issue). */
type Check = (value: unknown, keys: Array<string | number>, issues: ValidationIssue[]) => void;

/**
 * The check of values of this type, built once per schema: it visits only what can hold a String or
 * ID, where reading the type at each value (graphql's isListType and kin, costly outside
 * NODE_ENV=production) cost as much as the check. Null when nothing in the type can hold text.
 * Issues come in the order, with the paths, of a walk of the value in its own key order.
 */
function compile(type: GraphQLInputType, objects: Map<string, Check>): Check | null {
  if (isNonNullType(type)) return compile(type.ofType, objects);
  if (!holdsText(type)) return null;
  if (isListType(type)) {
    const item = compile(type.ofType, objects)!;
    return (value, keys, issues) => {
      if (value == null || issues.length >= MAX_ISSUES) return;
      if (!Array.isArray(value)) return item(value, keys, issues);
      for (let i = 0; i < value.length; i++) {
        keys.push(i);
        item(value[i], keys, issues);
        keys.pop();
      }
    };
  }
  if (isInputObjectType(type)) {
    const known = objects.get(type.name);
    if (known) return known;
    const fields = new Map<string, Check>();
    const check: Check = (value, keys, issues) => {
      if (value == null || issues.length >= MAX_ISSUES || typeof value !== 'object') return;
      for (const name of Object.keys(value)) {
        const field = fields.get(name);
        if (!field) continue;
        keys.push(name);
        field((value as Record<string, unknown>)[name], keys, issues);
        keys.pop();
      }
    };
    objects.set(type.name, check);
    for (const f of Object.values(type.getFields())) {
      const c = compile(f.type, objects);
      if (c) fields.set(f.name, c);
    }
    return check;
  }
  // String or ID.
  return (value, keys, issues) => {
    if (value == null || issues.length >= MAX_ISSUES) return;
    if (typeof value === 'string' && value.includes('\u0000'))
      issues.push({ field: keys.join('.'), rule: 'no_nul', message: NO_NUL_MESSAGE });
  };
}

type ArgChecks = Array<{ name: string; check: Check }>;

export class NoNulArgsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (Object.keys(fieldConfig.args).length === 0) return fieldConfig;
    const { parentType, name: fieldName } = fieldConfig;
    // The argument types as built, read once per schema from the schema itself.
    const argChecks = new WeakMap<GraphQLSchema, ArgChecks>();
    const checksIn = (schema: GraphQLSchema): ArgChecks => {
      let checks = argChecks.get(schema);
      if (!checks) {
        const owner = schema.getType(parentType);
        const field = owner && 'getFields' in owner ? owner.getFields()[fieldName] : undefined;
        const args = field && 'args' in field ? field.args : [];
        const objects = new Map<string, Check>();
        checks = args.flatMap((a) => {
          const check = compile(a.type, objects);
          return check ? [{ name: a.name, check }] : [];
        });
        argChecks.set(schema, checks);
      }
      return checks;
    };
    const check = (args: Record<string, unknown>, _ctx: Types['Context'], info: { schema: GraphQLSchema }) => {
      const issues: ValidationIssue[] = [];
      for (const { name, check } of checksIn(info.schema)) check(args[name], [name], issues);
      if (issues.length > 0) throw new ValidationError(issues);
      return args;
    };
    // First of the mappers: nothing (zod, relay's id decoding) reads an argument before this check.
    return { ...fieldConfig, argMappers: [check, ...fieldConfig.argMappers] };
  }
}

SchemaBuilder.registerPlugin(pluginName, NoNulArgsPlugin);

export default pluginName;
