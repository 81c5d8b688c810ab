// A uPlot time-series chart as a Preact component. The chart element carries an accessible name
// (aria-label) and exposes how many points it draws (data-points), when given, what each series
// holds (data-series: JSON), and with a band, the band's extremes (data-band: JSON), so people using
// assistive technology, tools and tests can find it and follow it. uPlot draws on a canvas and keeps
// 10k points fast.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
  width?: number;
  dash?: number[];
}

export interface ChartProps {
  /** The accessible name, e.g. "avg reward". */
  label: string;
  /** x values (steps), then one array per series. */
  data: (number | null)[][];
  series: ChartSeries[];
  /** Fill between two series, by index into `series` (upper, lower). */
  band?: { upper: number; lower: number; color: string };
  height?: number;
  yLabel?: string;
  /** What the series hold, e.g. {train: {points, last: [step, value]}, val: …}; exposed as data-series. */
  summary?: unknown;
  /** The x axis' label; 'step' unless said. */
  xLabel?: string;
  /** A logarithmic y axis (values that are not positive must be gaps). */
  log?: boolean;
}

const STEP_INCREMENTS = [
  1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 50_000, 100_000,
];
/** What a band draws: how many steps have both edges, and its lowest and highest [step, value]. */
function bandSummary(data: (number | null)[][], band: NonNullable<ChartProps['band']>) {
  const [steps, upper, lower] = [data[0] ?? [], data[band.upper + 1] ?? [], data[band.lower + 1] ?? []];
  let points = 0;
  let lowest: [number, number] | null = null;
  let highest: [number, number] | null = null;
  steps.forEach((step, i) => {
    const hi = upper[i];
    const lo = lower[i];
    if (step == null || hi == null || lo == null) return;
    points++;
    if (!highest || hi > highest[1]) highest = [step, hi];
    if (!lowest || lo < lowest[1]) lowest = [step, lo];
  });
  return { points, lowest, highest };
}

const ns = (x: number | null | undefined) => (x == null ? '–' : Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));

export function Chart({
  label,
  data,
  series,
  band,
  height = 220,
  yLabel,
  summary,
  xLabel = 'step',
  log = false,
}: ChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shape = JSON.stringify([series, band, height, yLabel, xLabel, log]);
  const points = data[0]?.length ?? 0;

  useEffect(() => {
    const el = host.current!;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: true, live: true },
      cursor: { drag: { x: true, y: false } },
      scales: log ? { x: { time: false }, y: { distr: 3 } } : { x: { time: false } },
      axes: [
        // Steps are whole numbers: no ticks between them.
        {
          label: xLabel,
          stroke: '#5b6475',
          grid: { stroke: '#eceff4' },
          ticks: { stroke: '#d8dde6' },
          incrs: STEP_INCREMENTS,
          values: (_u, ticks) => ticks.map(String),
        },
        {
          label: yLabel,
          stroke: '#5b6475',
          grid: { stroke: '#eceff4' },
          ticks: { stroke: '#d8dde6' },
          values: (_u, ticks) => ticks.map((t) => ns(t)),
          size: 56,
        },
      ],
      series: [
        { label: xLabel },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: s.width ?? 2,
          dash: s.dash,
          spanGaps: true,
          points: { show: false },
          value: (_u: uPlot, v: number | null) => ns(v),
        })),
      ],
      bands: band ? [{ series: [band.upper + 1, band.lower + 1], fill: band.color }] : [],
    };
    const u = new uPlot(opts, data as uPlot.AlignedData, el);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // Rebuilt only when the chart's shape changes; new data goes through setData below.
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(data as uPlot.AlignedData);
  }, [data]);

  return (
    <figure class="chart">
      <figcaption>{label}</figcaption>
      <div
        ref={host}
        class="chart-plot"
        role="img"
        aria-label={label}
        data-points={points}
        data-series={summary === undefined ? undefined : JSON.stringify(summary)}
        data-band={band ? JSON.stringify(bandSummary(data, band)) : undefined}
      />
      {points === 0 && <p class="chart-empty">No points yet</p>}
    </figure>
  );
}
