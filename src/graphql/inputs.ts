// Inputs and enums shared by several domains' fields: sort direction, numeric ranges, a run's mode.
import { z } from 'zod';

import { builder } from './builder';

export const OrderDirectionEnum = builder.enumType('OrderDirection', {
  values: { ASC: { value: 'asc' }, DESC: { value: 'desc' } } as const,
});

export const FloatRangeInput = builder.inputType('FloatRange', {
  description: 'An inclusive range; either end may be left open.',
  fields: (t) => ({ min: t.float(), max: t.float() }),
  validate: [(r) => r.min == null || r.max == null || r.min <= r.max, { message: 'min must not be greater than max' }],
});

/** RunMode's names and the values they stand for (runs/runs-list-plan.ts writes them too). */
export const RUN_MODE_VALUES = { PIPELINE: { value: 'pipeline' }, TRACKED: { value: 'tracked' } } as const;

export const RunModeEnum = builder.enumType('RunMode', {
  description:
    'PIPELINE: Atelier drives generation, rollouts, RULER scoring and training. TRACKED: a training script drives ART itself and reports into Atelier.',
  values: RUN_MODE_VALUES,
});

/** A split's name, as ART's `model.log(split=)` takes it: train, val, or any name. */
export const SPLIT_RULE = z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/, {
  message: 'must be 1–64 letters, digits, _ . -, starting with a letter, digit or _',
});
