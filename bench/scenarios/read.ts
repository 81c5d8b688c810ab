// Read: the dashboard's own queries (web/src/queries.ts) under 50 concurrent clients, in requests per
// second: its runs list (RUNS_SEARCH as the runs page sends it, a page of 50 with names, tags, groups
// and reward summaries) and a run's page (RUN, status
// history, inputs and the history downsampled to 500 points). The runs list is compared with
// Atelier's own `{ __typename }` (what any request costs) and with a minimal graphql-yoga server
// answering the same list from raw prepared statements on the same file; a bare graphql-yoga "hello"
// server gives the scale. The load comes from autocannon in a process of its own, the same for all.
import { MAX_POINTS, PAGE_SIZE, RUN, RUNS_SEARCH } from '../../web/src/queries';
import { buildRunsDatabase } from '../lib/datasets';
import { createRun, graphqlClient, type GraphQLClient } from '../lib/http';
import { fmt, median, now, pairedRatio, spread } from '../lib/stats';
import type { Scenario } from '../lib/types';
import { startWorker } from '../lib/worker';
import type { LoadResult } from '../lib/workers/load';

const CONNECTIONS = 50;
/** A run's page is opened by one person at a time, not fifty: a few at once. */
const RUN_PAGE_CONNECTIONS = 4;
const SECONDS = 4;
const WARMUP_SECONDS = 2;
const ROUNDS = 5;
/** Runs list / `{ __typename }` on the same server. */
const FLOOR_TARGET = 0.25;
/** Runs list / the raw-SQL yoga answering the same list. */
const RAW_TARGET = 0.6;
const HISTORY_POINTS = 2000;
const NAMES = ['list', 'list1', 'runPage', 'floor', 'raw', 'bare'] as const;
type Name = (typeof NAMES)[number];

const HELLO = '{ hello }';
const TYPENAME = '{ __typename }';
const RECORD_METRICS = `mutation($runId: ID!, $points: [MetricPointInput!]!) { recordMetrics(runId: $runId, points: $points) { __typename ... on Error { message } } }`;
const TRANSITION = `mutation($runId: ID!, $to: TrainingStatus!) { transitionRun(runId: $runId, to: $to) { __typename ... on Error { message } } }`;

/** The path of the first place two answers differ (key order included), with both values; null when the same. */
function firstDifference(a: unknown, b: unknown, path = 'data'): string | null {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.join() !== kb.join()) return `${path}: keys ${ka.join(',')} vs ${kb.join(',')}`;
    for (const k of ka) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? null : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/** A TRACKED run in TRAINING with a history of HISTORY_POINTS steps (loss and grad_norm), recorded through the API. */
async function runWithHistory(client: GraphQLClient): Promise<string> {
  const run = await createRun(client, 'read-bench');
  for (const to of ['GENERATING', 'COLLECTING', 'SCORING', 'TRAINING']) {
    const r = await client.query(TRANSITION, { runId: run.id, to });
    if (r.transitionRun.__typename !== 'TransitionRunPayload') throw new Error(JSON.stringify(r));
  }
  for (let from = 0; from < HISTORY_POINTS; from += 500) {
    const points = Array.from({ length: 500 }, (_, i) => ({
      step: from + i,
      epoch: Math.floor((from + i) / 1000),
      trainingLoss: 1 / (1 + from + i),
      values: [{ name: 'grad_norm', value: 0.5 + ((from + i) % 7) / 10 }],
    }));
    const r = await client.query(RECORD_METRICS, { runId: run.id, points });
    if (r.recordMetrics.__typename !== 'RecordMetricsPayload') throw new Error(JSON.stringify(r));
  }
  return run.id;
}

