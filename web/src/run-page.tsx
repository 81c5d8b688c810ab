// One run, live: status and its history, progress through the current step, charts of avg reward
// (with the min/max reward band), training loss and gradient norm that grow as points arrive, the
// task inputs, and a trajectory browser ordered by reward with messages and RULER's explanations.
import { useEffect, useMemo, useState } from 'preact/hooks';

import { debounce, gql, onKeyChanged, onReconnected, subscribe, whenLive } from './api';
import { Chart } from './chart';
import { fmtDuration, fmtReward, fmtTime, StatusBadge, stepOf } from './format';
import {
  CANCEL,
  FINAL,
  MAX_POINTS,
  METRICS_RECORDED,
  RUN,
  RUN_PROGRESS,
  RUN_STATUS_CHANGED,
  TRAJECTORIES,
  TRAJECTORIES_RECORDED,
  type CancelData,
  type MetricPoint,
  type MetricsRecordedData,
  type NamedValue,
  type Progress,
  type RunData,
  type RunDetail,
  type RunProgressData,
  type RunStatusData,
  type TrajectoriesData,
  type Trajectory,
} from './queries';
import { Link } from './router';
import { RunIdentityPanel } from './run-identity';

const named = (values: NamedValue[], name: string) => values.find((v) => v.name === name)?.value ?? null;

/** Adds live points to a history: a step already there is replaced, new steps are appended in order. */
export function mergePoints(history: MetricPoint[], incoming: MetricPoint[]): MetricPoint[] {
  const out = history.slice();
  for (const p of incoming) {
    const last = out[out.length - 1];
    if (!last || p.step > last.step) out.push(p);
    else {
      const i = out.findIndex((q) => q.step === p.step);
      if (i >= 0) out[i] = p;
      else {
        out.push(p);
        out.sort((a, b) => a.step - b.step);
      }
    }
  }
  return out;
}

export function RunPage({ id }: { id: string }) {
  const [run, setRun] = useState<RunDetail | null>(null);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [trajectoriesVersion, setTrajectoriesVersion] = useState(0);
  const [live, setLive] = useState(false);

  useEffect(() => {
    let current = true;
    setRun(null);
    setProgress(null);
    setLive(false);
    const load = () =>
      gql<RunData>(RUN, { id, maxPoints: MAX_POINTS }).then(
        (d) => {
          if (!current) return;
          setMissing(!d.run);
          setRun(d.run);
          setError(null);
        },
        (e: Error) => current && setError(e.message),
      );
    void load();
    const reload = debounce(load, 200);
    const reloadTrajectories = debounce(() => setTrajectoriesVersion((v) => v + 1), 400);
    const fail = (e: Error) => current && setError(e.message);
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
          // The dataset and system prompt are written while GENERATING: read them once it is over.
          if (ev.from === 'GENERATING' || FINAL.includes(ev.to)) reload();
        },
        fail,
      ),
      subscribe<MetricsRecordedData>(
        METRICS_RECORDED,
        { runId: id },
        (d) => {
          setRun((r) => {
            if (!r) return r;
            const metricHistory = mergePoints(r.metricHistory, d.metricsRecorded.points);
            // Live points are one per step: past twice the budget, ask the server to downsample again.
            if (metricHistory.length > MAX_POINTS * 2) reload();
            return { ...r, metricHistory, metrics: d.metricsRecorded.metrics ?? r.metrics };
          });
        },
        fail,
      ),
      subscribe<RunProgressData>(RUN_PROGRESS, { runId: id }, (d) => setProgress(d.runProgress), fail),
      subscribe(TRAJECTORIES_RECORDED, { runId: id }, reloadTrajectories, fail),
    ];
    const cancelLive = whenLive(() => {
      if (!current) return;
      setLive(true);
      void load();
      setTrajectoriesVersion((v) => v + 1);
    });
    const offKey = onKeyChanged(load);
    const offReconnect = onReconnected(load);
    return () => {
      current = false;
      cancelLive();
      reload.cancel();
      reloadTrajectories.cancel();
      for (const stop of stops) stop();
      offKey();
      offReconnect();
    };
  }, [id]);

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

      <div class="progress-block" aria-label="progress">
        <div class="progress-line">
          <strong>Step {stepOf({ ...run, totalSteps: total })}</strong>
          {progress && !FINAL.includes(run.status) && (
            <span class="muted">
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
          <ol class="history" aria-label="status history">
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
      <Charts history={run.metricHistory} />

      {run.systemPrompt && (
        <details class="block">
          <summary>System prompt</summary>
          <pre class="prompt">{run.systemPrompt}</pre>
        </details>
      )}
      <TaskInputs inputs={run.taskInputs} />
      <Trajectories runId={id} version={trajectoriesVersion} />
    </section>
  );
}

/** A series and, when points stand for several steps, the exact min and max of its bucket as a band. */
function withEnvelope(
  history: MetricPoint[],
  value: (p: MetricPoint) => number | null,
  series: string,
): (number | null)[][] {
  return [
    history.map(value),
    history.map((p) => (p.bucket.count > 1 ? named(p.bucket.max, series) : null) ?? value(p)),
    history.map((p) => (p.bucket.count > 1 ? named(p.bucket.min, series) : null) ?? value(p)),
  ];
}

