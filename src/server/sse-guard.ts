// SSE responses get the same bound as WebSockets (outbound-guard.ts): yoga stops pulling events while
// a response's socket does not drain, and would then hold the response open for ever. One whose
// unsent output passes the byte bound, or does not drain in time, is cut off and its subscription ended.
// (Idle SSE responses already get keepalive comments, `:\n\n`, from yoga every 12 s.)
import { ServerResponse } from 'node:http';

import { isAsyncIterable, type Plugin } from 'graphql-yoga';

import type { LimitsConfig } from '../config';
import type { Logger } from '../logger';
import { onEnd } from '../security/subscription-quota';
import { guardOutbound } from './outbound-guard';

/** The Node response behind an HTTP (SSE) subscription; graphql-ws operations have none. */
function responseOf(context: unknown): ServerResponse | null {
  const res = typeof context === 'object' && context !== null && 'res' in context ? context.res : null;
  return res instanceof ServerResponse ? res : null;
}

export function useSseOutboundGuard(limits: LimitsConfig, logger: Logger): Plugin {
  return {
    onSubscribe({ args }) {
      const res = responseOf(args.contextValue);
      if (!res) return;
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result)) return;
          const iterator = onEnd(result, () => guard.stop());
          const guard = guardOutbound(
            {
              pending: () => res.writableLength,
              cut: (reason) => {
                logger.warn(
                  `closed an SSE subscription from ${res.req?.socket?.remoteAddress ?? 'an unknown address'}: ${reason}`,
                );
                res.destroy();
                void iterator.return?.();
              },
            },
            limits,
          );
          res.once('close', () => guard.stop());
          const checked: typeof iterator = {
            // The event is written once yoga has it: check the bound just after.
            next: () => iterator.next().finally(() => setImmediate(guard.check)),
            return: (value?: unknown) => iterator.return!(value),
            throw: (err?: unknown) => iterator.throw!(err),
            [Symbol.asyncIterator]: () => checked,
          };
          setResult(checked);
        },
      };
    },
  };
}
