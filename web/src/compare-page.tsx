// Compare: up to 20 runs side by side — any of their metrics, train and val, smoothed with W&B's
// exponential moving average (in the browser), on steps or wall time, linear or log; a summary
// table, a config diff that shows only what differs, and the best trajectory of one step of each
// run. The whole view lives in the URL (/compare?ids=…&m=…&smooth=…&x=…&log=1), so a link shares it.
// The runs come in one query and each split's histories in one more (nodes(ids:), downsampled by
// the server), however many runs are compared.
import { useEffect, useMemo, useState } from 'preact/hooks';

import { gql } from './api';
import { Chart } from './chart';
import { align, configDiff, ema, metricOf, pointValue, type XAxis } from './compare-data';
import { fmtReward, StatusBadge } from './format';
import {
  COMPARE_HISTORY,
  COMPARE_RUNS,
  COMPARE_TRAJECTORIES,
  MAX_COMPARED_RUNS,
  MAX_POINTS,
  RUNS_SEARCH,
  type ComparedPoint,
  type ComparedRun,
  type CompareHistoryData,
  type CompareRunsData,
  type CompareTrajectoriesData,
  type RunsSearchData,
} from './queries';
import { Link, navigate } from './router';

const COLORS = [
  '#2563eb',
  '#dc2626',
  '#16a34a',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#4b5563',
  '#65a30d',
  '#9333ea',
  '#0d9488',
  '#ea580c',
  '#be123c',
  '#1d4ed8',
  '#15803d',
  '#a16207',
  '#6d28d9',
  '#0e7490',
  '#c026d3',
  '#374151',
];
const DEFAULT_METRICS = ['train/reward', 'val/reward'];

export interface CompareState {
  ids: string[];
  metrics: string[];
  smooth: number;
  x: XAxis;
  log: boolean;
}

/** The view's state from the URL. */
export function compareStateOf(url: URL): CompareState {
  const list = (k: string) => (url.searchParams.get(k) ?? '').split(',').filter(Boolean);
  const smooth = Number(url.searchParams.get('smooth') ?? '0');
  return {
    ids: list('ids').slice(0, MAX_COMPARED_RUNS),
    metrics: list('m'),
    smooth: Number.isFinite(smooth) ? Math.min(Math.max(smooth, 0), 0.99) : 0,
    x: url.searchParams.get('x') === 'time' ? 'time' : 'step',
    log: url.searchParams.get('log') === '1',
  };
}

export function compareHref(s: CompareState): string {
  const q = new URLSearchParams();
  if (s.ids.length) q.set('ids', s.ids.join(','));
  if (s.metrics.length) q.set('m', s.metrics.join(','));
  if (s.smooth > 0) q.set('smooth', String(s.smooth));
  if (s.x !== 'step') q.set('x', s.x);
  if (s.log) q.set('log', '1');
  const text = q.toString().replace(/%2C/g, ',').replace(/%2F/g, '/');
  return text ? `/compare?${text}` : '/compare';
}

const runLabel = (r: ComparedRun) => `${r.name ?? `#${r.databaseId}`} (${r.projectName})`;

