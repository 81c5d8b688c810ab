// Bounds what a connection may leave unsent. A WebSocket or SSE client that stops reading makes the
// server buffer everything sent to it; past MAX_SOCKET_BUFFER_BYTES, or when the buffer has not
// shrunk for SOCKET_DRAIN_TIMEOUT_SECONDS, the connection is cut off so its memory is freed.
import type { LimitsConfig } from '../config';

export interface Outbound {
  /** Bytes written but not yet handed to the kernel. */
  pending(): number;
  /** Ends the connection; called at most once, with the reason. */
  cut(reason: string): void;
}

export interface OutboundGuard {
  /** Checks the byte bound now (call after each write). */
  check(): void;
  stop(): void;
}

export function guardOutbound(
  outbound: Outbound,
  limits: Pick<LimitsConfig, 'maxSocketBufferBytes' | 'socketDrainTimeoutMs'>,
): OutboundGuard {
  let done = false;
  let last = 0;
  let stuckSince: number | null = null;
  const cut = (reason: string) => {
    if (done) return;
    done = true;
    clearInterval(timer);
    outbound.cut(reason);
  };
  const check = () => {
    if (done) return;
    const pending = outbound.pending();
    if (pending > limits.maxSocketBufferBytes) {
      cut(
        `${pending} bytes unsent exceed MAX_SOCKET_BUFFER_BYTES (${limits.maxSocketBufferBytes}): the client is not reading`,
      );
    }
  };
  // Stalled: output pending that has not shrunk for the whole timeout (shrinking at all counts as draining).
  const timer = setInterval(
    () => {
      check();
      if (done) return;
      const pending = outbound.pending();
      const now = Date.now();
      if (pending === 0 || pending < last) stuckSince = null;
      else if (stuckSince === null) stuckSince = now;
      else if (now - stuckSince >= limits.socketDrainTimeoutMs) {
        cut(
          `${pending} bytes unsent for ${Math.round((now - stuckSince) / 1000)} s (SOCKET_DRAIN_TIMEOUT_SECONDS ${limits.socketDrainTimeoutMs / 1000}): the client is not reading`,
        );
      }
      last = pending;
    },
    Math.max(50, Math.min(1000, limits.socketDrainTimeoutMs / 4)),
  );
  timer.unref();
  return {
    check,
    stop() {
      done = true;
      clearInterval(timer);
    },
  };
}
