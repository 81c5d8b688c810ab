// Where a resolver reserves, before it reads a list from storage, a lower bound of the bytes the list
// will add to the answer. The budget itself (MAX_RESPONSE_BYTES) lives in security/response-size.ts,
// which registers each operation's; resolvers below it only ask.
import type { GraphQLError } from 'graphql';

export interface AnswerBudget {
  /** Reserves bytes: the limit's error once reservations pass the budget, else null. */
  reserve(bytes: number): GraphQLError | null;
  /** Counts bytes an answer holds that no resolver counted (a part serialized ahead, graphql/raw-json.ts). */
  charge(bytes: number): void;
  /** Bytes reservations may still take. */
  available(): number;
}

const budgets = new WeakMap<object, AnswerBudget>();

/** Registers an operation's budget, by its context value. */
export function setAnswerBudget(context: object, budget: AnswerBudget): void {
  budgets.set(context, budget);
}

export function clearAnswerBudget(context: object): void {
  budgets.delete(context);
  queues.delete(context);
}

/**
 * Counts what a part of the answer built without resolvers holds, as the resolvers of its fields
 * would have counted it; past the budget the whole answer becomes the limit's error, as it does
 * when a resolver passes it.
 */
export function chargeAnswer(context: unknown, bytes: number): void {
  if (typeof context === 'object' && context !== null) budgets.get(context)?.charge(bytes);
}

/** Measurements of one operation, one after another: each sees what the ones before reserved. */
const queues = new WeakMap<object, Promise<unknown>>();

/**
 * Measures what a list will add to the operation's answer (`measure`, e.g. a sum the database computes
 * without reading the rows out) and reserves it: the limit's error to throw when that is past the
 * budget, else null. Measurements of one operation run one at a time, and none runs once the budget
 * is spent, so aliased pages of one query stop being measured at the first that does not fit.
 * Operations without a budget (subscription events) measure nothing.
 *
 * `bound`, when given, is a cheaper upper bound of the measure (stored bytes, say): when even it fits,
 * the measure would too, and is not computed. The list then reserves nothing (0 is always a lower
 * bound): a later list of the operation is measured against less, and the answer is still counted as
 * it resolves.
 */
export async function reserveMeasured(
  context: unknown,
  measure: () => Promise<number>,
  bound?: () => Promise<number>,
): Promise<GraphQLError | null> {
  const budget = typeof context === 'object' && context !== null ? budgets.get(context) : undefined;
  if (!budget) return null;
  const key = context as object;
  const turn = (queues.get(key) ?? Promise.resolve()).then(async () => {
    const spent = budget.reserve(0);
    if (spent) return spent;
    if (bound && (await bound()) <= budget.available()) return null;
    return budget.reserve(await measure());
  });
  queues.set(
    key,
    turn.catch(() => null),
  );
  return turn;
}