export const scenario: Scenario = {
  name: 'read',
  order: 3,
  title: 'Read',
  measures: `requests/s of the dashboard's own queries (web/src/queries.ts: the runs list as the runs page asks for it, ${PAGE_SIZE} runs a page with names, tags, groups and reward summaries, and a run's page) under ${CONNECTIONS} concurrent clients, against Atelier's \`{ __typename }\` on the same server and a minimal graphql-yoga server answering the same runs list over raw prepared statements (no ORM)`,
  async run(ctx) {
    const data = await buildRunsDatabase(ctx.tempDir, {
      runs: 1000,
      perRun: 16,
      messageBytes: 200,
      name: 'read.sqlite',
      labels: true,
    });
    const atelier = await startWorker('atelier-server');
    const raw = await startWorker('raw-yoga');
    const bare = await startWorker('bare-yoga');
    const load = await startWorker('load');
    const drain = new Map<string, GraphQLClient>();
    try {
      const atelierUrl = (await atelier.call<{ url: string }>('start', { databasePath: data.path })).url;
      const setup = graphqlClient(atelierUrl);
      const runId = await runWithHistory(setup);
      // The runs page's variables with nothing searched: newest first (web/src/runs-page.tsx).
      const listVariables = (first: number) => ({
        filter: {},
        orderBy: { field: 'CREATED_AT', direction: 'DESC' },
        first,
        after: null,
      });
      const listBody = JSON.stringify({ query: RUNS_SEARCH, variables: listVariables(PAGE_SIZE) });
      const targets: Record<Name, { url: string; body: string }> = {
        list: { url: atelierUrl, body: listBody },
        /** Not a target: the same list of one run, to split a request's cost into its own and each run's. */
        list1: { url: atelierUrl, body: JSON.stringify({ query: RUNS_SEARCH, variables: listVariables(1) }) },
        runPage: {
          url: atelierUrl,
          body: JSON.stringify({ query: RUN, variables: { id: runId, maxPoints: MAX_POINTS } }),
        },
        floor: { url: atelierUrl, body: JSON.stringify({ query: TYPENAME }) },
        raw: { url: (await raw.call<{ url: string }>('start', { databasePath: data.path })).url, body: listBody },
        bare: { url: (await bare.call<{ url: string }>('start')).url, body: JSON.stringify({ query: HELLO }) },
      };
      // Each answers what it should before it is loaded.
      const list = await setup.query(RUNS_SEARCH, listVariables(PAGE_SIZE));
      const listBytes = (await setup.post(listBody)).length;
      if (list.runs.edges.length !== PAGE_SIZE || list.runs.totalCount !== data.runs + 1)
        throw new Error(`unexpected runs list: ${JSON.stringify(list).slice(0, 300)}`);
      const page = await setup.query(RUN, { id: runId, maxPoints: MAX_POINTS });
      const pageBytes = (await setup.post(targets.runPage.body)).length;
      if (page.run.metricHistory.length !== MAX_POINTS || page.run.statusHistory.length !== 5)
        throw new Error(`unexpected run page: ${JSON.stringify(page).slice(0, 300)}`);
      setup.close();
      // The baseline must give the very same answer, or it would not be doing the same work.
      const rawClient = graphqlClient(targets.raw.url);
      const rawAnswer = await rawClient.post(targets.raw.body);
      rawClient.close();
      const difference = firstDifference(JSON.parse(rawAnswer).data, list);
      if (difference) throw new Error(`the raw baseline answers differently at ${difference}`);
      const helloClient = graphqlClient(targets.bare.url);
      const hello = await helloClient.post(targets.bare.body);
      helloClient.close();
      if (JSON.parse(hello).data?.hello !== 'world') throw new Error(`unexpected hello: ${hello}`);

      // The load generator stops sending when its time is up, but the server still answers what its 50
      // connections had in flight (a slow query's backlog: seconds of work for the run page): the next
      // target must not be measured while it does. Settled once `{ __typename }` answers at once.
      const settled = async (url: string) => {
        const client = graphqlClient(url);
        try {
          for (let i = 0; i < 200; i++) {
            const t0 = now();
            await client.post(JSON.stringify({ query: TYPENAME }));
            if (now() - t0 < 20) return;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        } finally {
          client.close();
        }
      };
      const shoot = async (name: Name, seconds: number) => {
        const r = await load.call<LoadResult>(
          'run',
          { url: `${targets[name].url}/graphql`, body: targets[name].body, connections: CONNECTIONS, seconds },
          (seconds + 30) * 1000,
        );
        if (r.non2xx || r.errors || r.timeouts)
          throw new Error(
            `${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts under load`,
          );
        await settled(targets[name].url);
        return r;
      };
      for (const name of NAMES) await shoot(name, WARMUP_SECONDS);
      const runs = Object.fromEntries(NAMES.map((n) => [n, [] as LoadResult[]])) as Record<Name, LoadResult[]>;
      for (let round = 0; round < ROUNDS; round++) {
        // Rotate which goes first, so drift on a noisy machine does not favour one side.
        for (let k = 0; k < NAMES.length; k++) {
          const name = NAMES[(k + round) % NAMES.length];
          runs[name].push(await shoot(name, SECONDS));
        }
        ctx.log(
          `round ${round + 1}: ${NAMES.map((n) => `${n} ${fmt(runs[n][round].requestsPerSecond)} req/s`).join(', ')}`,
        );
      }
      // The list's statements alone, back to back in the raw server's process (the machine otherwise idle).
      const statementsMs = (await raw.call<{ ms: number }>('statementsMs', { first: PAGE_SIZE, times: 1000 }, 120_000))
        .ms;
      const rps = (name: Name) => runs[name].map((r) => r.requestsPerSecond);
      const p50 = (name: Name) => median(runs[name].map((r) => r.latencyP50));
      const ms = (name: Name) => 1000 / median(rps(name));
      const floorRatio = pairedRatio(rps('list'), rps('floor'));
      const rawRatio = pairedRatio(rps('list'), rps('raw'));
      const perRunUs = ((ms('list') - ms('list1')) / (PAGE_SIZE - 1)) * 1000;
      const rawPerRequest = ms('raw') - ms('bare');
      // What the list would be if a request cost only `{ __typename }` and the statements: the SQL's bound.
      const sqlBound = ms('floor') / (ms('floor') + statementsMs);
      const reqs = (name: Name) =>
        `${fmt(median(rps(name)))} req/s (p25–p75 ${spread(rps(name), 0)}), median latency ${fmt(p50(name))} ms`;
      const notes = [
        `Load: autocannon in its own process, ${CONNECTIONS} connections (${RUN_PAGE_CONNECTIONS} for the run page, which one person opens at a time), no pipelining, ${ROUNDS} rounds of ${SECONDS} s per target after ${WARMUP_SECONDS} s of warm-up each, the targets taking turns (the first rotating each round); every answer was 2xx with no errors. Each server runs alone in its own process; with the load generator on the other core, 1 / (requests per second) is about the server's time per request.`,
        `The queries are the dashboard's own, imported from web/src/queries.ts: RUNS_SEARCH with the runs page's variables when nothing is searched (newest first, first: ${PAGE_SIZE}: totalCount, pageInfo with both cursors, and per run id databaseId projectName modelName mode status currentStep totalSteps createdAt, its metrics, name, tags, group and its train/reward and val/reward summaries), and RUN with maxPoints: ${MAX_POINTS} for a TRACKED run with ${HISTORY_POINTS.toLocaleString('en-US')} history points (loss and grad_norm) recorded through recordMetrics, its 5 status transitions and no inputs. The run page is reported without a target: the history is the subject of the \`dashboard\` scenario.`,
        `The baseline is a minimal graphql-yoga server (yoga's defaults, no plugins) with a schema of just the fields the list asks for, answering from five better-sqlite3 statements prepared once on the same file (the page of the 16 columns the answer needs, newest first, the count, and the page's tags, summaries and activity): it makes the same global ids, enums, totalSteps, metrics, ISO dates and cursors, and its answer was checked to be the very same as Atelier's. What Atelier does on top is its own: HTTP body limits, authentication, the security plugins (document limits, cost, rate limit, response size), Pothos's resolver wrappers, error masking, its service and repository layers.`,
        `Data: ${data.runs.toLocaleString('en-US')} runs in varied statuses (most finished ones PIPELINE runs with their own settings, so totalSteps is computed from them), each with a name, a group, two tags and train/reward and val/reward summaries, with their metrics and status history, in Atelier's row layout, and the run with the history. Atelier reads, for the list, only the columns its selection needs (runs.graphql.ts, graphql/selection.ts) and a count.`,
        `"Each run of the list" is (time per request of the 50-run list − that of the same list of 1 run) / 49: the list's cost per run, apart from what a request costs whatever it lists.`,
      ];
      if (floorRatio < FLOOR_TARGET || rawRatio < RAW_TARGET) {
        notes.push(
          `**Why the target is missed:** a request costs Atelier about ${fmt(ms('floor'), 2)} ms whatever it asks (\`{ __typename }\`), the list of one run ${fmt(ms('list1'), 2)} ms, and each further run ${fmt(perRunUs, 1)} µs, so ${PAGE_SIZE} runs take ${fmt(ms('list'), 2)} ms. The list's five statements alone take ${fmt(statementsMs, 2)} ms (most of it better-sqlite3 making a JavaScript value of each column of each row they return), so even a server that spent nothing but \`{ __typename }\`'s cost and the statements would be at ${fmt(sqlBound)}× \`{ __typename }\`. The edges are written straight to JSON from a plan cached per document (src/runs/runs-list-plan.ts, no graphql-js field execution); what remains on top of the statements is turning rows into runs (metrics and config JSON parsed), the loaders, writing about ${fmt(listBytes / 1024, 0)} KB of JSON, and the rest of the operation through yoga and graphql-js. The raw baseline spends ${fmt(rawPerRequest, 2)} ms on the list over the bare server's request. (\`BENCH_CPU_PROF=<dir> npm run bench -- read\` profiles where each run's time goes.)`,
        );
      }
      return {
        status: 'measured',
        figures: [
          { label: `Atelier, the dashboard's runs list (${PAGE_SIZE} runs)`, value: reqs('list') },
          { label: 'Atelier, the same list of 1 run', value: reqs('list1') },
          { label: 'Atelier, `{ __typename }`', value: reqs('floor') },
          { label: "Atelier, a run's page (RUN, history of 2,000 points downsampled to 500)", value: reqs('runPage') },
          { label: 'minimal graphql-yoga over raw prepared statements, the same runs list', value: reqs('raw') },
          { label: 'bare graphql-yoga, `{ hello }`', value: reqs('bare') },
          { label: 'each run of the list (see below)', value: `${fmt(perRunUs, 1)} µs` },
          {
            label: "the list's statements alone (page, count, tags, summaries, activity), in-process",
            value: `${fmt(statementsMs, 2)} ms`,
          },
          {
            label: 'run page / `{ __typename }` (no target)',
            value: `${fmt(pairedRatio(rps('runPage'), rps('floor')))}×`,
          },
          {
            label: 'Atelier `{ __typename }` / bare `{ hello }`',
            value: `${fmt(pairedRatio(rps('floor'), rps('bare')))}×`,
          },
          { label: 'raw runs list / bare `{ hello }`', value: `${fmt(pairedRatio(rps('raw'), rps('bare')))}×` },
          {
            label: 'answer size',
            value: `${fmt(listBytes / 1024, 1)} KB (runs list), ${fmt(pageBytes / 1024, 1)} KB (run page)`,
          },
        ],
        checks: [
          {
            name: "Atelier's runs list / Atelier's `{ __typename }`, requests per second",
            value: floorRatio,
            target: `≥ ${FLOOR_TARGET}×`,
            pass: floorRatio >= FLOOR_TARGET,
          },
          {
            name: 'Atelier / raw-SQL yoga, runs list requests per second',
            value: rawRatio,
            target: `≥ ${RAW_TARGET}×`,
            pass: rawRatio >= RAW_TARGET,
          },
        ],
        notes,
      };
    } finally {
      for (const c of drain.values()) c.close();
      await Promise.all([atelier.stop(), raw.stop(), bare.stop(), load.stop()]);
    }
  },
};
