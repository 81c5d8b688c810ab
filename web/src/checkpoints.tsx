// A run's checkpoints by step, with the history values at each step, the best one marked as ART
// keeps it (run.bestCheckpoint: the highest val/reward, or train/reward for a run without val
// history), and deleted ones shown with why.
import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { EvaluateForm, Evaluations } from './evaluations';
import { fmtTime } from './format';
import { CHECKPOINTS, type BestCheckpoint, type Checkpoint, type CheckpointsData } from './queries';

const PAGE = 100;
/** Metrics shown first in a checkpoint's row; the others follow by name. */
const FIRST = ['val/reward', 'train/reward', 'loss/train'];

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));

export function Checkpoints({
  runId,
  version,
  canEvaluate = false,
}: {
  runId: string;
  version: number;
  /** A PIPELINE run's kept checkpoints get an Evaluate button. */
  canEvaluate?: boolean;
}) {
  const [evaluating, setEvaluating] = useState<number | null>(null);
  const [evaluationsVersion, setEvaluationsVersion] = useState(0);
  const [rows, setRows] = useState<Checkpoint[] | null>(null);
  const [best, setBest] = useState<{ metric: string; best: BestCheckpoint } | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    gql<CheckpointsData>(CHECKPOINTS, { id: runId, first: PAGE }).then(
      (d) => {
        if (!current || !d.run) return;
        setRows(d.run.checkpoints);
        setMore(d.run.checkpoints.length === PAGE);
        setBest(
          d.run.bestVal
            ? { metric: 'val/reward', best: d.run.bestVal }
            : d.run.bestTrain
              ? { metric: 'train/reward', best: d.run.bestTrain }
              : null,
        );
        setError(null);
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [runId, version]);

  const loadMore = async () => {
    if (!rows?.length) return;
    const d = await gql<CheckpointsData>(CHECKPOINTS, {
      id: runId,
      first: PAGE,
      afterStep: rows[rows.length - 1].step,
    });
    const page = d.run?.checkpoints ?? [];
    setRows((prev) => [...(prev ?? []), ...page]);
    setMore(page.length === PAGE);
  };

  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!rows) return null;
  const ordered = (c: Checkpoint) =>
    [...c.metrics].sort((a, b) => {
      const ia = FIRST.indexOf(a.name);
      const ib = FIRST.indexOf(b.name);
      return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.name.localeCompare(b.name);
    });
  return (
    <div class="block">
      <h2>
        Checkpoints{' '}
        <span class="muted">
          ({rows.length}
          {more ? '+' : ''})
        </span>
      </h2>
      {best && (
        <p class="muted small" data-testid="best-checkpoint">
          Best by {best.metric}: step {best.best.step} ({fmt(best.best.value)})
          {best.best.checkpoint ? '' : ' — no checkpoint was recorded for that step'}
        </p>
      )}
      {rows.length === 0 ? (
        <p class="muted">None yet: the pipeline records one for each step it trains; scripts call recordCheckpoint.</p>
      ) : (
        <div class="table-wrap">
          <table class="runs checkpoints" aria-label="checkpoints">
            <thead>
              <tr>
                <th class="num">Step</th>
                <th>Name</th>
                <th>Metrics</th>
                <th class="wide-only">Created</th>
                {canEvaluate && <th>Evaluate</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => {
                const isBest = best?.best.checkpoint != null && best.best.step === c.step;
                return (
                  <tr
                    key={c.step}
                    data-step={c.step}
                    data-best={isBest ? 'true' : undefined}
                    class={`${isBest ? 'best' : ''} ${c.deletedAt ? 'deleted' : ''}`}
                  >
                    <td class="num">{c.step}</td>
                    <td class="model">
                      {c.name}
                      {isBest && <span class="badge badge-best">best {best!.metric}</span>}
                      {c.uri && <div class="muted small uri">{c.uri}</div>}
                      {c.deletedAt && (
                        <div class="muted small">
                          deleted {fmtTime(c.deletedAt)}
                          {c.deletionReason ? ` — ${c.deletionReason}` : ''}
                        </div>
                      )}
                    </td>
                    <td class="small">
                      {ordered(c)
                        .map((m) => `${m.name} ${fmt(m.value)}`)
                        .join(' · ') || '–'}
                    </td>
                    <td class="muted wide-only">{fmtTime(c.createdAt)}</td>
                    {canEvaluate && (
                      <td>
                        {!c.deletedAt && (
                          <button
                            type="button"
                            aria-label={`Evaluate checkpoint ${c.step}`}
                            onClick={() => setEvaluating(c.step)}
                          >
                            Evaluate
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {more && (
        <button type="button" onClick={() => void loadMore()}>
          More checkpoints
        </button>
      )}
      {evaluating !== null && (
        <EvaluateForm
          runId={runId}
          step={evaluating}
          onClose={() => setEvaluating(null)}
          onStarted={() => {
            setEvaluating(null);
            setEvaluationsVersion((v) => v + 1);
          }}
        />
      )}
      {canEvaluate && (
        <Evaluations
          runId={runId}
          version={version + evaluationsVersion}
          onChange={() => setEvaluationsVersion((v) => v + 1)}
        />
      )}
    </div>
  );
}
