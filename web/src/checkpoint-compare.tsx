// Two checkpoints side by side on the same scenario: the held-out trajectories (split `val` from
// evalEvery, or `eval` from evaluations) of two steps, for one scenario, the best of each shown.
import { useEffect, useState } from 'preact/hooks';

import { gql } from './api';
import { Conversation } from './messages';
import { TRAJECTORIES, type TrajectoriesData, type Trajectory } from './queries';

const SPLITS = ['val', 'eval'];
const STEPS_QUERY = /* GraphQL */ `query DashboardHeldOutSteps($id: ID!) {
  run(id: $id) { val: metricHistory(split: "val") { step } eval: metricHistory(split: "eval") { step } }
}`;
type StepsData = { run: { val: { step: number }[]; eval: { step: number }[] } | null };

/** Held-out trajectories of a step, best first: a page of 40 (within the server's query cost limit). */
async function stepTrajectories(runId: string, split: string, step: number): Promise<Trajectory[]> {
  const d = await gql<TrajectoriesData>(TRAJECTORIES, { runId, first: 40, filter: { split, step } });
  return d.trajectories.edges.map((e) => e.node);
}

export function CheckpointCompare({ runId, version }: { runId: string; version: number }) {
  const [steps, setSteps] = useState<Record<string, number[]>>({});
  const [split, setSplit] = useState('val');
  const [a, setA] = useState<number | null>(null);
  const [b, setB] = useState<number | null>(null);
  const [left, setLeft] = useState<Trajectory[]>([]);
  const [right, setRight] = useState<Trajectory[]>([]);
  const [scenario, setScenario] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    gql<StepsData>(STEPS_QUERY, { id: runId }).then(
      (d) => {
        if (!current || !d.run) return;
        const found = { val: d.run.val.map((p) => p.step), eval: d.run.eval.map((p) => p.step) };
        setSteps(found);
        const use = found.val.length ? 'val' : 'eval';
        setSplit((s) => (found[s as 'val' | 'eval'].length ? s : use));
        const list = found[use];
        setA((x) => x ?? list[0] ?? null);
        setB((x) => x ?? list[list.length - 1] ?? null);
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [runId, version]);

  useEffect(() => {
    let current = true;
    if (a === null || b === null) return;
    Promise.all([stepTrajectories(runId, split, a), stepTrajectories(runId, split, b)]).then(
      ([l, r]) => {
        if (!current) return;
        setLeft(l);
        setRight(r);
        setError(null);
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [runId, split, a, b, version]);

  const available = steps[split] ?? [];
  if (!SPLITS.some((s) => (steps[s] ?? []).length > 0)) return null;
  const scenarios = [...new Set([...left, ...right].map((t) => t.taskInput.inputText))];
  const chosen = scenario && scenarios.includes(scenario) ? scenario : (scenarios[0] ?? null);
  const bestOf = (list: Trajectory[]) =>
    list
      .filter((t) => t.taskInput.inputText === chosen)
      .sort((x, y) => (y.reward ?? -Infinity) - (x.reward ?? -Infinity))[0];
  const side = (label: string, step: number | null, list: Trajectory[]) => {
    const t = bestOf(list);
    return (
      <div class="side" data-testid={`compare-${label}`} data-step={step ?? undefined}>
        <h3>
          Step {step}
          {t && <span class="muted small"> · reward {t.reward == null ? '–' : t.reward.toPrecision(3)}</span>}
        </h3>
        {t ? (
          <Conversation messages={t.messages} scope={`cmp-${label}-${t.id}`} tools={t.tools} />
        ) : (
          <p class="muted">No trajectory of this scenario at this step.</p>
        )}
      </div>
    );
  };
  const stepSelect = (label: string, value: number | null, set: (n: number) => void) => (
    <label>
      {label}{' '}
      <select value={value ?? ''} onChange={(e) => set(Number((e.target as HTMLSelectElement).value))}>
        {available.map((st) => (
          <option key={st} value={st}>
            {st}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div class="block checkpoint-compare" aria-label="compare checkpoints">
      <h2>Compare checkpoints</h2>
      <div class="filters">
        <label>
          Split{' '}
          <select value={split} onChange={(e) => setSplit((e.target as HTMLSelectElement).value)}>
            {SPLITS.filter((s) => (steps[s] ?? []).length > 0).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>{' '}
        {stepSelect('Left step', a, setA)} {stepSelect('Right step', b, setB)}{' '}
        <label>
          Scenario{' '}
          <select
            value={chosen ?? ''}
            aria-label="scenario"
            onChange={(e) => setScenario((e.target as HTMLSelectElement).value)}
          >
            {scenarios.map((s) => (
              <option key={s} value={s}>
                {s.length > 80 ? `${s.slice(0, 80)}…` : s}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="side-by-side">
        {side('left', a, left)}
        {side('right', b, right)}
      </div>
    </div>
  );
}
