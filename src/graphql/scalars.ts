// Custom scalars: DateTime (ISO-8601, UTC) and JSON (any JSON value; bounds are checked by the fields that take it).
import { GraphQLError, Kind, type ValueNode } from 'graphql';

import { builder } from './builder';

builder.scalarType('DateTime', {
  description: 'An ISO-8601 date-time, e.g. 2026-11-30T12:00:00.000Z.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => parseDateTime(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime: expected an ISO-8601 string');
    return parseDateTime(ast.value);
  },
});

function parseDateTime(value: unknown): Date {
  if (
    typeof value !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(value)
  ) {
    throw new GraphQLError('DateTime: expected an ISO-8601 string such as 2026-11-30T12:00:00Z');
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new GraphQLError(`DateTime: "${value}" is not a real date`);
  return date;
}

function literalToJson(ast: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literalToJson(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalToJson(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    default:
      throw new GraphQLError('JSON: unsupported literal');
  }
}

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalToJson(ast, variables),
});
