// The plan of the runs list (Query.runs), graphql/connection-plan.ts: the dashboard's runs page asks
// for 50 runs of about 40 fields each (metrics, tags, summaries), and graphql-js spent about 250 µs a
// run executing them field by field. Edges selecting only the fields below are written straight to
// JSON; tags, summaries and activity are loaded for the whole page first, through the operation's
// loaders, as the fields' resolvers would have loaded them. Any other field (queuePosition,
// statusHistory, costs, a field another module adds) leaves the operation to graphql-js.
import { Kind, type FieldNode, type ValueNode } from 'graphql';

import type { Context } from '../context';
import type { RunActivityRow, RunSummaryRow } from '../db/entities';
import type { TrainingMetrics } from '../domain/training-metrics';
import {
  boolean,
  dateTime,
  enumValue,
  float,
  int,
  json,
  leaf,
  list,
  nested,
  object,
  string,
  stringList,
  Unplannable,
  type ConnectionPlan,
  type FieldPlan,
} from '../graphql/connection-plan';
import { encodeGlobalId } from '../graphql/global-id';
import { RUN_MODE_VALUES, SPLIT_RULE } from '../graphql/inputs';
import { lastActivityOf, runName, runTotalSteps, stalledSinceOf, summariesMatching } from './run-fields';
import type { TrainingRun } from './run.model';
import { RUN_LIMITS } from './run.rules';
import { TRAINING_STATUS_VALUES } from './runs.graphql';

/** A run of the page with what its loaders gave (only what the selection asks for is loaded). */
interface PlannedRun {
  run: TrainingRun;
  tags?: string[];
  summaries?: RunSummaryRow[];
  activity?: RunActivityRow | null;
}
interface PlannedEdge {
  readonly cursor: string;
  readonly node: PlannedRun;
}

const METRICS = object<TrainingMetrics>('TrainingMetrics', {
  totalTrajectories: int((m) => m.totalTrajectories),
  avgReward: float((m) => m.avgReward, true),
  minReward: float((m) => m.minReward, true),
  maxReward: float((m) => m.maxReward, true),
  trainingLoss: float((m) => m.trainingLoss, true),
  epoch: int((m) => m.epoch),
  step: int((m) => m.step),
});

const SUMMARY_METRIC = object<RunSummaryRow>('RunSummaryMetric', {
  split: string((r) => r.split),
  name: string((r) => r.name),
  last: float((r) => r.last),
  min: float((r) => r.min),
  max: float((r) => r.max),
  step: int((r) => r.step),
});

/** A literal string list argument (a single string is a list of one); undefined for anything else. */
function stringsOf(value: ValueNode): string[] | null | undefined {
  if (value.kind === Kind.NULL) return null;
  if (value.kind === Kind.STRING) return [value.value];
  if (value.kind !== Kind.LIST) return undefined;
  const out: string[] = [];
  for (const v of value.values) {
    if (v.kind !== Kind.STRING) return undefined;
    out.push(v.value);
  }
  return out;
}

/**
 * `summary(split:, names:)` with literal arguments its rules accept (run-summary.graphql.ts); with a
 * variable, or an argument its rules refuse, graphql-js runs it and gives the error.
 */
const summary: FieldPlan<PlannedRun> = (field) => {
  let split: string | null = null;
  let names: string[] | null = null;
  for (const arg of field.arguments ?? []) {
    if (arg.name.value === 'split') {
      if (arg.value.kind === Kind.NULL) continue;
      if (arg.value.kind !== Kind.STRING || !SPLIT_RULE.safeParse(arg.value.value).success) return null;
      split = arg.value.value;
    } else if (arg.name.value === 'names') {
      const given = stringsOf(arg.value);
      if (given === undefined) return null;
      // The rules of the field's resolver, and no-nul-args.ts's, which run only when it does.
      const refused = (n: string) => n.length > RUN_LIMITS.summaryNameLength || n.includes('\u0000');
      if (given && (given.length > RUN_LIMITS.summaryNames || given.some(refused))) return null;
      names = given;
    } else return null;
  }
  const write = list((r: RunSummaryRow[]) => r, SUMMARY_METRIC)({ ...field, arguments: [] });
  if (!write) return null;
  return (p, tally) => {
    if (!p.summaries) throw new Unplannable();
    return write(summariesMatching(p.summaries, split, names), tally);
  };
};