function Charts({ history }: { history: MetricPoint[] }) {
  const downsampled = history.some((p) => p.bucket.count > 1);
  const { reward, loss, grad } = useMemo(() => {
    const steps = history.map((p) => p.step);
    // Reward: the band is the spread of the rewards themselves (lowest and highest trajectory reward).
    const lower = history.map((p) => named(p.bucket.min, 'minReward') ?? p.minReward);
    const upper = history.map((p) => named(p.bucket.max, 'maxReward') ?? p.maxReward);
    return {
      reward: [steps, history.map((p) => p.avgReward), upper, lower],
      loss: [steps, ...withEnvelope(history, (p) => p.trainingLoss, 'trainingLoss')],
      grad: [steps, ...withEnvelope(history, (p) => named(p.values, 'grad_norm'), 'values.grad_norm')],
    };
  }, [history]);
  const edges = (color: string) => [
    { label: 'max', color, width: 1 },
    { label: 'min', color, width: 1 },
  ];
  return (
    <>
      <div class="charts">
        <Chart
          label="avg reward"
          yLabel="reward"
          data={reward}
          series={[{ label: 'avg reward', color: '#2563eb', width: 2 }, ...edges('rgba(37,99,235,0.35)')]}
          band={{ upper: 1, lower: 2, color: 'rgba(37,99,235,0.12)' }}
        />
        <Chart
          label="training loss"
          yLabel="loss"
          data={loss}
          series={[{ label: 'training loss', color: '#dc2626' }, ...edges('rgba(220,38,38,0.25)')]}
          band={{ upper: 1, lower: 2, color: 'rgba(220,38,38,0.10)' }}
        />
        <Chart
          label="gradient norm"
          yLabel="grad norm"
          data={grad}
          series={[{ label: 'grad norm', color: '#7c3aed' }, ...edges('rgba(124,58,237,0.25)')]}
          band={{ upper: 1, lower: 2, color: 'rgba(124,58,237,0.10)' }}
        />
      </div>
      {downsampled && (
        <p class="muted note">
          Long history: each point stands for several steps; the bands keep their exact min and max.
        </p>
      )}
    </>
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

const TRAJECTORY_PAGE = 20;

function Trajectories({ runId, version }: { runId: string; version: number }) {
  const [items, setItems] = useState<Trajectory[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [wanted, setWanted] = useState(TRAJECTORY_PAGE);

  useEffect(() => {
    let current = true;
    // Reloads as many as are on screen (one page at most 100), best first.
    gql<TrajectoriesData>(TRAJECTORIES, { runId, first: Math.min(100, wanted) }).then(
      (d) => {
        if (!current) return;
        setItems(d.trajectories.edges.map((e) => e.node));
        setTotal(d.trajectories.totalCount);
        setNext(d.trajectories.pageInfo.hasNextPage ? d.trajectories.pageInfo.endCursor : null);
        setError(null);
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [runId, version, wanted]);

  const more = async () => {
    if (!next) return;
    const d = await gql<TrajectoriesData>(TRAJECTORIES, { runId, first: TRAJECTORY_PAGE, after: next });
    setItems((prev) => [...prev, ...d.trajectories.edges.map((e) => e.node)]);
    setNext(d.trajectories.pageInfo.hasNextPage ? d.trajectories.pageInfo.endCursor : null);
  };

  return (
    <div class="block">
      <h2>
        Trajectories <span class="muted">{total != null ? `(${total}, best reward first)` : ''}</span>
      </h2>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {total === 0 && <p class="muted">None yet.</p>}
      <ol class="trajectories" aria-label="trajectories">
        {items.map((t) => (
          <li key={t.id} class="trajectory" data-reward={t.reward ?? ''}>
            <div class="trajectory-head">
              <span class="reward">{t.reward == null ? 'unscored' : `reward ${t.reward.toFixed(3)}`}</span>
              <span class="muted">
                step {t.taskInput.step}
                {t.isTest ? ' · test' : ''}
              </span>
              <span class="input">{t.taskInput.inputText}</span>
            </div>
            {t.judgeExplanation && (
              <p class="explanation">
                <strong>RULER:</strong> {t.judgeExplanation}
              </p>
            )}
            {t.error && <p class="error">Rollout failed: {t.error}</p>}
            {t.droppedReason && <p class="muted">Not trained: {t.droppedReason}</p>}
            <div class="messages">
              {t.messages.map((m, i) => (
                <div key={i} class={`message role-${m.role}`}>
                  <span class="role">{m.role}</span>
                  <div class="content">{m.content}</div>
                </div>
              ))}
            </div>
          </li>
        ))}
      </ol>
      {next && (
        <button
          type="button"
          onClick={() => (items.length < 100 ? setWanted(items.length + TRAJECTORY_PAGE) : void more())}
        >
          More trajectories
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
