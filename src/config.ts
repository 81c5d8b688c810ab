// Every setting Atelier reads from the environment, parsed once; defaults work on a fresh machine.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

import { z } from 'zod';

import { WANDB_TRAINING_URL } from './backends/serverless';

const onOff = z
  .enum(['on', 'off', 'true', 'false', '1', '0'])
  .transform((v) => v === 'on' || v === 'true' || v === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).default('sqlite:./data/atelier.sqlite'),
  /** SQLite: how long a write waits for the file's lock while another process (`npm run keys`) holds it. */
  SQLITE_BUSY_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  REDIS_URL: z.string().url().optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,64}$/)
    .default('atelier'),
  SUBSCRIPTION_BUFFER: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  ART_BACKEND_URL: z.string().url().optional(),
  ART_BACKENDS: z.string().optional(),
  /** W&B's key for `serverless` backends: sent only as their bearer token, never logged or stored. */
  WANDB_API_KEY: z.string().min(1).optional(),
  WANDB_BASE_URL: z.string().url().optional(),
  WANDB_ENTITY: z.string().min(1).optional(),
  /** The bearer token of `worker` backends (the worker's own ATELIER_WORKER_TOKEN). */
  ATELIER_WORKER_TOKEN: z.string().min(1).optional(),
  LEASE_TTL_SECONDS: z.coerce.number().positive().max(3600).default(30),
  INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  GENERATOR_MODEL: z.string().min(1).optional(),
  JUDGE_MODEL: z.string().min(1).optional(),
  MAX_CONCURRENT_RUNS: z.coerce.number().int().min(1).max(64).default(1),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(120),
  PREPARE_TIMEOUT_SECONDS: z.coerce.number().positive().max(7200).default(600),
  STALL_TIMEOUT_SECONDS: z.coerce.number().positive().max(86_400).default(900),
  RETRY_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  RETRY_BASE_MS: z.coerce.number().int().min(1).max(60_000).default(500),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  NODE_ENV: z.string().default('development'),
  /** Set by `npm run demo`: the provider and the ART backend are simulators; the UI, API and logs say SIMULATED. */
  ATELIER_SIMULATED: onOff.default(false),

  // ---- security: who may do what, and what a request may cost (docs/SECURITY.md) ----
  /** auto: open only on loopback while no API key was ever made; required: always keys; open: never keys. */
  AUTH: z.enum(['auto', 'required', 'open']).default('auto'),
  /** A key's lastUsedAt is written at most this often (a write per request would make every read a write). */
  API_KEY_LAST_USED_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  RATE_LIMIT_MUTATIONS_PER_SECOND: z.coerce.number().positive().max(1_000_000).default(50),
  RATE_LIMIT_MUTATION_BURST: z.coerce.number().int().min(1).max(1_000_000).default(500),
  /** Large bodies are read and parsed on the event loop, delaying everyone (docs/SECURITY.md has the figures). */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  MAX_QUERY_DEPTH: z.coerce.number().int().min(1).max(1000).default(12),
  MAX_QUERY_ALIASES: z.coerce.number().int().min(0).max(10_000).default(15),
  MAX_QUERY_TOKENS: z.coerce.number().int().min(10).max(1_000_000).default(5000),
  MAX_QUERY_DIRECTIVES: z.coerce.number().int().min(0).max(10_000).default(50),
  MAX_QUERY_COST: z.coerce.number().int().min(1).max(100_000_000).default(200_000),
  /** Brackets nested in the query text (literals, selections, arguments), checked before parsing. */
  MAX_QUERY_NESTING: z.coerce.number().int().min(8).max(10_000).default(100),
  /** Bytes of strings and JSON one query or mutation may return (checked while resolving). */
  MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(32 * 1024 * 1024),
  MAX_SUBSCRIPTIONS_PER_CONNECTION: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Live subscriptions per API key (per client address when open), over graphql-ws and SSE together. */
  MAX_SUBSCRIPTIONS_PER_KEY: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Output a WebSocket or SSE connection may leave unsent before it is cut off. */
  MAX_SOCKET_BUFFER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(8 * 1024 * 1024),
  /** A WebSocket or SSE connection whose pending output does not drain for this long is cut off. */
  SOCKET_DRAIN_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(30),
  /** graphql-sse single connection mode: streams one key (one address when open) may hold reserved, opened or not. */
  MAX_SSE_RESERVATIONS_PER_KEY: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Operations a reserved stream accepts before it is opened (their results wait for it, under MAX_SOCKET_BUFFER_BYTES). */
  MAX_SSE_RESERVATION_OPERATIONS: z.coerce.number().int().min(1).max(100_000).default(100),
  /** A reserved stream not opened within this long is dropped, with everything queued for it. */
  SSE_RESERVATION_TTL_SECONDS: z.coerce.number().positive().max(3600).default(60),
  GRAPHIQL: onOff.optional(),
  INTROSPECTION: onOff.optional(),
  /** Comma-separated origins allowed to call from a browser, or *; unset: none in production, loopback pages otherwise. */
  CORS_ORIGINS: z.string().optional(),
});

