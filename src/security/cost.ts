// The estimated cost of an operation, from its selections and its arguments' actual values: every
// field costs 1, and a list multiplies what is selected inside it by its expected length — the
// page size (first/last, else the default page) for a connection's edges, maxPoints where given,
// the number of ids for nodes(ids:), otherwise LIST_FACTOR. So `runs(first: 100) { edges { node { trajectories(first: 100) … } } }`
// costs about 100 × 100 × what each trajectory selects, and is refused before it runs.
import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  isAbstractType,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

import { DEFAULT_PAGE_SIZE } from '../graphql/pagination';
import { limitError } from './limit-error';

export const LIST_FACTOR = 10;

/**
 * The expected length of a list field outside a connection: maxPoints where given; for a field
 * answering one item per element of a list argument (`nodes(ids:)`), that list's length; otherwise
 * LIST_FACTOR.
 */
function listLength(args: Record<string, unknown>): number {
  if (typeof args.maxPoints === 'number') return args.maxPoints;
  const lists = Object.values(args).filter(Array.isArray);
  return lists.length ? Math.max(...lists.map((l) => l.length)) : LIST_FACTOR;
}

function isConnection(type: GraphQLNamedType): boolean {
  return isObjectType(type) && type.name.endsWith('Connection') && 'edges' in type.getFields();
}

export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const root = schema.getRootType(operation.operation);
  if (!root) return 0;

  const fieldsOf = (type: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined =>
    isAbstractType(type)
      ? (('getFields' in type ? type.getFields() : {}) as Record<string, GraphQLField<unknown, unknown>>)[name]
      : type.getFields()[name];

  const argsOf = (
    field: GraphQLField<unknown, unknown>,
    node: Parameters<typeof getArgumentValues>[1],
  ): Record<string, unknown> => {
    try {
      return getArgumentValues(field, node, variables as Record<string, unknown>);
    } catch {
      return {};
    }
  };

  const costOf = (
    set: SelectionSetNode,
    parent: GraphQLCompositeType,
    pageSize: number | null,
    depth: number,
  ): number => {
    if (depth > 200) return Infinity;
    let total = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const on = sel.typeCondition
          ? (schema.getType(sel.typeCondition.name.value) as GraphQLCompositeType | undefined)
          : parent;
        total += on ? costOf(sel.selectionSet, on, pageSize, depth + 1) : 0;
        continue;
      }
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(sel.name.value);
        const on = fragment && (schema.getType(fragment.typeCondition.name.value) as GraphQLCompositeType | undefined);
        total += fragment && on ? costOf(fragment.selectionSet, on, pageSize, depth + 1) : 0;
        continue;
      }
      const name = sel.name.value;
      if (name.startsWith('__')) {
        total += name === '__typename' ? 0 : 1;
        continue;
      }
      const field = fieldsOf(parent, name);
      if (!field) continue;
      const args = argsOf(field, sel);
      const named = getNamedType(field.type);
      const list = isListType(getNullableType(field.type));
      let multiplier = 1;
      if (list) multiplier = pageSize ?? listLength(args);
      const childPage = isConnection(named)
        ? typeof args.first === 'number'
          ? args.first
          : typeof args.last === 'number'
            ? args.last
            : DEFAULT_PAGE_SIZE
        : null;
      const inner = sel.selectionSet
        ? costOf(sel.selectionSet, named as GraphQLCompositeType, childPage, depth + 1)
        : 0;
      total += 1 + Math.max(0, multiplier) * inner;
    }
    return total;
  };

  return costOf(operation.selectionSet, root, null, 0);
}

/** Refuses, before execution, an operation whose estimated cost is over the limit. */
export function useCostLimit(maxCost: number): Plugin {
  const check = (args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    operationName?: string | null;
    variableValues?: Record<string, unknown> | null;
  }) => {
    const operation = getOperationAST(args.document, args.operationName ?? undefined);
    if (!operation) return null;
    const cost = estimateCost(args.schema, args.document, operation, args.variableValues ?? {});
    if (cost <= maxCost) return null;
    const found = Number.isFinite(cost) ? Math.round(cost) : undefined;
    return limitError(
      'maxCost',
      `estimated cost ${found ?? 'too high to count'} exceeds the limit of ${maxCost}; ask for smaller pages or fewer nested lists`,
      { max: maxCost, found },
    );
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = check(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = check(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
