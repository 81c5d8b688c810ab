// Compare: pick a few runs and overlay their avg reward curves. All of them come back in ONE query
// (one alias per run), each history downsampled by the server to at most MAX_POINTS points.
import { useEffect, useMemo, useState } from 'preact/hooks';

import { gql } from './api';
import { Chart } from './chart';
import { fmtReward, StatusBadge } from './format';
import { compareQuery, MAX_COMPARED, MAX_POINTS, RUNS, type CompareRun, type RunsData } from './queries';
import { Link, navigate } from './router';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];

/** Puts several histories on one x axis (the union of their steps); a run without a step there has a gap. */
export function alignHistories(runs: CompareRun[]): (number | null)[][] {
  const steps = [...new Set(runs.flatMap((r) => r.metricHistory.map((p) => p.step)))].sort((a, b) => a - b);
  const index = new Map(steps.map((s, i) => [s, i]));
  const series = runs.map((r) => {
    const ys: (number | null)[] = new Array(steps.length).fill(null);
    for (const p of r.metricHistory) ys[index.get(p.step)!] = p.avgReward;
    return ys;
  });
  return [steps, ...series];
}

export function ComparePage({ ids }: { ids: string[] }) {
  const [runs, setRuns] = useState<CompareRun[] | null>(null);
  const [recent, setRecent] = useState<RunsData['runs'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = ids.join(',');

  useEffect(() => {
    let current = true;
    if (ids.length === 0) {
      setRuns([]);
      return;
    }
    const variables: Record<string, unknown> = { maxPoints: MAX_POINTS };
    ids.forEach((id, i) => (variables[`id${i}`] = id));
    gql<Record<string, CompareRun | null>>(compareQuery(ids.length), variables).then(
      (d) => {
        if (!current) return;
        setRuns(ids.map((_, i) => d[`r${i}`]).filter((r): r is CompareRun => r != null));
        setError(null);
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [key]);

  useEffect(() => {
    gql<RunsData>(RUNS, { first: 50 }).then(
      (d) => setRecent(d.runs),
      (e: Error) => setError(e.message),
    );
  }, []);

  const data = useMemo(() => (runs ? alignHistories(runs) : [[]]), [runs]);
  const toggle = (id: string) => {
    const next = ids.includes(id) ? ids.filter((x) => x !== id) : ids.length >= MAX_COMPARED ? ids : [...ids, id];
    navigate(next.length ? `/compare?ids=${next.map(encodeURIComponent).join(',')}` : '/compare');
  };

  return (
    <section class="page">
      <p class="crumbs">
        <Link href="/">← All runs</Link>
      </p>
      <header class="page-head">
        <h1>Compare runs</h1>
        <span class="muted">avg reward per step, up to {MAX_COMPARED} runs</span>
      </header>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}

      {runs && runs.length > 0 ? (
        <div class="charts single" data-runs={runs.length}>
          <Chart
            label="avg reward comparison"
            yLabel="avg reward"
            height={320}
            data={data}
            series={runs.map((r, i) => ({
              label: `#${r.databaseId} ${r.projectName}`,
              color: COLORS[i % COLORS.length],
            }))}
          />
        </div>
      ) : (
        <p class="muted">Pick two or more runs below.</p>
      )}

      <h2>Runs</h2>
      <table class="runs" aria-label="runs to compare">
        <thead>
          <tr>
            <th class="narrow" />
            <th>Run</th>
            <th>Project</th>
            <th>Model</th>
            <th>Status</th>
            <th class="num">Avg reward</th>
          </tr>
        </thead>
        <tbody>
          {(recent?.edges.map((e) => e.node) ?? []).map((run) => (
            <tr key={run.id} data-run-id={run.id}>
              <td class="narrow">
                <input
                  type="checkbox"
                  aria-label={`compare run ${run.id}`}
                  checked={ids.includes(run.id)}
                  onChange={() => toggle(run.id)}
                />
              </td>
              <td>
                <Link href={`/runs/${encodeURIComponent(run.id)}`}>#{run.databaseId}</Link>
              </td>
              <td>{run.projectName}</td>
              <td class="model">{run.modelName}</td>
              <td>
                <StatusBadge status={run.status} />
              </td>
              <td class="num">{fmtReward(run.metrics?.avgReward)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
