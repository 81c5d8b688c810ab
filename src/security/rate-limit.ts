// Per-key rate limits on mutations: a token bucket per API key (per client address when no key is
// used). A mutation over the limit is refused before it runs, with HTTP 429 and Retry-After — what
// W&B's and Langfuse's clients already back off on — or, over graphql-ws, the same error.
import { getOperationAST, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

import { rateLimitSubject } from '../auth/viewer';
import type { RateLimitConfig } from '../config';
import type { Context } from '../context';

interface Bucket {
  tokens: number;
  at: number;
}

export type Take = { ok: true } | { ok: false; retryAfterSeconds: number };

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
    private readonly maxSubjects = 10_000,
  ) {}

  take(subject: string): Take {
    const now = this.now();
    const bucket = this.buckets.get(subject) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    if (!this.buckets.has(subject)) this.remember(subject, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond)) };
  }

  get size(): number {
    return this.buckets.size;
  }

  /** Keeps memory bounded: a full bucket is the same as no bucket, so those go first, then the oldest. */
  private remember(subject: string, bucket: Bucket): void {
    if (this.buckets.size >= this.maxSubjects) {
      const now = this.now();
      for (const [key, b] of this.buckets) {
        if (b.tokens + ((now - b.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(key);
      }
      for (const key of this.buckets.keys()) {
        if (this.buckets.size < this.maxSubjects) break;
        this.buckets.delete(key);
      }
    }
    this.buckets.set(subject, bucket);
  }
}

export function rateLimitedError(config: RateLimitConfig, retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(
    `too many mutations: at most ${config.mutationsPerSecond} a second (bursts of ${config.burst}) per API key; retry after ${retryAfterSeconds} s ` +
      '(limit mutationRate, set by RATE_LIMIT_MUTATIONS_PER_SECOND and RATE_LIMIT_MUTATION_BURST)',
    {
      extensions: {
        code: 'RATE_LIMITED',
        limit: 'mutationRate',
        max: config.mutationsPerSecond,
        retryAfter: retryAfterSeconds,
        http: { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } },
      },
    },
  );
}

export function useMutationRateLimit(
  config: RateLimitConfig,
  buckets = new TokenBuckets(config.mutationsPerSecond, config.burst),
): Plugin<Context> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      if (operation?.operation !== 'mutation') return;
      const taken = buckets.take(rateLimitSubject(args.contextValue.viewer));
      if (!taken.ok) setResultAndStopExecution({ errors: [rateLimitedError(config, taken.retryAfterSeconds)] });
    },
  };
}
