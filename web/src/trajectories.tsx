// A run's trajectory browser: best reward first, a page at a time, filtered by split (train, val, …)
// and by a reward range on the server; each with its split, step and group, RULER's explanation,
// the conversation (tool calls and results as such) and its additional histories.
import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { AdditionalHistories, Conversation } from './messages';
import { TRAJECTORIES, type TrajectoriesData, type Trajectory } from './queries';

const TRAJECTORY_PAGE = 20;

export interface TrajectoryFilter {
  split?: string;
  rewardMin?: number;
  rewardMax?: number;
}

function exceptionsOf(t: Trajectory): string[] {
  const list = t.group?.exceptions;
  if (!Array.isArray(list)) return [];
  return list.map((e) => {
    const x = e as { type?: unknown; message?: unknown };
    return [x.type, x.message].filter((v) => typeof v === 'string' && v).join(': ') || JSON.stringify(e);
  });
}

export function Trajectories({ runId, version, splits }: { runId: string; version: number; splits: string[] }) {
  const [items, setItems] = useState<Trajectory[]>([]);
  const [total, setTotal] = useState<number | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [wanted, setWanted] = useState(TRAJECTORY_PAGE);
  const [filter, setFilter] = useState<TrajectoryFilter>({});
  const [minInput, setMinInput] = useState('');
  const [maxInput, setMaxInput] = useState('');
  const key = JSON.stringify(filter);

  useEffect(() => {
    let current = true;
    // Reloads as many as are on screen (one page at most 100), best first.
    gql<TrajectoriesData>(TRAJECTORIES, { runId, first: Math.min(100, wanted), filter }).then(
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
  }, [runId, version, wanted, key]);

  const more = async () => {
    if (!next) return;
    const d = await gql<TrajectoriesData>(TRAJECTORIES, { runId, first: TRAJECTORY_PAGE, after: next, filter });
    setItems((prev) => [...prev, ...d.trajectories.edges.map((e) => e.node)]);
    setNext(d.trajectories.pageInfo.hasNextPage ? d.trajectories.pageInfo.endCursor : null);
  };
  const num = (s: string) => (s.trim() === '' || !Number.isFinite(Number(s)) ? undefined : Number(s));
  const apply = (split: string | undefined) => {
    setWanted(TRAJECTORY_PAGE);
    setFilter({ split, rewardMin: num(minInput), rewardMax: num(maxInput) });
  };
  const filtered = filter.split !== undefined || filter.rewardMin !== undefined || filter.rewardMax !== undefined;

  return (
    <div class="block">
      <h2>
        Trajectories <span class="muted">{total != null ? `(${total}, best reward first)` : ''}</span>
      </h2>
      <form
        class="filters trajectory-filters"
        aria-label="trajectory filters"
        onSubmit={(e) => {
          e.preventDefault();
          apply(filter.split);
        }}
      >
        <label>
          Split{' '}
          <select
            name="split"
            value={filter.split ?? ''}
            onChange={(e) => apply((e.target as HTMLSelectElement).value || undefined)}
          >
            <option value="">all</option>
            {splits.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Reward from{' '}
          <input
            name="rewardMin"
            class="num-input"
            inputMode="decimal"
            value={minInput}
            placeholder="any"
            onInput={(e) => setMinInput((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          to{' '}
          <input
            name="rewardMax"
            class="num-input"
            inputMode="decimal"
            value={maxInput}
            placeholder="any"
            onInput={(e) => setMaxInput((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit">Filter</button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {total === 0 && <p class="muted">{filtered ? 'None match these filters.' : 'None yet.'}</p>}
      <ol class="trajectories" aria-label="trajectories">
        {items.map((t) => {
          const exceptions = exceptionsOf(t);
          return (
            <li key={t.id} class="trajectory" data-reward={t.reward ?? ''} data-split={t.split}>
              <div class="trajectory-head">
                <span class="reward">{t.reward == null ? 'unscored' : `reward ${t.reward.toFixed(3)}`}</span>
                <span class="tag">{t.split}</span>
                <span class="muted">
                  step {t.step}
                  {t.group ? ` · group ${t.group.index}` : ''}
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
              {exceptions.length > 0 && <p class="error">Group exceptions: {exceptions.join('; ')}</p>}
              <Conversation messages={t.messages} tools={t.tools} scope={t.id} />
              <AdditionalHistories trajectory={t} />
            </li>
          );
        })}
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
