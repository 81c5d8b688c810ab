// Mutation results are unions of a payload and typed errors (directResult). expectResult asserts
// which member came back and narrows to it, so a test reads the fields it expects without casts.
import { expect } from 'vitest';

/** Fails the test, showing the whole result, unless its __typename is `typename`; returns it narrowed. */
export function expectResult<T extends { __typename: string }, N extends T['__typename']>(
  result: T,
  typename: N,
): Extract<T, { __typename: N }> {
  expect(result?.__typename, `expected a ${typename}, got ${JSON.stringify(result)}`).toBe(typename);
  return result as Extract<T, { __typename: N }>;
}