const RUN_FIELDS: Record<string, FieldPlan<PlannedRun>> = {
  id: leaf((p) => JSON.stringify(encodeGlobalId('TrainingRun', p.run.id))),
  databaseId: int((p) => p.run.id),
  name: string((p) => runName(p.run), true),
  notes: string((p) => p.run.notes, true),
  tags: stringList((p) => p.tags),
  group: string((p) => p.run.group, true),
  uuid: string((p) => p.run.uuid),
  status: enumValue((p) => p.run.status, TRAINING_STATUS_VALUES),
  modelName: string((p) => p.run.modelName),
  projectName: string((p) => p.run.projectName),
  trainedModelName: string((p) => p.run.trainedModelName, true),
  taskDescription: string((p) => p.run.taskDescription),
  numExamples: int((p) => p.run.numExamples),
  rolloutsPerGroup: int((p) => p.run.rolloutsPerGroup),
  learningRate: float((p) => p.run.learningRate),
  numEpochs: int((p) => p.run.numEpochs),
  maxSteps: int((p) => p.run.maxSteps, true),
  systemPrompt: string((p) => p.run.systemPrompt, true),
  createdAt: dateTime((p) => p.run.createdAt),
  startedAt: dateTime((p) => p.run.startedAt, true),
  completedAt: dateTime((p) => p.run.completedAt, true),
  metrics: nested((p) => p.run.metrics, METRICS, true),
  error: string((p) => p.run.error, true),
  config: json((p) => p.run.config, false),
  mode: enumValue((p) => p.run.mode, RUN_MODE_VALUES),
  currentStep: int((p) => p.run.currentStep, true),
  totalSteps: int((p) => runTotalSteps(p.run), true),
  backend: string((p) => p.run.backend, true),
  leaseOwner: string((p) => p.run.leaseOwner, true),
  leaseExpiresAt: dateTime((p) => p.run.leaseExpiresAt, true),
  stalled: boolean((p) => stalledSinceOf(p.run, loaded(p.activity)) !== null),
  stalledSince: dateTime((p) => stalledSinceOf(p.run, loaded(p.activity)), true),
  lastActivityAt: dateTime((p) => lastActivityOf(p.run, loaded(p.activity)), true),
  summary,
};

/** What a loader gave; never read before it was loaded. */
function loaded<T>(value: T | undefined): T {
  if (value === undefined) throw new Unplannable();
  return value;
}

const EDGE = object<PlannedEdge>('TrainingRunEdge', {
  cursor: string((e) => e.cursor),
  node: nested((e) => e.node, object('TrainingRun', RUN_FIELDS)),
});

/** The loaded parts an edges selection reads (by field name, under node), computed once per selection. */
const needsOf = new WeakMap<FieldNode, { tags: boolean; summaries: boolean; activity: boolean }>();
function needs(edgesField: FieldNode) {
  let found = needsOf.get(edgesField);
  if (!found) {
    const names = new Set<string>();
    for (const sel of edgesField.selectionSet?.selections ?? [])
      if (sel.kind === Kind.FIELD && sel.name.value === 'node')
        for (const f of sel.selectionSet?.selections ?? []) if (f.kind === Kind.FIELD) names.add(f.name.value);
    found = {
      tags: names.has('tags'),
      summaries: names.has('summary'),
      activity: names.has('stalled') || names.has('stalledSince') || names.has('lastActivityAt'),
    };
    needsOf.set(edgesField, found);
  }
  return found;
}

/** Query.runs' page, planned: its resolver keeps the page it read (runs.graphql.ts). */
export const runsListPlan: ConnectionPlan<PlannedEdge> = {
  field: 'runs',
  edge: EDGE,
  async prepare(edges, context, edgesField) {
    const { loaders } = context as Context;
    const want = needs(edgesField);
    const page = edges as readonly { readonly cursor: string; readonly node: TrainingRun }[];
    const ids = page.map((e) => e.node.id);
    // One batch per loader, as the fields' resolvers would have made them.
    const [tags, summaries, activity] = await Promise.all([
      want.tags ? Promise.all(ids.map((id) => loaders.tagsByRunId.load(id))) : undefined,
      want.summaries ? Promise.all(ids.map((id) => loaders.summariesByRunId.load(id))) : undefined,
      want.activity ? Promise.all(ids.map((id) => loaders.activityByRunId.load(id))) : undefined,
    ]);
    return page.map((e, i) => ({
      // The edge's cursor is computed when first read (pagination.ts): read it only if written.
      get cursor() {
        return e.cursor;
      },
      node: { run: e.node, tags: tags?.[i], summaries: summaries?.[i], activity: activity?.[i] },
    }));
  },
};