export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** Where the pipeline reaches the outside world, and how patiently. */
export interface ArtBackendConfig {
  name: string;
  url: string;
  /** art-run (default): ART's legacy `art run` server; worker: an Atelier worker; serverless: W&B's Training API. */
  kind?: 'art-run' | 'worker' | 'serverless';
  /** Overrides the inference base URL the backend reports (a proxy in front of vLLM); not read from the environment. */
  inferenceUrl?: string;
  /** Serverless: between polls of a training job's events (default 1000 ms, as ART). */
  pollMs?: number;
}

export interface PipelineConfig {
  /** Named ART backends, one GPU machine each; runs default to the first. */
  artBackends: ArtBackendConfig[];
  /** WANDB_API_KEY, for serverless backends. Never logged, stored or returned. */
  wandbApiKey?: string;
  wandbEntity?: string;
  /** ATELIER_WORKER_TOKEN, for worker backends. Never logged, stored or returned. */
  workerToken?: string;
  openaiBaseUrl?: string;
  /** Never logged, stored or returned. */
  openaiApiKey?: string;
  generatorModel?: string;
  judgeModel?: string;
  /** Pipeline runs that execute at once; the rest wait in PENDING, first come first served. */
  maxConcurrentRuns: number;
  requestTimeoutMs: number;
  /** /_prepare_backend_for_training starts vLLM: ART's own client allows 600 s. */
  prepareTimeoutMs: number;
  /** A stage with no progress for this long fails the run (a hung backend or provider). */
  stallTimeoutMs: number;
  retryAttempts: number;
  retryBaseMs: number;
  /** How long a claim on a run lasts unless renewed; another instance takes the run over after it expires. */
  leaseTtlMs: number;
  /** Names this process in leases. */
  instanceId: string;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** SQLite: how long a write waits for the lock another process holds before it fails. */
  sqliteBusyTimeoutMs: number;
  redisUrl?: string;
  /** Namespaces Atelier's Redis channels, so deployments sharing a Redis stay apart. */
  redisPrefix: string;
  /** Events a subscriber may fall behind before it is cut off. */
  subscriptionBuffer: number;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  production: boolean;
  /** The provider and ART backend are simulators (`npm run demo`): labelled SIMULATED everywhere. */
  simulated: boolean;
  pipeline: PipelineConfig;
  auth: AuthConfig;
  limits: LimitsConfig;
  rateLimit: RateLimitConfig;
  http: HttpExposureConfig;
}

export type AuthMode = 'auto' | 'required' | 'open';

export interface AuthConfig {
  mode: AuthMode;
  /** last_used_at is written at most this often per key (API_KEY_LAST_USED_INTERVAL_SECONDS). */
  lastUsedWriteIntervalMs: number;
  /** How often live subscriptions re-check that their key is still valid (revoked by the CLI or another instance). */
  revocationCheckMs: number;
}

export interface LimitsConfig {
  maxBodyBytes: number;
  maxDepth: number;
  maxAliases: number;
  maxTokens: number;
  maxDirectives: number;
  maxCost: number;
  maxNesting: number;
  maxResponseBytes: number;
  maxSubscriptionsPerConnection: number;
  maxSubscriptionsPerKey: number;
  /** Unsent output a WebSocket or SSE connection may hold before it is cut off. */
  maxSocketBufferBytes: number;
  /** How long a connection's pending output may go without draining before it is cut off. */
  socketDrainTimeoutMs: number;
  /** Single connection SSE streams reserved (opened or not) per key, per address when open. */
  maxSseReservationsPerKey: number;
  /** Operations a reserved stream accepts before it is opened. */
  maxSseReservationOperations: number;
  /** How long a reserved stream may wait to be opened. */
  sseReservationTtlMs: number;
}

