// One run, live: status and its history, progress through the current step, the curves of any
// metric the run has (train and val overlaid, a metric picker), the checkpoints with the best one
// marked, the run's config, the task inputs, and a trajectory browser (by split and reward range)
// that shows tool calls and results as such.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';

import { debounce, gql, onKeyChanged, onReconnected, subscribe, whenLive } from './api';
import { CheckpointCompare } from './checkpoint-compare';
import { Checkpoints } from './checkpoints';
import { fmtDuration, fmtReward, fmtTime, StalledBadge, StatusBadge, stepOf } from './format';
import { catalog, DEFAULT_METRICS, mergePoints, namesFor, splitsOf, TRAIN } from './metric-catalog';
import {
  CANCEL,
  CHECKPOINT_RECORDED,
  FINAL,
  MAX_POINTS,
  MAX_SPLITS,
  METRICS_RECORDED,
  RUN,
  RUN_PROGRESS,
  RUN_STALL_CHANGED,
  RUN_STATUS_CHANGED,
  splitHistoriesQuery,
  TRAJECTORIES_RECORDED,
  TRAJECTORIES_SCORED,
  type CancelData,
  type MetricName,
  type MetricPoint,
  type Metrics,
  type MetricsRecordedData,
  type Progress,
  type RunData,
  type RunDetail,
  type RunProgressData,
  type RunStallData,
  type RunStatusData,
  type SplitHistoriesData,
} from './queries';
import { Link } from './router';
import { RunCharts } from './run-charts';
import { RunIdentityPanel } from './run-identity';
import { Trajectories } from './trajectories';

export { mergePoints } from './metric-catalog';

type Histories = Record<string, MetricPoint[]>;

/** The histories of these splits (one query, one alias a split) with the named values asked for, and the metrics snapshot. */
async function loadSplits(
  id: string,
  splits: string[],
  names: string[],
): Promise<{ histories: Histories; metrics: Metrics | null; metricNames: MetricName[] | null }> {
  const variables: Record<string, unknown> = { id, maxPoints: MAX_POINTS, names };
  splits.forEach((s, i) => (variables[`s${i}`] = s));
  const d = await gql<SplitHistoriesData>(splitHistoriesQuery(splits.length), variables);
  const histories: Histories = {};
  splits.forEach((s, i) => (histories[s] = (d.run?.[`h${i}`] as MetricPoint[] | undefined) ?? []));
  return { histories, metrics: d.run?.metrics ?? null, metricNames: d.run?.metricNames ?? null };
}

/** The splits charted: train, then the others the run has (at most MAX_SPLITS). */
const chartedSplits = (metricNames: MetricName[]) => splitsOf(metricNames, {}).slice(0, MAX_SPLITS);

