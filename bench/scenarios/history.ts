// History: metricHistory(maxPoints: 500) of a 10,000-step run (the run page's chart data, the
// dashboard's point selection) through GraphQL over HTTP, against the bucketing statements alone —
// Atelier's own MetricsRepo.count and .bucketed, run in the benchmark process on the same database,
// without HTTP, GraphQL or the service — on SQLite and on PostgreSQL, request by request in turn.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import { openDatabase, type Database } from '../../src/db/data-source';
import { MetricsRepo } from '../../src/metrics/metrics.repo';
import { MAX_POINTS, POINT } from '../../web/src/queries';
import { createRun, graphqlClient, type GraphQLClient } from '../lib/http';
import { fmt, median, now, pairedRatio, spread } from '../lib/stats';
import type { Figure, RatioCheck, Scenario } from '../lib/types';
import { startWorker } from '../lib/worker';

const STEPS = 10_000;
const PER_CALL = 500;
const ROUNDS = 40;
const WARMUP = 5;
/** Atelier's metricHistory request / the bucketing statements alone. */
const TARGET = 3;

const HISTORY = `query($id: ID!, $maxPoints: Int!) { run(id: $id) { metricHistory(maxPoints: $maxPoints) { ${POINT} } } }`;
const RECORD_METRICS = `mutation($runId: ID!, $points: [MetricPointInput!]!) { recordMetrics(runId: $runId, points: $points) { __typename ... on Error { message } } }`;
const TRANSITION = `mutation($runId: ID!, $to: TrainingStatus!) { transitionRun(runId: $runId, to: $to) { __typename ... on Error { message } } }`;

function postgresBase(): string | undefined {
  return (process.env.ATELIER_BENCH_POSTGRES_URL ?? process.env.ATELIER_TEST_POSTGRES_URL)?.trim() || undefined;
}

/** A TRACKED run with STEPS history points (loss, two named values), recorded through the API. */
async function runWithHistory(client: GraphQLClient): Promise<{ id: string; databaseId: number }> {
  const run = await createRun(client, 'history-bench');
  for (const to of ['GENERATING', 'COLLECTING', 'SCORING', 'TRAINING']) {
    const r = await client.query(TRANSITION, { runId: run.id, to });
    if (r.transitionRun.__typename !== 'TransitionRunPayload') throw new Error(JSON.stringify(r));
  }
  for (let from = 0; from < STEPS; from += PER_CALL) {
    const points = Array.from({ length: PER_CALL }, (_, i) => ({
      step: from + i,
      epoch: Math.floor((from + i) / 1000),
      trainingLoss: 1 / (1 + from + i),
      values: [
        { name: 'grad_norm', value: 0.5 + ((from + i) % 7) / 10 },
        { name: 'train/reward', value: ((from + i) % 100) / 100 },
      ],
    }));
    const r = await client.query(RECORD_METRICS, { runId: run.id, points });
    if (r.recordMetrics.__typename !== 'RecordMetricsPayload') throw new Error(JSON.stringify(r));
  }
  return run;
}

export interface Measured {
  label: string;
  atelier: number[];
  sql: number[];
  bytes: number;
}

/**
 * Records a STEPS-step run through `client` and times metricHistory(maxPoints) over HTTP against the
 * bucketing statements alone on `db` (the same database), the two taking turns request by request.
 * Used by this scenario and by `scale` (on its 1,000,000-trajectory PostgreSQL database).
 */
export async function measureHistory(
  label: string,
  client: GraphQLClient,
  db: Database,
  log: (m: string) => void,
): Promise<Measured> {
  return timeHistory(label, client, db, await runWithHistory(client), log);
}

/**
 * Times metricHistory(maxPoints: MAX_POINTS) of an existing run (the run page's point selection) over
 * HTTP against Atelier's own count and bucketing statements on `db`, taking turns request by request.
 * The dashboard scenario times its run page's history with it.
 */
export async function timeHistory(
  label: string,
  client: GraphQLClient,
  db: Database,
  run: { id: string; databaseId: number },
  log: (m: string) => void,
  rounds = ROUNDS,
): Promise<Measured> {
  const repo = new MetricsRepo(db.reader, db.kind);
  const body = JSON.stringify({ query: HISTORY, variables: { id: run.id, maxPoints: MAX_POINTS } });
  const answer = await client.post(body);
  const points = JSON.parse(answer).data?.run?.metricHistory;
  if (!Array.isArray(points) || points.length !== MAX_POINTS)
    throw new Error(`unexpected metricHistory: ${answer.slice(0, 300)}`);
  const sqlOnce = async () => {
    const n = await repo.count(run.databaseId, 'train');
    const buckets = await repo.bucketed(run.databaseId, 'train', null, Math.ceil(n / MAX_POINTS));
    if (buckets.length !== MAX_POINTS) throw new Error(`the bucketing SQL gave ${buckets.length} buckets`);
  };
  const atelier: number[] = [];
  const sql: number[] = [];
  for (let round = 0; round < WARMUP + rounds; round++) {
    const order = round % 2 ? ['sql', 'atelier'] : ['atelier', 'sql'];
    for (const side of order) {
      const t0 = now();
      if (side === 'atelier') await client.post(body);
      else await sqlOnce();
      if (round >= WARMUP) (side === 'atelier' ? atelier : sql).push(now() - t0);
    }
  }
  log(`${label}: Atelier ${fmt(median(atelier))} ms, the bucketing SQL ${fmt(median(sql))} ms`);
  return { label, atelier, sql, bytes: Buffer.byteLength(answer) };
}