export interface RateLimitConfig {
  /** Token bucket on mutations, per API key (per client address when running open). */
  mutationsPerSecond: number;
  burst: number;
}

export interface HttpExposureConfig {
  graphiql: boolean;
  introspection: boolean;
  /** Origins allowed by CORS: a list, '*', or 'loopback' (pages served from localhost only). Empty: none. */
  corsOrigins: string[] | '*' | 'loopback';
}

/** `sqlite:<path>` or a bare path means SQLite; `postgres://` / `postgresql://` means PostgreSQL. */
export function parseDatabaseUrl(url: string): DatabaseConfig {
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  const path = url.replace(/^sqlite:(\/\/)?/, '');
  if (!path) throw new Error('DATABASE_URL: an SQLite URL needs a file path, e.g. sqlite:./data/atelier.sqlite');
  return { kind: 'sqlite', path };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const backends = parseBackends(e.ART_BACKENDS, e.ART_BACKEND_URL, e.WANDB_BASE_URL);
  const serverless = backends.find((b) => b.kind === 'serverless');
  if (serverless && !e.WANDB_API_KEY)
    throw new Error(
      `Invalid configuration:\n  WANDB_API_KEY: the serverless backend ${serverless.name} needs a W&B API key`,
    );
  const production = e.NODE_ENV === 'production';
  return {
    port: e.PORT,
    host: e.HOST,
    database: parseDatabaseUrl(e.DATABASE_URL),
    sqliteBusyTimeoutMs: e.SQLITE_BUSY_TIMEOUT_SECONDS * 1000,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    subscriptionBuffer: e.SUBSCRIPTION_BUFFER,
    logLevel: e.LOG_LEVEL,
    production,
    simulated: e.ATELIER_SIMULATED,
    pipeline: {
      artBackends: backends,
      wandbApiKey: e.WANDB_API_KEY,
      wandbEntity: e.WANDB_ENTITY,
      workerToken: e.ATELIER_WORKER_TOKEN,
      openaiBaseUrl: e.OPENAI_BASE_URL,
      openaiApiKey: e.OPENAI_API_KEY,
      generatorModel: e.GENERATOR_MODEL,
      judgeModel: e.JUDGE_MODEL,
      maxConcurrentRuns: e.MAX_CONCURRENT_RUNS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      prepareTimeoutMs: e.PREPARE_TIMEOUT_SECONDS * 1000,
      stallTimeoutMs: e.STALL_TIMEOUT_SECONDS * 1000,
      retryAttempts: e.RETRY_ATTEMPTS,
      retryBaseMs: e.RETRY_BASE_MS,
      leaseTtlMs: e.LEASE_TTL_SECONDS * 1000,
      instanceId: e.INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
    },
    auth: {
      mode: e.AUTH,
      lastUsedWriteIntervalMs: e.API_KEY_LAST_USED_INTERVAL_SECONDS * 1000,
      revocationCheckMs: 5_000,
    },
    limits: {
      maxBodyBytes: e.MAX_BODY_BYTES,
      maxDepth: e.MAX_QUERY_DEPTH,
      maxAliases: e.MAX_QUERY_ALIASES,
      maxTokens: e.MAX_QUERY_TOKENS,
      maxDirectives: e.MAX_QUERY_DIRECTIVES,
      maxCost: e.MAX_QUERY_COST,
      maxNesting: e.MAX_QUERY_NESTING,
      maxResponseBytes: e.MAX_RESPONSE_BYTES,
      maxSubscriptionsPerConnection: e.MAX_SUBSCRIPTIONS_PER_CONNECTION,
      maxSubscriptionsPerKey: e.MAX_SUBSCRIPTIONS_PER_KEY,
      maxSocketBufferBytes: e.MAX_SOCKET_BUFFER_BYTES,
      socketDrainTimeoutMs: e.SOCKET_DRAIN_TIMEOUT_SECONDS * 1000,
      maxSseReservationsPerKey: e.MAX_SSE_RESERVATIONS_PER_KEY,
      maxSseReservationOperations: e.MAX_SSE_RESERVATION_OPERATIONS,
      sseReservationTtlMs: e.SSE_RESERVATION_TTL_SECONDS * 1000,
    },
    rateLimit: { mutationsPerSecond: e.RATE_LIMIT_MUTATIONS_PER_SECOND, burst: e.RATE_LIMIT_MUTATION_BURST },
    http: {
      graphiql: e.GRAPHIQL ?? !production,
      introspection: e.INTROSPECTION ?? !production,
      corsOrigins: parseCorsOrigins(e.CORS_ORIGINS, production),
    },
  };
}

