// Where a resolver reserves, before it reads a list from storage, a lower bound of the bytes the list
// will add to the answer. The budget itself (MAX_RESPONSE_BYTES) lives in security/response-size.ts,
// which registers each operation's; resolvers below it only ask.
import type { GraphQLError } from 'graphql';

type Reserve = (bytes: number) => GraphQLError | null;

const budgets = new WeakMap<object, Reserve>();

/** Registers an operation's budget, by its context value. */
export function setAnswerBudget(context: object, reserve: Reserve): void {
  budgets.set(context, reserve);
}

export function clearAnswerBudget(context: object): void {
  budgets.delete(context);
}

/** Reserves `bytes` of the operation's answer: the limit's error to throw when that is past it, else null. */
export function reserveAnswerBytes(context: unknown, bytes: number): GraphQLError | null {
  const reserve = typeof context === 'object' && context !== null ? budgets.get(context) : undefined;
  return reserve ? reserve(bytes) : null;
}
