// Inputs and enums shared by several domains' fields: sort direction and numeric ranges.
import { builder } from './builder';

export const OrderDirectionEnum = builder.enumType('OrderDirection', { values: { ASC: { value: 'asc' }, DESC: { value: 'desc' } } as const });

export const FloatRangeInput = builder.inputType('FloatRange', {
  description: 'An inclusive range; either end may be left open.',
  fields: (t) => ({ min: t.float(), max: t.float() }),
  validate: [(r) => r.min == null || r.max == null || r.min <= r.max, { message: 'min must not be greater than max' }],
});