/**
 * ART_BACKENDS=gpu1=worker+http://gpu-box:7998,wandb=serverless,old=http://gpu2:7999 — a name, then the
 * kind and URL: `worker+<url>` an Atelier worker, `serverless` (or `serverless+<url>`) W&B's Training API
 * at WANDB_BASE_URL or its default, `<url>` or `art+<url>` a legacy `art run` server. ART_BACKEND_URL alone
 * is one legacy backend named "default".
 */
export function parseBackends(
  list: string | undefined,
  single: string | undefined,
  wandbBaseUrl?: string,
): ArtBackendConfig[] {
  const out: ArtBackendConfig[] = [];
  for (const entry of (list ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    const name = entry.slice(0, eq).trim();
    const target = entry.slice(eq + 1).trim();
    if (eq < 1 || !/^[A-Za-z0-9_-]{1,64}$/.test(name))
      throw new Error(`ART_BACKENDS: "${entry}" is not name=url (names: letters, digits, _ and -)`);
    const m = /^(worker|serverless|art)(?:\+(.*))?$/.exec(target);
    const kind = m ? (m[1] === 'art' ? 'art-run' : (m[1] as 'worker' | 'serverless')) : 'art-run';
    const url = m ? (m[2] ?? (kind === 'serverless' ? (wandbBaseUrl ?? WANDB_TRAINING_URL) : '')) : target;
    if (!z.string().url().safeParse(url).success)
      throw new Error(
        `ART_BACKENDS: the URL of ${name} is not a URL (${kind === 'worker' ? 'worker+http://gpu-box:7998' : 'http://gpu-box:7999'})`,
      );
    if (out.some((b) => b.name === name)) throw new Error(`ART_BACKENDS: ${name} is named twice`);
    out.push({ name, url, kind });
  }
  if (single && !out.some((b) => b.url === single)) out.unshift({ name: 'default', url: single, kind: 'art-run' });
  return out;
}

/** CORS_ORIGINS: `*`, or a comma-separated list of origins such as https://app.example.com. */
export function parseCorsOrigins(value: string | undefined, production: boolean): HttpExposureConfig['corsOrigins'] {
  if (value == null || value.trim() === '') return production ? [] : 'loopback';
  if (value.trim() === '*') return '*';
  const origins = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new Error(
        `Invalid configuration:\n  CORS_ORIGINS: "${origin}" is not an origin such as https://app.example.com`,
      );
    }
    if (url.origin !== origin.replace(/\/$/, ''))
      throw new Error(
        `Invalid configuration:\n  CORS_ORIGINS: "${origin}" must be an origin only (scheme, host and port)`,
      );
  }
  return origins.map((o) => o.replace(/\/$/, ''));
}

/** Setting groups that overrides merge into rather than replace. */
const GROUPS = ['auth', 'limits', 'rateLimit', 'http', 'pipeline'] as const;
type Group = (typeof GROUPS)[number];
export type ConfigOverrides = Partial<Omit<Config, Group>> & { [K in Group]?: Partial<Config[K]> };

/** A config for tests and embedding: the defaults (or those of `env`), overridden field by field (groups such as limits key by key). */
export function makeConfig(overrides: ConfigOverrides = {}, env: Record<string, string | undefined> = {}): Config {
  const base = loadConfig(env);
  const merged = { ...base, ...overrides } as Config;
  for (const group of GROUPS)
    (merged as unknown as Record<Group, unknown>)[group] = { ...base[group], ...overrides[group] };
  return merged;
}