export function RunPage({ id }: { id: string }) {
  const [run, setRun] = useState<RunDetail | null>(null);
  const [histories, setHistories] = useState<Histories>({});
  const [selected, setSelected] = useState<string[]>(DEFAULT_METRICS);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [trajectoriesVersion, setTrajectoriesVersion] = useState(0);
  const [checkpointsVersion, setCheckpointsVersion] = useState(0);
  const [live, setLive] = useState(false);
  // What the loads ask for, read when they run (the subscriptions below outlive renders).
  const wanted = useRef({ selected, metricNames: [] as MetricName[], histories });
  wanted.current.selected = selected;
  wanted.current.histories = histories;
  const names = () => namesFor(catalog(wanted.current.metricNames, wanted.current.histories), wanted.current.selected);
  const refreshRef = useRef<() => void>(() => {});

  useEffect(() => {
    let current = true;
    let seq = 0;
    setRun(null);
    setHistories({});
    setProgress(null);
    setLive(false);
    wanted.current.metricNames = [];
    const fail = (e: Error) => current && setError(e.message);
    /** The run, its train history and then its other splits' histories. */
    const load = async () => {
      const n = ++seq;
      try {
        const d = await gql<RunData>(RUN, { id, maxPoints: MAX_POINTS, names: names() });
        if (!current || n !== seq) return;
        setMissing(!d.run);
        setRun(d.run);
        setError(null);
        if (!d.run) return;
        wanted.current.metricNames = d.run.metricNames;
        const train = d.run.metricHistory;
        setHistories((h) => ({ ...h, [TRAIN]: train }));
        const others = chartedSplits(d.run.metricNames).filter((s) => s !== TRAIN);
        const rest = others.length ? (await loadSplits(id, others, names())).histories : {};
        if (current && n === seq) setHistories({ [TRAIN]: train, ...rest });
      } catch (e) {
        fail(e as Error);
      }
    };
    /** Every split's history and the metrics snapshot: after trajectories change reward statistics, or other metrics are picked. */
    const refresh = async () => {
      const n = ++seq;
      try {
        const known = splitsOf(wanted.current.metricNames, wanted.current.histories).slice(0, MAX_SPLITS);
        const d = await loadSplits(id, known, names());
        if (!current || n !== seq) return;
        const metricNames = d.metricNames ?? wanted.current.metricNames;
        wanted.current.metricNames = metricNames;
        // A split logged for the first time (val trajectories, say) is fetched too.
        const added = chartedSplits(metricNames).filter((s) => !known.includes(s));
        const more = added.length ? (await loadSplits(id, added, names())).histories : {};
        if (!current || n !== seq) return;
        setHistories({ ...d.histories, ...more });
        setRun((r) => r && { ...r, metrics: d.metrics ?? r.metrics, metricNames });
      } catch (e) {
        fail(e as Error);
      }
    };
    refreshRef.current = () => void refresh();
    void load();
    const reload = debounce(() => void load(), 200);
    const restat = debounce(() => void refresh(), 500);
    const reloadTrajectories = debounce(() => setTrajectoriesVersion((v) => v + 1), 400);
    const reloadCheckpoints = debounce(() => setCheckpointsVersion((v) => v + 1), 500);
    const trajectoriesChanged = () => {
      reloadTrajectories();
      // Reward statistics come from the stored trajectories: their points changed without a metrics event.
      restat();
    };
    const stops = [
      subscribe<RunStatusData>(
        RUN_STATUS_CHANGED,
        { runId: id },
        (d) => {
          const ev = d.runStatusChanged;
          setRun(
            (r) =>
              r && {
                ...r,
                ...ev.run,
                statusHistory: r.statusHistory.some((t) => t.eventId === ev.eventId)
                  ? r.statusHistory
                  : [
                      ...r.statusHistory,
                      { eventId: ev.eventId, from: ev.from, to: ev.to, at: ev.at, reason: ev.reason },
                    ],
              },
          );
          reloadCheckpoints();
          // The dataset and system prompt are written while GENERATING: read them once it is over.
          if (ev.from === 'GENERATING' || FINAL.includes(ev.to)) reload();
        },
        fail,
      ),
      subscribe<MetricsRecordedData>(
        METRICS_RECORDED,
        { runId: id },
        (d) => {
          const points = d.metricsRecorded.points;
          setHistories((h) => {
            const out = { ...h };
            for (const split of new Set(points.map((p) => p.split)))
              out[split] = mergePoints(
                out[split] ?? [],
                points.filter((p) => p.split === split),
              );
            // Live points are one per step: past twice the budget, ask the server to downsample again.
            if (Object.values(out).some((xs) => xs.length > MAX_POINTS * 2)) reload();
            return out;
          });
          setRun((r) => r && { ...r, metrics: d.metricsRecorded.metrics ?? r.metrics });
          reloadCheckpoints();
        },
        fail,
      ),
      subscribe<RunProgressData>(RUN_PROGRESS, { runId: id }, (d) => setProgress(d.runProgress), fail),
      subscribe(TRAJECTORIES_RECORDED, { runId: id }, trajectoriesChanged, fail),
      subscribe(CHECKPOINT_RECORDED, { runId: id }, reloadCheckpoints, fail),
      subscribe<RunStallData>(
        RUN_STALL_CHANGED,
        { runId: id },
        (d) => {
          const ev = d.runStallChanged;
          setRun(
            (r) => r && { ...r, stalled: ev.stalled, stalledSince: ev.stalledSince, lastActivityAt: ev.lastActivityAt },
          );
        },
        fail,
      ),
      subscribe(TRAJECTORIES_SCORED, { runId: id }, trajectoriesChanged, fail),
    ];
    const cancelLive = whenLive(() => {
      if (!current) return;
      setLive(true);
      void load();
      setTrajectoriesVersion((v) => v + 1);
      setCheckpointsVersion((v) => v + 1);
    });
    const offKey = onKeyChanged(() => void load());
    const offReconnect = onReconnected(() => void load());
    return () => {
      current = false;
      refreshRef.current = () => {};
      cancelLive();
      reload.cancel();
      restat.cancel();
      reloadTrajectories.cancel();
      reloadCheckpoints.cancel();
      for (const stop of stops) stop();
      offKey();
      offReconnect();
    };
  }, [id]);

  const pick = (keys: string[]) => {
    wanted.current.selected = keys;
    setSelected(keys);
    refreshRef.current();
  };
  const splits = useMemo(() => (run ? splitsOf(run.metricNames, histories) : [TRAIN]), [run?.metricNames, histories]);

  if (missing)
    return (
      <section class="page">
        <p class="error">No run with the id {id}.</p>
        <Link href="/">← All runs</Link>
      </section>
    );
  if (!run)
    return (
      <section class="page">
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : (
          <p class="muted">Loading…</p>
        )}
      </section>
    );

  const total = progress?.totalSteps ?? run.totalSteps;
  const doneSteps =
    run.status === 'COMPLETED' ? (total ?? 0) : progress ? progress.step : run.metrics ? run.metrics.step + 1 : 0;
  const pct = total ? Math.min(100, (doneSteps / total) * 100) : 0;

  return (
    <section class="page">
      <p class="crumbs">
        <Link href="/">← All runs</Link>
      </p>
      <header class="page-head">
        <h1>Run #{run.databaseId}</h1>
        <StatusBadge status={run.status} />
        {run.stalled && !FINAL.includes(run.status) && <StalledBadge since={run.stalledSince} />}
        {run.mode === 'TRACKED' && <span class="tag">tracked</span>}
        {live && (
          <span class="live-dot" data-testid="live" title="updates live">
            live
          </span>
        )}
        <span class="spacer" />
        <CancelButton run={run} onCancelled={(status) => setRun((r) => r && { ...r, status })} />
      </header>
      <p class="task">{run.taskDescription}</p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {run.error && <p class="error">Failed: {run.error}</p>}
      {run.stalled && !FINAL.includes(run.status) && (
        <p class="error" role="status" data-testid="stalled-note">
          Stalled: no new rows since {fmtTime(run.lastActivityAt)} (STALL_TIMEOUT_SECONDS). The script or watcher
          writing this run may be hung; it shows as active again when rows arrive.
        </p>
      )}

      <div class="progress-block" aria-label="progress">
        <div class="progress-line">
          <strong>Step {stepOf({ ...run, totalSteps: total })}</strong>
          {progress && !FINAL.includes(run.status) && (
            <span class="muted">
              {progress.stage === 'VALIDATE' && (
                <span data-testid="validating"> · validating checkpoint {progress.step}</span>
              )}
              · epoch {progress.epoch + 1} of {run.numEpochs} · rollouts {progress.rolloutsDone}/
              {progress.rolloutsTotal} · judge calls {progress.judgeCallsDone}/{progress.judgeCallsTotal} · gradient
              steps {progress.gradientStepsDone}
              {progress.gradientStepsTotal != null ? `/${progress.gradientStepsTotal}` : ''}
            </span>
          )}
        </div>
        <div
          class="bar"
          role="progressbar"
          aria-label="training progress"
          aria-valuemin={0}
          aria-valuemax={total ?? 0}
          aria-valuenow={doneSteps}
        >
          <div class="bar-fill" style={{ width: `${pct}%` }} />
        </div>
      </div>

      <div class="grid">
        <dl class="facts">
          <dt>Project</dt>
          <dd>{run.projectName}</dd>
          <dt>Model</dt>
          <dd>{run.modelName}</dd>
          {run.trainedModelName && (
            <>
              <dt>Trained model</dt>
              <dd>{run.trainedModelName}</dd>
            </>
          )}
          <dt>Examples × rollouts</dt>
          <dd>
            {run.numExamples} × {run.rolloutsPerGroup}
          </dd>
          <dt>Epochs</dt>
          <dd>{run.numEpochs}</dd>
          <dt>Learning rate</dt>
          <dd>{run.learningRate}</dd>
          {run.backend && (
            <>
              <dt>Backend</dt>
              <dd>{run.backend}</dd>
            </>
          )}
          <dt>Avg reward</dt>
          <dd>{fmtReward(run.metrics?.avgReward)}</dd>
          <dt>Trajectories</dt>
          <dd>{run.metrics?.totalTrajectories ?? 0}</dd>
          <dt>Created</dt>
          <dd>{fmtTime(run.createdAt)}</dd>
          <dt>Duration</dt>
          <dd>{fmtDuration(run.startedAt, run.completedAt)}</dd>
        </dl>
        <div>
          <h2>
            Status history <span class="muted">(newest first)</span>
          </h2>
          <ol class="history" aria-label="status history" tabIndex={0}>
            {run.statusHistory
              .slice()
              .reverse()
              .map((t) => (
                <li key={t.eventId}>
                  <StatusBadge status={t.to} /> <span class="muted">{fmtTime(t.at)}</span>
                  {t.reason && <span class="reason"> — {t.reason}</span>}
                </li>
              ))}
          </ol>
        </div>
      </div>

      <RunIdentityPanel id={id} />
      <RunCharts metricNames={run.metricNames} histories={histories} selected={selected} onSelect={pick} />
      <Checkpoints runId={id} version={checkpointsVersion} canEvaluate={run.mode === 'PIPELINE'} />
      {run.mode === 'PIPELINE' && <CheckpointCompare runId={id} version={checkpointsVersion} />}

      {run.systemPrompt && (
        <details class="block">
          <summary>System prompt</summary>
          <pre class="prompt">{run.systemPrompt}</pre>
        </details>
      )}
      <details class="block config">
        <summary>Config</summary>
        <pre class="json" aria-label="run config">
          {JSON.stringify(run.config ?? {}, null, 2)}
        </pre>
      </details>
      {(run.mode === 'PIPELINE' || run.taskInputs.length > 0) && <TaskInputs inputs={run.taskInputs} />}
      <Trajectories runId={id} version={trajectoriesVersion} splits={splits} />
    </section>
  );
}

