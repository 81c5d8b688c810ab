// How large one answer may grow. The cost estimate counts fields, not bytes: 15 aliased pages of
// 150 KB trajectories passed it and built a 225 MB answer. So the strings and JSON values a query or
// mutation resolves are counted as they resolve; past maxResponseBytes every further field fails at
// once, and the whole result is replaced by one error naming the limit. Pages of large rows reserve a
// lower bound of what they will count before they are read (graphql/answer-budget.ts), so an answer
// over the limit is refused before its rows leave the database.
import {
  defaultFieldResolver,
  getNamedType,
  isObjectType,
  isScalarType,
  type GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

import { clearAnswerBudget, setAnswerBudget } from '../graphql/answer-budget';
import { limitError } from './limit-error';

interface Budget {
  used: number;
  /** Lower bounds of what pages not yet resolved will count, reserved before they are read. */
  reserved: number;
  max: number;
  exceeded: boolean;
}

/** Budgets of the operations executing now, by their context value. */
const budgets = new WeakMap<object, Budget>();
const WRAPPED = Symbol('response-size');
/** Scalars whose size does not depend on the data. */
const FIXED_SIZE = new Set(['Int', 'Float', 'Boolean', 'ID']);

const tooLarge = (budget: Budget) =>
  limitError(
    'maxResponseBytes',
    `the answer exceeds the limit of ${budget.max} bytes; ask for smaller pages or fewer fields`,
    { max: budget.max, found: Math.max(budget.used, budget.reserved) },
  );

function sizeOf(value: unknown): number {
  if (value == null) return 0;
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce((n: number, v: unknown) => n + sizeOf(v), 0);
  // A DateTime: its ISO-8601 text, without serializing it twice.
  if (value instanceof Date) return 24;
  if (typeof value === 'object') return JSON.stringify(value)?.length ?? 0;
  return 8;
}

function charge(budget: Budget, value: unknown): unknown {
  budget.used += sizeOf(value);
  if (budget.used > budget.max) {
    budget.exceeded = true;
    throw tooLarge(budget);
  }
  return value;
}

/**
 * A lower bound of what a list not yet read will count (computed by the database from stored sizes),
 * reserved before it is read (graphql/answer-budget.ts). Past the budget the answer is refused
 * without reading it; reservations never exceed what the answer would count, so nothing that would
 * fit is refused.
 */
function reserve(budget: Budget, bytes: number): GraphQLError | null {
  if (!budget.exceeded) {
    budget.reserved += bytes;
    if (budget.reserved <= budget.max) return null;
    budget.exceeded = true;
  }
  return tooLarge(budget);
}

/**
 * Wraps, once per schema, the resolvers of fields that return strings or JSON so they count against
 * the operation's budget (in place: the schema is built once per process, and the wrapper does
 * nothing for operations without a budget).
 */
export function countResponseBytes(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      if (!isScalarType(named) || FIXED_SIZE.has(named.name)) continue;
      const resolve: GraphQLFieldResolver<unknown, unknown> & { [WRAPPED]?: true } =
        field.resolve ?? defaultFieldResolver;
      if (resolve[WRAPPED]) continue;
      const counted: GraphQLFieldResolver<unknown, unknown> & { [WRAPPED]?: true } = (source, args, context, info) => {
        const budget = typeof context === 'object' && context !== null ? budgets.get(context) : undefined;
        if (!budget) return resolve(source, args, context, info);
        if (budget.exceeded) throw tooLarge(budget);
        const value = resolve(source, args, context, info);
        return value instanceof Promise ? value.then((v: unknown) => charge(budget, v)) : charge(budget, value);
      };
      counted[WRAPPED] = true;
      field.resolve = counted;
    }
  }
  return schema;
}

/** Gives each query and mutation a budget of maxResponseBytes, and answers only the limit's error once it is spent. */
export function useResponseSizeLimit(maxResponseBytes: number): Plugin {
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      if (typeof context !== 'object' || context === null) return;
      const budget: Budget = { used: 0, reserved: 0, max: maxResponseBytes, exceeded: false };
      budgets.set(context, budget);
      setAnswerBudget(context, {
        reserve: (bytes) => reserve(budget, bytes),
        charge: (bytes) => {
          budget.used += bytes;
          if (budget.used > budget.max) budget.exceeded = true;
        },
        available: () => (budget.exceeded ? 0 : budget.max - budget.reserved),
      });
      return {
        onExecuteDone({ result, setResult }) {
          budgets.delete(context);
          clearAnswerBudget(context);
          if (budget.exceeded && !(Symbol.asyncIterator in result)) setResult({ errors: [tooLarge(budget)] });
        },
      };
    },
  };
}
