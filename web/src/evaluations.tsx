// Evaluations of a run's checkpoints (evaluateCheckpoint): the form behind a checkpoint's "Evaluate"
// button (pick the run's VAL scenarios and/or write new ones, one a line) and the run's evaluations,
// live through evaluationProgress while they run, with their eval/reward once completed.
import { useEffect, useState } from 'preact/hooks';

import { gql, subscribe } from './api';
import { fmtTime } from './format';
import {
  EVALUATE,
  EVALUATION_PROGRESS,
  EVALUATIONS,
  type EvaluateData,
  type Evaluation,
  type EvaluationProgressData,
  type EvaluationsData,
} from './queries';

const ACTIVE = ['PENDING', 'RUNNING'];
const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));

/** The scenario picker of one checkpoint: the run's VAL inputs to tick, and new scenarios to type. */
export function EvaluateForm({
  runId,
  step,
  onStarted,
  onClose,
}: {
  runId: string;
  step: number;
  onStarted: () => void;
  onClose: () => void;
}) {
  const [val, setVal] = useState<string[] | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    gql<EvaluationsData>(EVALUATIONS, { id: runId }).then(
      (d) => {
        if (!current) return;
        const texts = (d.run?.taskInputs ?? []).filter((t) => t.split === 'VAL').map((t) => t.inputText);
        setVal(texts);
        setPicked(new Set(texts));
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [runId]);

  const scenarios = [
    ...[...picked].map((inputText) => ({ inputText })),
    ...typed
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((inputText) => ({ inputText })),
  ];
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const d = await gql<EvaluateData>(EVALUATE, { runId, step, scenarios });
      if (d.evaluateCheckpoint.__typename !== 'EvaluateCheckpointPayload')
        setError(d.evaluateCheckpoint.message ?? d.evaluateCheckpoint.__typename);
      else {
        setError(null);
        onStarted();
      }
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const toggle = (text: string) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (next.has(text)) next.delete(text);
      else next.add(text);
      return next;
    });

  return (
    <form class="evaluate-form" aria-label={`evaluate checkpoint ${step}`} onSubmit={(e) => void submit(e)}>
      <h3>Evaluate checkpoint {step}</h3>
      {val && val.length > 0 && (
        <fieldset>
          <legend>The run's VAL scenarios</legend>
          {val.map((text, i) => (
            <label key={i} class="scenario-choice">
              <input type="checkbox" checked={picked.has(text)} onChange={() => toggle(text)} /> {text}
            </label>
          ))}
        </fieldset>
      )}
      <label>
        New scenarios, one a line
        <textarea
          name="scenarios"
          rows={3}
          value={typed}
          onInput={(e) => setTyped((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy || scenarios.length === 0}>
          Evaluate on {scenarios.length} scenario{scenarios.length === 1 ? '' : 's'}
        </button>{' '}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </form>
  );
}

/** The run's evaluations, newest first; the ones still running follow their progress live. */
export function Evaluations({ runId, version, onChange }: { runId: string; version: number; onChange: () => void }) {
  const [rows, setRows] = useState<Evaluation[] | null>(null);
  const [progress, setProgress] = useState<Record<string, EvaluationProgressData['evaluationProgress']>>({});
  const [reload, setReload] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    gql<EvaluationsData>(EVALUATIONS, { id: runId }).then(
      (d) => {
        if (!current) return;
        setRows(d.run?.evaluations ?? []);
        setError(null);
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [runId, version, reload]);

  const active = (rows ?? []).filter((e) => ACTIVE.includes(e.status)).map((e) => e.id);
  const activeKey = active.join(',');
  useEffect(() => {
    const offs = active.map((id) =>
      subscribe<EvaluationProgressData>(EVALUATION_PROGRESS, { id }, (d) => {
        setProgress((p) => ({ ...p, [id]: d.evaluationProgress }));
        if (!ACTIVE.includes(d.evaluationProgress.status)) {
          setReload((n) => n + 1);
          onChange();
        }
      }),
    );
    return () => offs.forEach((off) => off());
  }, [runId, activeKey]);

  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!rows || rows.length === 0) return null;
  return (
    <div class="table-wrap">
      <table class="runs evaluations" aria-label="evaluations">
        <thead>
          <tr>
            <th class="num">Step</th>
            <th>Status</th>
            <th>Metrics</th>
            <th class="wide-only">Started</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => {
            const p = progress[e.id];
            const reward = e.metrics.find((m) => m.name === 'eval/reward');
            return (
              <tr key={e.id} data-evaluation={e.id} data-status={e.status}>
                <td class="num">{e.step}</td>
                <td>
                  {e.status}
                  {p && ACTIVE.includes(e.status) && (
                    <span class="muted small">
                      {' '}
                      · rollouts {p.rolloutsDone}/{p.rolloutsTotal}
                    </span>
                  )}
                  {e.error && <div class="muted small">{e.error}</div>}
                </td>
                <td class="small">
                  {reward ? `eval/reward ${fmt(reward.value)}` : '–'}
                  <span class="muted">
                    {' '}
                    · {e.scenarioCount} scenario{e.scenarioCount === 1 ? '' : 's'}
                    {e.modelName ? ` on ${e.modelName}` : ''}
                  </span>
                </td>
                <td class="muted wide-only">{fmtTime(e.createdAt)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
