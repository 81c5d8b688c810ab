// The TrainingRun fields that are computed, not stored: one definition each, for their resolvers
// (runs.graphql.ts, run-stall.graphql.ts, run-summary.graphql.ts) and the runs list's plan
// (runs-list-plan.ts), so the two ways of answering cannot drift apart.
import type { RunActivityRow, RunSummaryRow } from '../db/entities';
import { parseDate } from '../db/timestamps';
import { totalSteps } from '../domain/dataset';
import { pipelineSettingsOf } from '../domain/pipeline-settings';
import { isFinal } from '../domain/status-machine';
import type { TrainingRun } from './run.model';

/** The name given to the run, else ART's model name. */
export const runName = (r: Pick<TrainingRun, 'name' | 'trainedModelName'>): string | null =>
  r.name ?? r.trainedModelName;

/** Pipeline runs: ART's dataset iteration over numExamples; tracked runs: maxSteps, if set. */
export const runTotalSteps = (
  run: Pick<TrainingRun, 'mode' | 'numExamples' | 'config' | 'numEpochs' | 'maxSteps'>,
): number | null =>
  run.mode === 'pipeline'
    ? totalSteps(run.numExamples, pipelineSettingsOf(run.config).groupsPerStep, run.numEpochs, run.maxSteps)
    : run.maxSteps;

/** When a TRACKED run not finished was found stalled; null otherwise (PIPELINE runs have the watchdog). */
export function stalledSinceOf(
  run: Pick<TrainingRun, 'mode' | 'status'>,
  activity: Pick<RunActivityRow, 'stalledSince'> | null | undefined,
): Date | null {
  const since = activity?.stalledSince;
  return run.mode === 'tracked' && !isFinal(run.status) && since != null ? parseDate(since) : null;
}

/** A TRACKED run's last rows (its start, or creation, before any); null for PIPELINE runs. */
export function lastActivityOf(
  run: Pick<TrainingRun, 'mode' | 'startedAt' | 'createdAt'>,
  activity: Pick<RunActivityRow, 'lastActivityAt'> | null | undefined,
): Date | null {
  if (run.mode !== 'tracked') return null;
  const last = activity?.lastActivityAt;
  return last ? parseDate(last) : (run.startedAt ?? run.createdAt);
}

/** The summary rows of a split and of some names (each filter when given). */
export function summariesMatching(
  rows: readonly RunSummaryRow[],
  split: string | null | undefined,
  names: readonly string[] | null | undefined,
): RunSummaryRow[] {
  const wanted = names ? new Set(names) : null;
  return rows.filter((r) => (split == null || r.split === split) && (!wanted || wanted.has(r.name)));
}
