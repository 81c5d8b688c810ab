// Which models are in a training call right now, on this instance. An evaluation on a backend that
// cannot serve inference while it trains that model (ART's LocalBackend puts vLLM to sleep for a
// training step: the worker, and the legacy `art run`) waits before each model call until the
// in-flight training call ends; on W&B serverless inference and training are separate, so it waits
// for nothing. Evaluations never make training wait.
import { AbortedError } from '../providers/http';

export class TrainingGate {
  private readonly training = new Map<string, number>();
  private readonly waiters = new Map<string, Array<() => void>>();

  private key(backend: string, model: string): string {
    return `${backend}\u0000${model}`;
  }

  /** Runs a training call of this model, marked in flight. */
  async during<T>(backend: string, model: string, fn: () => Promise<T>): Promise<T> {
    const k = this.key(backend, model);
    this.training.set(k, (this.training.get(k) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      const left = (this.training.get(k) ?? 1) - 1;
      if (left > 0) this.training.set(k, left);
      else {
        this.training.delete(k);
        for (const wake of this.waiters.get(k) ?? []) wake();
        this.waiters.delete(k);
      }
    }
  }

  busy(backend: string, model: string): boolean {
    return this.training.has(this.key(backend, model));
  }

  /** Resolves once no training call of this model is in flight here (at once when none is). */
  async idle(backend: string, model: string, signal?: AbortSignal): Promise<void> {
    const k = this.key(backend, model);
    while (this.training.has(k)) {
      if (signal?.aborted) throw new AbortedError(signal.reason);
      await new Promise<void>((resolve) => {
        const list = this.waiters.get(k) ?? [];
        list.push(resolve);
        this.waiters.set(k, list);
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    if (signal?.aborted) throw new AbortedError(signal.reason);
  }
}
