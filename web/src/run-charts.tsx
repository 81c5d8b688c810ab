// A run's curves: a picker of every metric the run has (run.metricNames; live points add new ones),
// and one chart per picked metric with a series per split, train and val of the same metric overlaid.
// Avg reward, training loss and gradient norm are picked until the viewer picks otherwise.
import { useMemo } from 'preact/hooks';

import { Chart } from './chart';
import { catalog, chartOf, splitsOf, type MetricEntry } from './metric-catalog';
import type { MetricName, MetricPoint } from './queries';

export function RunCharts({
  metricNames,
  histories,
  selected,
  onSelect,
}: {
  metricNames: MetricName[];
  histories: Record<string, MetricPoint[]>;
  selected: string[];
  onSelect: (keys: string[]) => void;
}) {
  const entries = useMemo(() => catalog(metricNames, histories), [metricNames, histories]);
  const splits = useMemo(() => splitsOf(metricNames, histories), [metricNames, histories]);
  const charts = useMemo(
    () => entries.filter((e) => selected.includes(e.key)).map((e) => chartOf(e, histories, splits)),
    [entries, histories, splits, selected],
  );
  const downsampled = Object.values(histories).some((h) => h.some((p) => p.bucket.count > 1));
  const toggle = (e: MetricEntry) =>
    onSelect(selected.includes(e.key) ? selected.filter((k) => k !== e.key) : [...selected, e.key]);

  return (
    <div class="block">
      <div class="metric-picker" role="group" aria-label="metrics">
        <span class="muted small">Metrics{splits.length > 1 ? ` (${splits.join(', ')})` : ''}:</span>
        {entries.map((e) => (
          <label key={e.key} class={`chip ${selected.includes(e.key) ? 'on' : ''}`} data-metric={e.key}>
            <input type="checkbox" checked={selected.includes(e.key)} onChange={() => toggle(e)} />
            {e.label}
          </label>
        ))}
      </div>
      <div class="charts">
        {charts.map((c) => (
          <Chart
            key={c.key}
            label={c.label}
            yLabel={c.label}
            data={c.data}
            series={c.series}
            band={c.band}
            summary={c.summary}
          />
        ))}
      </div>
      {charts.length === 0 && <p class="muted">Pick a metric above to chart it.</p>}
      {downsampled && (
        <p class="muted note">
          Long history: each point stands for several steps; the bands keep their exact min and max.
        </p>
      )}
    </div>
  );
}