async function measure(
  label: string,
  start: { databasePath?: string; databaseUrl?: string },
  open: () => Promise<Database>,
  log: (m: string) => void,
): Promise<Measured> {
  const server = await startWorker('atelier-server');
  let db: Database | null = null;
  try {
    const { url } = await server.call<{ url: string }>('start', start);
    const client = graphqlClient(url);
    db = await open();
    const measured = await measureHistory(label, client, db, log);
    client.close();
    return measured;
  } finally {
    await db?.close();
    await server.stop();
  }
}

/** The figure, check and (when missed) reason of one measured database. */
export function historyResult(r: Measured): { figures: Figure[]; check: RatioCheck; miss: string | null } {
  const ratio = pairedRatio(r.atelier, r.sql);
  return {
    figures: [
      {
        label: `${r.label}: metricHistory(maxPoints: ${MAX_POINTS}) over HTTP`,
        value: `${fmt(median(r.atelier))} ms (p25–p75 ${spread(r.atelier)}), ${fmt(r.bytes / 1024, 1)} KB`,
      },
      {
        label: `${r.label}: the bucketing statements alone`,
        value: `${fmt(median(r.sql))} ms (p25–p75 ${spread(r.sql)})`,
      },
    ],
    check: {
      name: `${r.label}: metricHistory(maxPoints: ${MAX_POINTS}) of ${STEPS.toLocaleString('en-US')} steps / the bucketing SQL`,
      value: ratio,
      target: `≤ ${TARGET}×`,
      pass: ratio <= TARGET,
    },
    miss:
      ratio > TARGET
        ? `**Why the ${r.label} target is missed:** Atelier took ${fmt(median(r.atelier))} ms a request against ${fmt(median(r.sql))} ms for the statements alone in the same rounds: ${fmt(median(r.atelier) - median(r.sql))} ms went to HTTP, GraphQL and building the ${fmt(r.bytes / 1024, 1)} KB answer.`
        : null,
  };
}

export const scenario: Scenario = {
  name: 'history',
  order: 7,
  title: 'Metric history',
  measures: `milliseconds per metricHistory(maxPoints: ${MAX_POINTS}) of a ${STEPS.toLocaleString('en-US')}-step run through GraphQL over HTTP, against the bucketing statements alone (Atelier's MetricsRepo count and bucketed, in process), on SQLite and on PostgreSQL`,
  async run(ctx) {
    const results: Measured[] = [];
    const path = join(ctx.tempDir, 'history.sqlite');
    results.push(
      await measure('SQLite', { databasePath: path }, () => openDatabase({ kind: 'sqlite', path }), ctx.log),
    );
    const base = postgresBase();
    let dropped: (() => Promise<void>) | null = null;
    if (base) {
      const name = `atelier_bench_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      dropped = async () => {
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
        await admin.end();
      };
      const url = new URL(base);
      url.pathname = `/${name}`;
      try {
        results.push(
          await measure(
            'PostgreSQL',
            { databaseUrl: url.toString() },
            () => openDatabase({ kind: 'postgres', url: url.toString() }),
            ctx.log,
          ),
        );
      } finally {
        await dropped();
      }
    }
    const figures: Figure[] = [];
    const checks: RatioCheck[] = [];
    const notes: string[] = [
      `A TRACKED run with ${STEPS.toLocaleString('en-US')} train points (loss and two named values, grad_norm and train/reward), recorded through recordMetrics. Atelier answers the run page's point selection (web/src/queries.ts POINT: every series with its bucket's count, min and max) over HTTP from its own process, compiled as \`npm start\` runs it; the SQL side is the statements Atelier's service issues for it (a count, then the two bucketing statements: the points' buckets with their core columns' min and max and their last point, then the named values' min, max and last value per bucket), run through Atelier's own MetricsRepo on a connection of the benchmark process, so its time is the database's plus the rows' mapping, without HTTP, GraphQL, the service or the answer. ${ROUNDS} rounds after ${WARMUP} of warm-up, the two taking turns request by request; the ratio is the median of per-round ratios.`,
    ];
    for (const r of results) {
      const one = historyResult(r);
      figures.push(...one.figures);
      checks.push(one.check);
      if (one.miss) notes.push(one.miss);
    }
    notes.push(
      `The machine's load average was ${fmt(loadavg()[0], 1)} (1 min) at the end of the run, on 2 cores shared with other work: the absolute times move with it, the ratios much less.`,
    );
    if (!base)
      notes.push(
        'PostgreSQL was not measured: set ATELIER_BENCH_POSTGRES_URL (or ATELIER_TEST_POSTGRES_URL) to run its half.',
      );
    return { status: 'measured', figures, checks, notes };
  },
};