export function ComparePage({ url }: { url: URL }) {
  const state = compareStateOf(url);
  const [runs, setRuns] = useState<ComparedRun[] | null>(null);
  const [histories, setHistories] = useState<Record<string, Record<string, ComparedPoint[]>>>({});
  const [recent, setRecent] = useState<RunsSearchData['runs'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const idsKey = state.ids.join(',');
  const go = (patch: Partial<CompareState>, replace = false) => {
    const href = compareHref({ ...state, ...patch });
    if (replace) {
      history.replaceState(null, '', href);
      dispatchEvent(new PopStateEvent('popstate'));
    } else navigate(href);
  };

  useEffect(() => {
    let current = true;
    if (state.ids.length === 0) {
      setRuns([]);
      return;
    }
    gql<CompareRunsData>(COMPARE_RUNS, { ids: state.ids }).then(
      (d) => {
        if (!current) return;
        setRuns(d.nodes.filter((r): r is ComparedRun => r != null));
        setError(null);
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [idsKey]);

  useEffect(() => {
    gql<RunsSearchData>(RUNS_SEARCH, { first: 50 }).then(
      (d) => setRecent(d.runs),
      (e: Error) => setError(e.message),
    );
  }, []);

  const available = useMemo(
    () => [...new Set((runs ?? []).flatMap((r) => r.summary.map((m) => m.name)))].sort(),
    [runs],
  );
  const metrics = state.metrics.length
    ? state.metrics
    : DEFAULT_METRICS.filter((m) => available.includes(m)).concat(
        DEFAULT_METRICS.some((m) => available.includes(m)) ? [] : available.slice(0, 1),
      );
  const splits = [...new Set(metrics.map((m) => metricOf(m).split))];
  const splitsKey = `${idsKey}|${splits.join(',')}|${metrics.join(',')}`;

  useEffect(() => {
    let current = true;
    if (!runs || runs.length === 0 || metrics.length === 0) return;
    const ids = runs.map((r) => r.id);
    Promise.all(
      splits.map(async (split) => {
        const names = metrics.filter((m) => metricOf(m).split === split).flatMap((m) => [metricOf(m).name, m]);
        const d = await gql<CompareHistoryData>(COMPARE_HISTORY, { ids, split, names, maxPoints: MAX_POINTS });
        return [split, Object.fromEntries(d.nodes.filter((n) => n).map((n) => [n!.id, n!.metricHistory]))] as const;
      }),
    ).then(
      (entries) => current && setHistories(Object.fromEntries(entries)),
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [runs, splitsKey]);

  const toggleRun = (id: string) => {
    const ids = state.ids.includes(id)
      ? state.ids.filter((x) => x !== id)
      : state.ids.length >= MAX_COMPARED_RUNS
        ? state.ids
        : [...state.ids, id];
    go({ ids });
  };
  const toggleMetric = (m: string) =>
    go({ metrics: metrics.includes(m) ? metrics.filter((x) => x !== m) : [...metrics, m] });

  const diff = useMemo(() => (runs ? configDiff(runs) : []), [runs]);

  return (
    <section class="page">
      <p class="crumbs">
        <Link href="/">← All runs</Link>
      </p>
      <header class="page-head">
        <h1>Compare runs</h1>
        <span class="muted">up to {MAX_COMPARED_RUNS} runs; the address of this page keeps the view</span>
      </header>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}

      {runs && runs.length > 0 ? (
        <>
          <form class="compare-controls" aria-label="chart settings" onSubmit={(e) => e.preventDefault()}>
            <fieldset>
              <legend>Metrics</legend>
              {available.map((m) => (
                <label key={m} class={`chip ${metrics.includes(m) ? 'on' : ''}`}>
                  <input type="checkbox" checked={metrics.includes(m)} onChange={() => toggleMetric(m)} />
                  {m}
                </label>
              ))}
            </fieldset>
            <label>
              Smoothing{' '}
              <input
                type="range"
                name="smooth"
                min="0"
                max="0.99"
                step="0.01"
                value={state.smooth}
                onInput={(e) => go({ smooth: Number((e.target as HTMLInputElement).value) }, true)}
              />{' '}
              <output data-testid="smooth-value">{state.smooth.toFixed(2)}</output>
            </label>
            <label>
              x axis{' '}
              <select
                name="x"
                value={state.x}
                onChange={(e) => go({ x: (e.target as HTMLSelectElement).value as XAxis })}
              >
                <option value="step">step</option>
                <option value="time">wall time (s)</option>
              </select>
            </label>
            <label>
              <input type="checkbox" name="log" checked={state.log} onChange={() => go({ log: !state.log })} /> log
              scale
            </label>
          </form>

          <div class="charts" data-runs={runs.length}>
            {metrics.map((m) => (
              <MetricChart key={m} metric={m} runs={runs} histories={histories} state={state} />
            ))}
          </div>
          <p class="note muted">
            Smoothing is W&amp;B’s exponential moving average (debiased, as TensorBoard’s), computed in this page on the
            server’s downsampled points.
          </p>

          <h2>Summary</h2>
          <div class="table-wrap">
            <table class="runs" aria-label="summary of the compared runs">
              <thead>
                <tr>
                  <th scope="col">Run</th>
                  <th scope="col">Status</th>
                  {metrics.map((m) => (
                    <th scope="col" class="num" key={m}>
                      {m} last · min · max
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {runs.map((r, i) => (
                  <tr key={r.id} data-run-id={r.id}>
                    <td>
                      <span class="swatch" style={{ background: COLORS[i % COLORS.length] }} aria-hidden="true" />
                      <Link href={`/runs/${encodeURIComponent(r.id)}`}>{runLabel(r)}</Link>
                    </td>
                    <td>
                      <StatusBadge status={r.status} />
                    </td>
                    {metrics.map((m) => {
                      const s = r.summary.find((x) => x.name === m);
                      return (
                        <td class="num" key={m}>
                          {s ? `${fmtReward(s.last)} · ${fmtReward(s.min)} · ${fmtReward(s.max)}` : '–'}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <h2>Config: what differs</h2>
          {diff.length === 0 ? (
            <p class="muted" data-testid="config-diff-empty">
              These runs have the same settings and config.
            </p>
          ) : (
            <div class="table-wrap">
              <table class="runs config-diff" aria-label="config differences">
                <thead>
                  <tr>
                    <th scope="col">key</th>
                    {runs.map((r) => (
                      <th scope="col" key={r.id}>
                        {runLabel(r)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {diff.map((row) => (
                    <tr key={row.key} data-key={row.key}>
                      <th scope="row">
                        <code>{row.key}</code>
                      </th>
                      {row.values.map((v, i) => (
                        <td key={i}>{v}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}

          <SideBySide runs={runs} />
        </>
      ) : (
        <p class="muted">Pick two or more runs below.</p>
      )}

      <h2>Runs</h2>
      <div class="table-wrap">
        <table class="runs" aria-label="runs to compare">
          <thead>
            <tr>
              <th class="narrow" scope="col">
                <span class="visually-hidden">compare</span>
              </th>
              <th scope="col">Run</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Avg reward
              </th>
            </tr>
          </thead>
          <tbody>
            {(recent?.edges.map((e) => e.node) ?? []).map((run) => (
              <tr key={run.id} data-run-id={run.id}>
                <td class="narrow">
                  <input
                    type="checkbox"
                    aria-label={`compare ${run.name ?? `run #${run.databaseId}`}`}
                    checked={state.ids.includes(run.id)}
                    onChange={() => toggleRun(run.id)}
                  />
                </td>
                <td>
                  <Link href={`/runs/${encodeURIComponent(run.id)}`}>{run.name ?? `#${run.databaseId}`}</Link>{' '}
                  <span class="muted small">{run.projectName}</span>
                </td>
                <td>
                  <StatusBadge status={run.status} />
                </td>
                <td class="num">{fmtReward(run.metrics?.avgReward)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function MetricChart(props: {
  metric: string;
  runs: ComparedRun[];
  histories: Record<string, Record<string, ComparedPoint[]>>;
  state: CompareState;
}) {
  const { metric, runs, histories, state } = props;
  const { split, name } = metricOf(metric);
  const data = useMemo(() => {
    const perRun = runs.map((r) => {
      const points = histories[split]?.[r.id] ?? [];
      const raw = points.map((p) => pointValue(p, split, name));
      return { startedAt: r.startedAt ?? r.createdAt, points, ys: ema(raw, state.smooth) };
    });
    return align(perRun, state.x, state.log);
  }, [runs, histories, split, name, state.smooth, state.x, state.log]);
  return (
    <Chart
      label={`${metric} comparison`}
      yLabel={metric}
      xLabel={state.x === 'time' ? 'seconds since start' : 'step'}
      log={state.log}
      height={260}
      data={data}
      series={runs.map((r, i) => ({ label: runLabel(r), color: COLORS[i % COLORS.length] }))}
    />
  );
}

/** The best trajectory of one step of each run, next to each other. */
function SideBySide({ runs }: { runs: ComparedRun[] }) {
  const [step, setStep] = useState(0);
  const [split, setSplit] = useState('train');
  const [data, setData] = useState<CompareTrajectoriesData['nodes'] | null>(null);
  const key = runs.map((r) => r.id).join(',');
  useEffect(() => {
    let current = true;
    gql<CompareTrajectoriesData>(COMPARE_TRAJECTORIES, { ids: runs.map((r) => r.id), step, split }).then(
      (d) => current && setData(d.nodes),
      () => current && setData(null),
    );
    return () => {
      current = false;
    };
  }, [key, step, split]);
  return (
    <section class="block" aria-labelledby="side-by-side">
      <h2 id="side-by-side">Trajectories side by side</h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Step{' '}
          <input
            type="number"
            name="step"
            min="0"
            value={step}
            onInput={(e) => setStep(Math.max(0, Number((e.target as HTMLInputElement).value) || 0))}
          />
        </label>
        <label>
          Split{' '}
          <select name="split" value={split} onChange={(e) => setSplit((e.target as HTMLSelectElement).value)}>
            <option value="train">train</option>
            <option value="val">val</option>
          </select>
        </label>
      </form>
      <div class="side-by-side">
        {runs.map((r, i) => {
          const t = data?.[i]?.trajectories.edges[0]?.node;
          const answer = t ? [...t.messages].reverse().find((m) => m.role === 'assistant') : undefined;
          return (
            <article class="trajectory" key={r.id} aria-label={`best trajectory of ${runLabel(r)}`}>
              <h3 class="small">{runLabel(r)}</h3>
              {t ? (
                <>
                  <p class="small">
                    reward <strong>{fmtReward(t.reward)}</strong> · <em>{t.taskInput.inputText}</em>
                  </p>
                  <p class="content">{answer?.content ?? '–'}</p>
                </>
              ) : (
                <p class="muted small">No trajectory at this step.</p>
              )}
            </article>
          );
        })}
      </div>
    </section>
  );
}
