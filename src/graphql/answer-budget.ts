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
  queues.delete(context);
}

/** Measurements of one operation, one after another: each sees what the ones before reserved. */
const queues = new WeakMap<object, Promise<unknown>>();

/**
 * Measures what a list will add to the operation's answer (`measure`, e.g. a sum the database computes
 * without reading the rows out) and reserves it: the limit's error to throw when that is past the
 * budget, else null. Measurements of one operation run one at a time, and none runs once the budget
 * is spent, so aliased pages of one query stop being measured at the first that does not fit.
 * Operations without a budget (subscription events) measure nothing.
 */
export async function reserveMeasured(context: unknown, measure: () => Promise<number>): Promise<GraphQLError | null> {
  const reserve = typeof context === 'object' && context !== null ? budgets.get(context) : undefined;
  if (!reserve) return null;
  const key = context as object;
  const turn = (queues.get(key) ?? Promise.resolve()).then(async () => reserve(0) ?? reserve(await measure()));
  queues.set(
    key,
    turn.catch(() => null),
  );
  return turn;
}
