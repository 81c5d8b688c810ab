// The runs list: a page of 50 at a time (keyset cursors), searched with the run query language
// (`tag = baseline AND metrics.val/reward > 0.6`), filtered by project and status, sorted by a
// column, kept live by the runStatusChanged subscription (a transition or a new run refetches the
// page on screen, debounced, so a burst of events costs one query). The search, the filters and the
// sort live in the URL (/?q=…&sort=…), so a filtered list is a link.
import { useEffect, useMemo, useState } from 'preact/hooks';

import { debounce, gql, onKeyChanged, onReconnected, subscribe, whenLive } from './api';
import { fmtReward, fmtTime, StalledBadge, StatusBadge, stepOf } from './format';
import {
  MAX_COMPARED_RUNS,
  PAGE_SIZE,
  RUN_STALL_CHANGED,
  RUN_STATUS_CHANGED,
  RUNS_SEARCH,
  STATUSES,
  type ListedRun,
  type RunsSearchData,
  type Status,
} from './queries';
import { Link, navigate } from './router';

type Cursor = { after?: string; before?: string };

/** Sortable columns: the server orders by these (keyset pages in either direction). */
const SORTS = {
  created: { field: 'CREATED_AT' },
  avg: { field: 'AVG_REWARD' },
  last: { field: 'METRIC', metric: 'train/reward' },
  val: { field: 'METRIC', metric: 'val/reward' },
} as const;
type SortKey = keyof typeof SORTS;

export interface ListState {
  q: string;
  project: string;
  statuses: Status[];
  sort: SortKey;
  desc: boolean;
}

export function listStateOf(url: URL): ListState {
  const [key, dir] = (url.searchParams.get('sort') ?? 'created:desc').split(':');
  const statuses = (url.searchParams.get('status') ?? '')
    .split(',')
    .filter((s): s is Status => (STATUSES as string[]).includes(s));
  return {
    q: url.searchParams.get('q') ?? '',
    project: url.searchParams.get('project') ?? '',
    statuses,
    sort: key in SORTS ? (key as SortKey) : 'created',
    desc: dir !== 'asc',
  };
}

export function listHref(s: ListState): string {
  const p = new URLSearchParams();
  if (s.q) p.set('q', s.q);
  if (s.project) p.set('project', s.project);
  if (s.statuses.length) p.set('status', s.statuses.join(','));
  if (s.sort !== 'created' || !s.desc) p.set('sort', `${s.sort}:${s.desc ? 'desc' : 'asc'}`);
  const text = p.toString();
  return text ? `/?${text}` : '/';
}

const metric = (run: ListedRun, name: string) => run.summary.find((m) => m.name === name);