function TaskInputs({ inputs }: { inputs: RunDetail['taskInputs'] }) {
  const [all, setAll] = useState(false);
  const shown = all ? inputs : inputs.slice(0, 8);
  return (
    <div class="block">
      <h2>
        Task inputs <span class="muted">({inputs.length})</span>
      </h2>
      {inputs.length === 0 ? (
        <p class="muted">None yet: a pipeline run writes them while GENERATING.</p>
      ) : (
        <ol class="inputs" aria-label="task inputs">
          {shown.map((t, i) => (
            <li key={i}>{t.inputText}</li>
          ))}
        </ol>
      )}
      {inputs.length > shown.length && (
        <button type="button" onClick={() => setAll(true)}>
          Show all {inputs.length}
        </button>
      )}
    </div>
  );
}

function CancelButton({ run, onCancelled }: { run: RunDetail; onCancelled: (status: RunDetail['status']) => void }) {
  const [armed, setArmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  if (FINAL.includes(run.status)) return null;
  const cancel = async () => {
    setBusy(true);
    try {
      const d = await gql<CancelData>(CANCEL, { id: run.id });
      const r = d.cancelTrainingRun;
      if (r.run) onCancelled(r.run.status);
      else setMessage(r.message ?? r.__typename);
    } catch (e) {
      setMessage((e as Error).message);
    } finally {
      setBusy(false);
      setArmed(false);
    }
  };
  return (
    <span class="cancel">
      {message && <span class="error small">{message}</span>}
      {armed ? (
        <>
          <button type="button" class="danger" disabled={busy} onClick={cancel}>
            Yes, cancel the run
          </button>
          <button type="button" onClick={() => setArmed(false)}>
            Keep it
          </button>
        </>
      ) : (
        <button type="button" class="danger-outline" onClick={() => setArmed(true)}>
          Cancel run
        </button>
      )}
    </span>
  );
}
