// A training run as the rest of Atelier sees it, and its conversion to and from the seed's row layout.
import type { StatusTransitionRow, TaskInputRow, TrainingRunRow } from '../db/entities';
import { parseJsonObject } from '../db/json';
import { parseDate } from '../db/timestamps';
import type { TrainingStatus } from '../domain/status-machine';
import type { TrainingMetrics } from '../domain/training-metrics';

export interface TrainingRun {
  id: number;
  uuid: string;
  status: TrainingStatus;
  modelName: string;
  projectName: string;
  trainedModelName: string | null;
  taskDescription: string;
  numExamples: number;
  rolloutsPerGroup: number;
  learningRate: number;
  numEpochs: number;
  maxSteps: number | null;
  systemPrompt: string | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  metrics: TrainingMetrics | null;
  error: string | null;
  config: Record<string, unknown>;
  mode: RunMode;
  currentStep: number | null;
  backend: string | null;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  /** The name given to it; null: `trainedModelName` (ART's model name) stands for it. */
  name: string | null;
  /** Markdown. */
  notes: string | null;
  group: string | null;
}

export type RunMode = 'tracked' | 'pipeline';

/** One input of a run's dataset (the seed's TaskInput); also a trajectory's input. */
export interface TaskInput {
  step: number;
  inputText: string;
  context: Record<string, unknown> | null;
  /** A run's input: `train` (trained on) or `val` (held out). A trajectory's input has none. */
  split?: 'train' | 'val';
}

/** One change of a run's status, as stored: the first has no `fromStatus`. */
export type StatusTransition = StatusTransitionRow;

export function taskInputFromRow(r: TaskInputRow): TaskInput {
  return {
    step: r.step,
    inputText: r.inputText,
    context: r.context ? parseJsonObject(r.context) : null,
    split: r.split === 'val' ? 'val' : 'train',
  };
}

/** The seed serializes TrainingMetrics with snake_case keys (pydantic's model_dump_json). */
export function metricsToJson(m: TrainingMetrics): string {
  return JSON.stringify({
    total_trajectories: m.totalTrajectories,
    avg_reward: m.avgReward,
    min_reward: m.minReward,
    max_reward: m.maxReward,
    training_loss: m.trainingLoss,
    epoch: m.epoch,
    step: m.step,
  });
}

export function metricsFromJson(text: string | null): TrainingMetrics | null {
  if (!text) return null;
  const o = JSON.parse(text) as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    totalTrajectories: num(o.total_trajectories) ?? 0,
    avgReward: num(o.avg_reward),
    minReward: num(o.min_reward),
    maxReward: num(o.max_reward),
    trainingLoss: num(o.training_loss),
    epoch: num(o.epoch) ?? 0,
    step: num(o.step) ?? 0,
  };
}

export function runFromRow(row: TrainingRunRow): TrainingRun {
  return {
    id: row.id,
    uuid: row.uuid,
    status: row.status as TrainingStatus,
    modelName: row.modelName,
    projectName: row.projectName,
    trainedModelName: row.trainedModelName,
    taskDescription: row.taskDescription,
    numExamples: row.numExamples,
    rolloutsPerGroup: row.rolloutsPerGroup,
    learningRate: row.learningRate,
    numEpochs: row.numEpochs,
    maxSteps: row.maxSteps,
    systemPrompt: row.systemPrompt,
    createdAt: parseDate(row.createdAt),
    startedAt: parseDate(row.startedAt),
    completedAt: parseDate(row.completedAt),
    metrics: metricsFromJson(row.metrics),
    error: row.error,
    config: parseJsonObject(row.config),
    mode: row.mode === 'pipeline' ? 'pipeline' : 'tracked',
    currentStep: row.currentStep ?? null,
    backend: row.backend ?? null,
    leaseOwner: row.leaseOwner ?? null,
    leaseExpiresAt: parseDate(row.leaseExpiresAt ?? null),
    name: row.name ?? null,
    notes: row.notes ?? null,
    group: row.groupName ?? null,
  };
}

/** Each TrainingRun property from the row column of the same name, converted as runFromRow converts it. */
const CONVERT: Partial<Record<keyof TrainingRun, (value: never) => unknown>> = {
  status: (v: string) => v as TrainingStatus,
  createdAt: (v: string) => parseDate(v),
  startedAt: (v: string | null) => parseDate(v),
  completedAt: (v: string | null) => parseDate(v),
  metrics: (v: string | null) => metricsFromJson(v),
  config: (v: string | null) => parseJsonObject(v),
  mode: (v: string) => (v === 'pipeline' ? 'pipeline' : 'tracked'),
  currentStep: (v: number | null | undefined) => v ?? null,
  backend: (v: string | null | undefined) => v ?? null,
  leaseOwner: (v: string | null | undefined) => v ?? null,
  leaseExpiresAt: (v: string | null | undefined) => parseDate(v ?? null),
  name: (v: string | null | undefined) => v ?? null,
  notes: (v: string | null | undefined) => v ?? null,
  group: (v: string | null | undefined) => v ?? null,
};

/** The row property a TrainingRun property is read from: its own name, but `group` (groupName). */
export function rowColumnOf(p: keyof TrainingRun): keyof TrainingRunRow {
  return p === 'group' ? 'groupName' : (p as keyof TrainingRunRow);
}

/**
 * A run of which only `properties` were read (see RunsRepo.page): the others are absent, so it may be
 * handed only to fields that read no more than these (runs.graphql.ts decides from the selection).
 */
export function partialRunFromRow(
  row: Partial<TrainingRunRow>,
  properties: readonly (keyof TrainingRun)[],
): TrainingRun {
  const run: Record<string, unknown> = {};
  for (const p of properties) {
    const convert = CONVERT[p] as ((value: unknown) => unknown) | undefined;
    const value = row[rowColumnOf(p)];
    run[p] = convert ? convert(value) : value;
  }
  return run as unknown as TrainingRun;
}
