// The runs list: newest first, a page of 50 at a time (keyset cursors), filtered by project and
// status, kept live by the runStatusChanged subscription (a transition or a new run refetches the
// page on screen, debounced, so a burst of events costs one query).
import { useEffect, useMemo, useState } from 'preact/hooks';

import { debounce, gql, onKeyChanged, onReconnected, subscribe, whenLive } from './api';
import { fmtReward, fmtTime, StatusBadge, stepOf } from './format';
import { MAX_COMPARED, PAGE_SIZE, RUN_STATUS_CHANGED, RUNS, STATUSES, type RunsData, type Status } from './queries';
import { Link, navigate } from './router';

type Cursor = { after?: string; before?: string };

export function RunsPage() {
  const [project, setProject] = useState('');
  const [projectInput, setProjectInput] = useState('');
  const [statuses, setStatuses] = useState<Status[]>([]);
  const [cursor, setCursor] = useState<Cursor>({});
  const [data, setData] = useState<RunsData['runs'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [live, setLive] = useState(false);

  const variables = useMemo(() => {
    const filter: Record<string, unknown> = {};
    if (project) filter.projectName = project;
    if (statuses.length) filter.status = statuses;
    return cursor.before
      ? { filter, last: PAGE_SIZE, before: cursor.before }
      : { filter, first: PAGE_SIZE, after: cursor.after ?? null };
  }, [project, statuses, cursor]);

  useEffect(() => {
    let current = true;
    const load = () =>
      gql<RunsData>(RUNS, variables).then(
        (d) => {
          if (!current) return;
          setData(d.runs);
          setError(null);
        },
        (e: Error) => current && setError(e.message),
      );
    void load();
    const refetch = debounce(load, 250);
    setLive(false);
    const stop = subscribe(RUN_STATUS_CHANGED, { projectName: project || null }, refetch, (e) => setError(e.message));
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
      offKey();
      offReconnect();
    };
  }, [variables]);

  const toggleStatus = (s: Status) => {
    setCursor({});
    setStatuses((prev) => (prev.includes(s) ? prev.filter((x) => x !== s) : [...prev, s]));
  };
  const toggleSelected = (id: string) =>
    setSelected((prev) =>
      prev.includes(id) ? prev.filter((x) => x !== id) : prev.length >= MAX_COMPARED ? prev : [...prev, id],
    );

  const runs = data?.edges.map((e) => e.node) ?? [];
  return (
    <section class="page">
      <header class="page-head">
        <h1>Training runs</h1>
        <span class="muted" data-testid="runs-total">
          {data ? `${data.totalCount} run${data.totalCount === 1 ? '' : 's'}` : 'loading…'}
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
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setCursor({});
          setProject(projectInput.trim());
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
            <label key={s} class={`chip ${statuses.includes(s) ? 'on' : ''}`}>
              <input type="checkbox" checked={statuses.includes(s)} onChange={() => toggleStatus(s)} />
              {s.toLowerCase()}
            </label>
          ))}
        </div>
      </form>

      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}

      <table class="runs" aria-label="training runs">
        <thead>
          <tr>
            <th class="narrow" aria-label="select for comparison" />
            <th>Run</th>
            <th>Project</th>
            <th>Model</th>
            <th>Status</th>
            <th class="num">Step</th>
            <th class="num">Avg reward</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} data-run-id={run.id} data-status={run.status}>
              <td class="narrow">
                <input
                  type="checkbox"
                  aria-label={`compare run ${run.id}`}
                  checked={selected.includes(run.id)}
                  onChange={() => toggleSelected(run.id)}
                />
              </td>
              <td>
                <Link href={`/runs/${encodeURIComponent(run.id)}`} class="run-link">
                  #{run.databaseId}
                </Link>
                {run.mode === 'TRACKED' && <span class="tag">tracked</span>}
              </td>
              <td>{run.projectName}</td>
              <td class="model">{run.modelName}</td>
              <td>
                <StatusBadge status={run.status} />
              </td>
              <td class="num">{stepOf(run)}</td>
              <td class="num">{fmtReward(run.metrics?.avgReward)}</td>
              <td class="muted">{fmtTime(run.createdAt)}</td>
            </tr>
          ))}
          {data && runs.length === 0 && (
            <tr>
              <td colSpan={8} class="muted empty">
                No runs {project || statuses.length ? 'match these filters' : 'yet'}.
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
