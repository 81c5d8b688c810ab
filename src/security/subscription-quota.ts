// Live subscriptions per API key (per client address when open), over graphql-ws and SSE together:
// each one holds a buffer and a share of every event's work, so one client must not open thousands.
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

import { rateLimitSubject } from '../auth/viewer';
import type { Context } from '../context';
import { limitError } from './limit-error';

/** An iterator that calls `release` once, however it ends (done, return, throw or an error). */
export function onEnd<T>(source: AsyncIterable<T>, release: () => void): AsyncIterableIterator<T> {
  const inner = source[Symbol.asyncIterator]();
  let released = false;
  const end = () => {
    if (released) return;
    released = true;
    release();
  };
  const iterator: AsyncIterableIterator<T> = {
    next: () =>
      inner.next().then(
        (r) => {
          if (r.done) end();
          return r;
        },
        (err: unknown) => {
          end();
          throw err;
        },
      ),
    return: (value?: unknown) => {
      end();
      return inner.return ? inner.return(value) : Promise.resolve({ value: undefined, done: true });
    },
    throw: (err?: unknown) => {
      end();
      return inner.throw ? inner.throw(err) : Promise.reject(err);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

export function useSubscriptionQuota(maxPerKey: number): Plugin<Context> {
  const live = new Map<string, number>();
  const release = (subject: string) => {
    const n = (live.get(subject) ?? 1) - 1;
    if (n > 0) live.set(subject, n);
    else live.delete(subject);
  };
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const subject = rateLimitSubject(args.contextValue.viewer);
      const count = live.get(subject) ?? 0;
      if (count >= maxPerKey) {
        const who = subject.startsWith('key:') ? 'per API key' : 'per client address';
        setResultAndStopExecution({
          errors: [
            limitError(
              'maxSubscriptionsPerKey',
              `${count} live subscriptions ${who} reach the limit of ${maxPerKey}; end one first`,
              { max: maxPerKey, found: count + 1 },
            ),
          ],
        });
        return;
      }
      // Reserved now, so concurrent subscribes cannot all pass the check.
      live.set(subject, count + 1);
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) setResult(onEnd(result, () => release(subject)));
          else release(subject);
        },
      };
    },
  };
}
