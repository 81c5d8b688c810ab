// Live subscriptions and graphql-ws sockets, by the API key that opened them, so that revoking a
// key ends them: each subscription receives a final UNAUTHENTICATED error, then the key's sockets
// close with 4401. Revocations made elsewhere (the keys command, another instance) are picked up by
// a periodic check of the keys that have live sessions.
import { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

import type { Context } from '../context';

/** graphql-ws close code for a revoked key: the client does not retry with the same key. */
export const REVOKED_CLOSE_CODE = 4401;
export const REVOKED_CLOSE_REASON = 'Unauthorized: API key revoked';

export interface ClosableSocket {
  close(code: number, reason: string): void;
}

interface Live {
  /** Ends the subscription with the error; resolves once its consumer has taken it (or gave up). */
  end(error: GraphQLError): Promise<void>;
}

export function revokedError(keyName: string): GraphQLError {
  return new GraphQLError(`subscription closed: the API key "${keyName}" was revoked`, {
    extensions: { code: 'UNAUTHENTICATED', reason: 'API_KEY_REVOKED' },
  });
}

export class LiveSessions {
  private readonly subscriptions = new Map<string, Set<Live>>();
  private readonly sockets = new Map<string, Set<ClosableSocket>>();
  private readonly names = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;

  /** Wraps a subscription's event stream so that revoking the key ends it. */
  track<T>(keyId: string, keyName: string, source: AsyncIterable<T>): AsyncIterableIterator<T> {
    this.names.set(keyId, keyName);
    const inner = source[Symbol.asyncIterator]();
    let set = this.subscriptions.get(keyId);
    if (!set) this.subscriptions.set(keyId, (set = new Set()));
    const subs = set;

    let finished = false;
    let pendingError: GraphQLError | null = null;
    let interrupt: ((error: GraphQLError) => void) | null = null;
    let taken: () => void = () => {};
    const tookError = new Promise<void>((resolve) => (taken = resolve));

    const finish = () => {
      if (finished) return;
      finished = true;
      subs.delete(live);
      if (subs.size === 0 && this.subscriptions.get(keyId) === subs) this.subscriptions.delete(keyId);
      void Promise.resolve(inner.return?.()).catch(() => undefined);
    };
    const fail = (error: GraphQLError): Promise<IteratorResult<T>> => {
      finish();
      taken();
      return Promise.reject(error);
    };
    const live: Live = {
      end(error) {
        if (finished) return Promise.resolve();
        if (interrupt) interrupt(error);
        else pendingError = error;
        return tookError;
      },
    };
    subs.add(live);

    const iterator: AsyncIterableIterator<T> = {
      next() {
        if (pendingError) return fail(pendingError);
        if (finished) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<T>>((resolve, reject) => {
          interrupt = (error) => {
            interrupt = null;
            fail(error).catch(reject);
          };
          inner.next().then(
            (r) => {
              if (!interrupt) return;
              interrupt = null;
              if (r.done) finish();
              resolve(r);
            },
            (err) => {
              if (!interrupt) return;
              interrupt = null;
              finish();
              reject(err);
            },
          );
        });
      },
      return() {
        finish();
        taken();
        return Promise.resolve({ value: undefined, done: true });
      },
      throw(err) {
        finish();
        taken();
        return Promise.reject(err);
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  /** Remembers a graphql-ws socket authenticated with the key; returns the function that forgets it. */
  trackSocket(keyId: string, keyName: string, socket: ClosableSocket): () => void {
    this.names.set(keyId, keyName);
    let set = this.sockets.get(keyId);
    if (!set) this.sockets.set(keyId, (set = new Set()));
    set.add(socket);
    return () => {
      const current = this.sockets.get(keyId);
      current?.delete(socket);
      if (current?.size === 0) this.sockets.delete(keyId);
    };
  }

  /** Keys with a live subscription or socket. */
  keyIds(): string[] {
    return [...new Set([...this.subscriptions.keys(), ...this.sockets.keys()])];
  }

  count(keyId?: string): number {
    if (keyId) return this.subscriptions.get(keyId)?.size ?? 0;
    let n = 0;
    for (const set of this.subscriptions.values()) n += set.size;
    return n;
  }

  /** Ends everything the key opened: subscriptions first (each gets the error), then its sockets. */
  async revoke(keyId: string): Promise<void> {
    const name = this.names.get(keyId) ?? keyId;
    const subs = [...(this.subscriptions.get(keyId) ?? [])];
    this.subscriptions.delete(keyId);
    const error = revokedError(name);
    // A consumer that never reads again (a stalled client) must not hold the sockets open.
    await Promise.race([Promise.all(subs.map((s) => s.end(error))), new Promise((r) => setTimeout(r, 1000).unref())]);
    // Let the transports write the errors before the close frame follows them.
    await new Promise((r) => setImmediate(r));
    for (const socket of this.sockets.get(keyId) ?? []) {
      try {
        socket.close(REVOKED_CLOSE_CODE, REVOKED_CLOSE_REASON);
      } catch {
        // already closed
      }
    }
    this.sockets.delete(keyId);
    this.names.delete(keyId);
  }

  /** Checks every intervalMs whether keys with live sessions were revoked elsewhere. */
  watch(
    invalidAmong: (keyIds: string[]) => Promise<string[]>,
    intervalMs: number,
    onError: (err: unknown) => void,
  ): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const ids = this.keyIds();
      if (ids.length === 0) return;
      invalidAmong(ids).then((invalid) => invalid.forEach((id) => void this.revoke(id)), onError);
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** Puts every subscription opened with an API key under the key's live sessions. */
export function useLiveSessions(sessions: LiveSessions): Plugin<Context> {
  return {
    onSubscribe({ args }) {
      const viewer = args.contextValue.viewer;
      if (viewer.kind !== 'key') return;
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) setResult(sessions.track(viewer.key.keyId, viewer.key.name, result));
        },
      };
    },
  };
}