export function RunsPage({ url }: { url: URL }) {
  const state = listStateOf(url);
  const [queryInput, setQueryInput] = useState(state.q);
  const [projectInput, setProjectInput] = useState(state.project);
  const [cursor, setCursor] = useState<Cursor>({});
  const [data, setData] = useState<RunsSearchData['runs'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [live, setLive] = useState(false);
  const stateKey = listHref(state);

  // Back/forward or a link changed the URL: the inputs follow it, and the list starts over.
  useEffect(() => {
    setQueryInput(state.q);
    setProjectInput(state.project);
    setCursor({});
  }, [stateKey]);

  const go = (patch: Partial<ListState>) => navigate(listHref({ ...state, ...patch }));

  const variables = useMemo(() => {
    const filter: Record<string, unknown> = {};
    if (state.project) filter.projectName = state.project;
    if (state.statuses.length) filter.status = state.statuses;
    if (state.q.trim()) filter.query = state.q;
    const orderBy = { ...SORTS[state.sort], direction: state.desc ? 'DESC' : 'ASC' };
    return cursor.before
      ? { filter, orderBy, last: PAGE_SIZE, before: cursor.before }
      : { filter, orderBy, first: PAGE_SIZE, after: cursor.after ?? null };
  }, [stateKey, cursor]);

  useEffect(() => {
    let current = true;
    const load = () =>
      gql<RunsSearchData>(RUNS_SEARCH, variables).then(
        (d) => {
          if (!current) return;
          setData(d.runs);
          setError(null);
        },
        (e: Error) => {
          if (!current) return;
          setError(e.message);
          setData(null);
        },
      );
    void load();
    const refetch = debounce(load, 250);
    setLive(false);
    const stop = subscribe(RUN_STATUS_CHANGED, { projectName: state.project || null }, refetch, (e) =>
      setError(e.message),
    );
    // A run found stalled, or active again: its badge changes.
    const stopStalls = subscribe(RUN_STALL_CHANGED, { projectName: state.project || null }, refetch, (e) =>
      setError(e.message),
    );
    const cancelLive = whenLive(() => {
      if (!current) return;
      setLive(true);
      void load();
    });
    const offKey = onKeyChanged(load);
    const offReconnect = onReconnected(load);
    return () => {
      current = false;
      refetch.cancel();
      cancelLive();
      stop();
      stopStalls();
      offKey();
      offReconnect();
    };
  }, [variables]);

  const toggleStatus = (s: Status) =>
    go({ statuses: state.statuses.includes(s) ? state.statuses.filter((x) => x !== s) : [...state.statuses, s] });
  const toggleSelected = (id: string) =>
    setSelected((prev) =>
      prev.includes(id) ? prev.filter((x) => x !== id) : prev.length >= MAX_COMPARED_RUNS ? prev : [...prev, id],
    );
  const sortBy = (key: SortKey) => go({ sort: key, desc: state.sort === key ? !state.desc : true });
  const ariaSort = (key: SortKey) => (state.sort === key ? (state.desc ? 'descending' : 'ascending') : undefined);
  const SortHeader = (p: { k: SortKey; label: string; class?: string }) => (
    <th scope="col" class={p.class} aria-sort={ariaSort(p.k)}>
      <button type="button" class="sort" onClick={() => sortBy(p.k)}>
        {p.label}
        <span aria-hidden="true">{state.sort === p.k ? (state.desc ? ' ↓' : ' ↑') : ''}</span>
      </button>
    </th>
  );

  const runs = data?.edges.map((e) => e.node) ?? [];
  const filtered = Boolean(state.q || state.project || state.statuses.length);
  return (
    <section class="page">
      <header class="page-head">
        <h1>Training runs</h1>
        <span class="muted" data-testid="runs-total" aria-live="polite">
          {data ? `${data.totalCount} run${data.totalCount === 1 ? '' : 's'}` : error ? '' : 'loading…'}
        </span>
        {live && (
          <span class="live-dot" data-testid="live" title="updates live">
            live
          </span>
        )}
        <span class="spacer" />
        <button
          type="button"
          class="primary"
          disabled={selected.length < 2}
          onClick={() => navigate(`/compare?ids=${selected.map(encodeURIComponent).join(',')}`)}
        >
          Compare {selected.length ? `(${selected.length})` : ''}
        </button>
      </header>

      <form
        class="search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          go({ q: queryInput.trim() });
        }}
      >
        <label for="run-query">Search runs</label>
        <div class="search-row">
          <input
            id="run-query"
            name="q"
            type="search"
            value={queryInput}
            placeholder="tag = baseline AND metrics.val/reward > 0.6"
            aria-describedby="run-query-help"
            autocomplete="off"
            spellcheck={false}
            onInput={(e) => setQueryInput((e.target as HTMLInputElement).value)}
          />
          <button type="submit">Search</button>
        </div>
        <details id="run-query-help" class="small muted">
          <summary>Query language</summary>
          <p>
            Fields: <code>status</code>, <code>project</code>, <code>tag</code>, <code>group</code>, <code>name</code>,{' '}
            <code>model</code>, <code>mode</code>, <code>config.&lt;key&gt;</code> (e.g.{' '}
            <code>config.learning_rate</code>
            ), <code>metrics.&lt;split&gt;/&lt;name&gt;</code> (its last value, e.g. <code>metrics.val/reward</code>).
            Operators: <code>= != &gt; &gt;= &lt; &lt;=</code>, <code>~</code> (contains), <code>IN (a, b)</code>.
            Combine with <code>AND</code> (or a space), <code>OR</code>, <code>NOT</code> and parentheses; quote text
            with spaces. Other words search names, notes and descriptions.
          </p>
        </details>
      </form>

      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          go({ project: projectInput.trim() });
        }}
      >
        <label>
          Project{' '}
          <input
            name="project"
            value={projectInput}
            placeholder="any project"
            onInput={(e) => setProjectInput((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit">Filter</button>
        <div class="status-filter" role="group" aria-label="status filter">
          {STATUSES.map((s) => (
            <label key={s} class={`chip ${state.statuses.includes(s) ? 'on' : ''}`}>
              <input type="checkbox" checked={state.statuses.includes(s)} onChange={() => toggleStatus(s)} />
              {s.toLowerCase()}
            </label>
          ))}
        </div>
      </form>

      {error && (
        <p class="error" role="alert" data-testid="runs-error">
          {error}
        </p>
      )}

      <table class="runs runs-list" aria-label="training runs">
        <thead>
          <tr>
            <th class="narrow" scope="col">
              <span class="visually-hidden">select for comparison</span>
            </th>
            <th scope="col">Run</th>
            <th scope="col" class="wide-only">
              Project
            </th>
            <th scope="col">Status</th>
            <th scope="col" class="num wide-only">
              Step
            </th>
            <th scope="col" class="num wide-only">
              Best reward
            </th>
            <SortHeader k="last" label="Last reward" class="num" />
            <SortHeader k="val" label="Val reward" class="num" />
            <SortHeader k="created" label="Created" class="wide-only" />
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} data-run-id={run.id} data-status={run.status}>
              <td class="narrow">
                <input
                  type="checkbox"
                  aria-label={`compare ${run.name ?? `run #${run.databaseId}`}`}
                  checked={selected.includes(run.id)}
                  onChange={() => toggleSelected(run.id)}
                />
              </td>
              <td class="run-cell">
                <Link href={`/runs/${encodeURIComponent(run.id)}`} class="run-link">
                  {run.name ?? `#${run.databaseId}`}
                </Link>
                {run.name && <span class="muted small"> #{run.databaseId}</span>}
                {run.mode === 'TRACKED' && <span class="tag">tracked</span>}
                {run.tags.map((t) => (
                  <Link
                    key={t}
                    class="tag run-tag"
                    href={listHref({ ...state, q: `tag = ${t}` })}
                    title={`runs tagged ${t}`}
                  >
                    {t}
                  </Link>
                ))}
                {run.group && <span class="muted small group"> · {run.group}</span>}
              </td>
              <td class="wide-only">{run.projectName}</td>
              <td>
                <StatusBadge status={run.status} />
                {run.stalled && <StalledBadge since={run.stalledSince} />}
              </td>
              <td class="num wide-only">{stepOf(run)}</td>
              <td class="num wide-only">{fmtReward(metric(run, 'train/reward')?.max)}</td>
              <td class="num">{fmtReward(metric(run, 'train/reward')?.last ?? run.metrics?.avgReward)}</td>
              <td class="num">{fmtReward(metric(run, 'val/reward')?.last)}</td>
              <td class="muted wide-only">{fmtTime(run.createdAt)}</td>
            </tr>
          ))}
          {data && runs.length === 0 && (
            <tr>
              <td colSpan={9} class="muted empty">
                No runs {filtered ? 'match these filters' : 'yet'}.
              </td>
            </tr>
          )}
        </tbody>
      </table>

      <nav class="pager" aria-label="pages">
        <button
          type="button"
          disabled={!data?.pageInfo.hasPreviousPage && !cursor.after}
          onClick={() => setCursor(data?.pageInfo.startCursor ? { before: data.pageInfo.startCursor } : {})}
        >
          ← Newer
        </button>
        <button type="button" disabled={!cursor.after && !cursor.before} onClick={() => setCursor({})}>
          Newest
        </button>
        <button
          type="button"
          disabled={!data?.pageInfo.hasNextPage && !cursor.before}
          onClick={() => data?.pageInfo.endCursor && setCursor({ after: data.pageInfo.endCursor })}
        >
          Older →
        </button>
      </nav>
    </section>
  );
}
