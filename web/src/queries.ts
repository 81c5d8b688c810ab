// The operations the dashboard sends, and the shapes it reads back. Histories are always asked for
// downsampled (maxPoints), lists a page at a time, so a page stays fast with thousands of runs and
// histories of tens of thousands of points.

export type Status =
  'PENDING' | 'GENERATING' | 'COLLECTING' | 'SCORING' | 'TRAINING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
export const STATUSES: Status[] = [
  'PENDING',
  'GENERATING',
  'COLLECTING',
  'SCORING',
  'TRAINING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
];
export const FINAL: Status[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

/** Points asked for per history: plenty for a chart a few hundred pixels wide. */
export const MAX_POINTS = 500;
export const PAGE_SIZE = 50;

export interface Metrics {
  step: number;
  epoch: number;
  avgReward: number | null;
  minReward: number | null;
  maxReward: number | null;
  trainingLoss: number | null;
  totalTrajectories: number;
}

export interface RunSummary {
  id: string;
  databaseId: number;
  projectName: string;
  modelName: string;
  mode: 'PIPELINE' | 'TRACKED';
  status: Status;
  currentStep: number | null;
  totalSteps: number | null;
  createdAt: string;
  metrics: Metrics | null;
  /** A TRACKED run not finished whose rows stopped arriving for STALL_TIMEOUT_SECONDS. */
  stalled: boolean;
  stalledSince: string | null;
}

const METRICS = 'metrics { step epoch avgReward minReward maxReward trainingLoss totalTrajectories }';
const SUMMARY = `id databaseId projectName modelName mode status currentStep totalSteps createdAt stalled stalledSince ${METRICS}`;

export const SERVER_INFO = /* GraphQL */ `query DashboardServer { server { simulated version } viewer { authenticated openAccess scope keyName } }`;
export interface ServerInfoData {
  server: { simulated: boolean; version: string };
  viewer: { authenticated: boolean; openAccess: boolean; scope: 'READ' | 'WRITE' | 'ADMIN'; keyName: string | null };
}

export const RUNS = /* GraphQL */ `query DashboardRuns($filter: TrainingRunFilter, $first: Int, $after: String, $last: Int, $before: String) {
  runs(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { node { ${SUMMARY} } }
  }
}`;
export interface RunsData {
  runs: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
    edges: { node: RunSummary }[];
  };
}

export const RUN_STATUS_CHANGED = /* GraphQL */ `subscription DashboardRunStatus($runId: ID, $projectName: String) {
  runStatusChanged(runId: $runId, projectName: $projectName) { eventId from to at reason run { ${SUMMARY} error completedAt startedAt } }
}`;
export interface RunStatusData {
  runStatusChanged: {
    eventId: string;
    from: Status | null;
    to: Status;
    at: string;
    reason: string | null;
    run: RunSummary & { error: string | null; completedAt: string | null; startedAt: string | null };
  };
}

export interface NamedValue {
  name: string;
  value: number | null;
}

export interface MetricPoint {
  split: string;
  step: number;
  epoch: number;
  avgReward: number | null;
  minReward: number | null;
  maxReward: number | null;
  rewardStd: number | null;
  trainingLoss: number | null;
  values: NamedValue[];
  bucket: { count: number; min: NamedValue[]; max: NamedValue[] };
}
/** A history point as the run page asks for it (the bench times this selection too). */
export const POINT =
  'split step epoch avgReward minReward maxReward rewardStd trainingLoss values { name value } bucket { count min { name value } max { name value } }';

export interface StatusTransition {
  eventId: string;
  from: Status | null;
  to: Status;
  at: string;
  reason: string | null;
}

export interface RunDetail extends RunSummary {
  taskDescription: string;
  numExamples: number;
  rolloutsPerGroup: number;
  numEpochs: number;
  learningRate: number;
  maxSteps: number | null;
  systemPrompt: string | null;
  trainedModelName: string | null;
  error: string | null;
  startedAt: string | null;
  completedAt: string | null;
  backend: string | null;
  /** A TRACKED run: when its last rows arrived. */
  lastActivityAt: string | null;
  statusHistory: StatusTransition[];
  taskInputs: { inputText: string; step: number | null }[];
  /** The train split's history (with the named values asked for). */
  metricHistory: MetricPoint[];
  /** Every split of the history, and every value name in each (name null: the split itself). */
  metricNames: MetricName[];
  config: Record<string, unknown>;
}

export interface MetricName {
  split: string;
  name: string | null;
}

/** The run with its train history; `names` limits the named values read (null: all). */
export const RUN = /* GraphQL */ `query DashboardRun($id: ID!, $maxPoints: Int!, $names: [String!]) {
  run(id: $id) {
    ${SUMMARY}
    taskDescription numExamples rolloutsPerGroup numEpochs learningRate maxSteps systemPrompt trainedModelName error startedAt completedAt backend config lastActivityAt
    statusHistory { eventId from to at reason }
    taskInputs { inputText step }
    metricNames { split name }
    metricHistory(maxPoints: $maxPoints, names: $names) { ${POINT} }
  }
}`;

/** At most this many splits are charted, train included (one alias each; the server bounds aliases). */
export const MAX_SPLITS = 8;

/** The histories of several splits (train, val, …) in ONE query, one alias per split, each downsampled by the server. */
export function splitHistoriesQuery(count: number): string {
  const vars = Array.from({ length: count }, (_, i) => `$s${i}: String!`).join(', ');
  const fields = Array.from(
    { length: count },
    (_, i) => `h${i}: metricHistory(split: $s${i}, maxPoints: $maxPoints, names: $names) { ${POINT} }`,
  ).join('\n    ');
  return `query DashboardSplitHistories($id: ID!, $maxPoints: Int!, $names: [String!], ${vars}) {\n  run(id: $id) {\n    ${METRICS}\n    metricNames { split name }\n    ${fields}\n  }\n}`;
}
/** The run's metrics snapshot and metric names, and each split's history under its alias (h0, h1, …). */
export interface SplitHistoriesData {
  run: ({ metrics: Metrics | null; metricNames: MetricName[] } & { [alias: string]: unknown }) | null;
}

export interface Checkpoint {
  step: number;
  name: string;
  uri: string | null;
  createdAt: string;
  deletedAt: string | null;
  deletionReason: string | null;
  metrics: { name: string; value: number }[];
}
export interface BestCheckpoint {
  step: number;
  value: number;
  checkpoint: { step: number } | null;
}
/** The metric ART's delete_checkpoints keeps the best step by; train/reward when a run has no val history. */
export const BEST_METRICS = ['val/reward', 'train/reward'] as const;

export const CHECKPOINTS = /* GraphQL */ `query DashboardCheckpoints($id: ID!, $first: Int!, $afterStep: Int) {
  run(id: $id) {
    checkpoints(first: $first, afterStep: $afterStep) { step name uri createdAt deletedAt deletionReason metrics { name value } }
    bestVal: bestCheckpoint(metric: "val/reward") { step value checkpoint { step } }
    bestTrain: bestCheckpoint(metric: "train/reward") { step value checkpoint { step } }
  }
}`;
export interface CheckpointsData {
  run: { checkpoints: Checkpoint[]; bestVal: BestCheckpoint | null; bestTrain: BestCheckpoint | null } | null;
}
export interface RunData {
  run: RunDetail | null;
}

export const METRICS_RECORDED = /* GraphQL */ `subscription DashboardMetrics($runId: ID!) {
  metricsRecorded(runId: $runId) { points { ${POINT} } ${METRICS} }
}`;
export interface MetricsRecordedData {
  metricsRecorded: { points: MetricPoint[]; metrics: Metrics | null };
}

export const RUN_PROGRESS = /* GraphQL */ `subscription DashboardProgress($runId: ID!) {
  runProgress(runId: $runId) { stage step totalSteps epoch rolloutsDone rolloutsTotal judgeCallsDone judgeCallsTotal gradientStepsDone gradientStepsTotal }
}`;
export interface Progress {
  stage?: 'COLLECT' | 'SCORE' | 'TRAIN' | 'VALIDATE';
  step: number;
  totalSteps: number;
  epoch: number;
  rolloutsDone: number;
  rolloutsTotal: number;
  judgeCallsDone: number;
  judgeCallsTotal: number;
  gradientStepsDone: number;
  gradientStepsTotal: number | null;
}
export interface RunProgressData {
  runProgress: Progress;
}

/** A TRACKED run found stalled, or active again: of one run, of a project, or of every run. */
export const RUN_STALL_CHANGED = /* GraphQL */ `subscription DashboardRunStall($runId: ID, $projectName: String) {
  runStallChanged(runId: $runId, projectName: $projectName) { stalled stalledSince lastActivityAt run { id } }
}`;
export interface RunStallData {
  runStallChanged: { stalled: boolean; stalledSince: string | null; lastActivityAt: string; run: { id: string } };
}
export const CHECKPOINT_RECORDED = /* GraphQL */ `subscription DashboardCheckpoint($runId: ID!) { checkpointRecorded(runId: $runId) { step } }`;
export const TRAJECTORIES_RECORDED = /* GraphQL */ `subscription DashboardTrajectories($runId: ID!) { trajectoriesRecorded(runId: $runId) { count step } }`;
export const TRAJECTORIES_SCORED = /* GraphQL */ `subscription DashboardScored($runId: ID!) { trajectoriesScored(runId: $runId) { count step } }`;

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text, as the model wrote it. */
  arguments: string;
}
export interface Message {
  role: string;
  content: string;
  name: string | null;
  toolCallId: string | null;
  trainable: boolean;
  toolCalls: ToolCall[];
}
const MESSAGE = 'role content name toolCallId trainable toolCalls { id name arguments }';

export interface Trajectory {
  id: string;
  reward: number | null;
  judgeExplanation: string | null;
  error: string | null;
  droppedReason: string | null;
  isTest: boolean;
  createdAt: string;
  split: string;
  step: number;
  taskInput: { inputText: string; step: number | null };
  group: { index: number; exceptions: unknown } | null;
  tools: unknown;
  additionalHistories: { messages: Message[]; tools: unknown }[];
  messages: Message[];
}

export const TRAJECTORIES = /* GraphQL */ `query DashboardTrajectories($runId: ID!, $first: Int!, $after: String, $filter: TrajectoryFilter) {
  trajectories(runId: $runId, first: $first, after: $after, filter: $filter, orderBy: { field: REWARD, direction: DESC }) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { node { id reward judgeExplanation error droppedReason isTest createdAt split step taskInput { inputText step } group { index exceptions } tools additionalHistories { tools messages { ${MESSAGE} } } messages { ${MESSAGE} } } }
  }
}`;
export interface TrajectoriesData {
  trajectories: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: { node: Trajectory }[];
  };
}

export const CANCEL = /* GraphQL */ `mutation DashboardCancel($id: ID!) {
  cancelTrainingRun(id: $id, reason: "cancelled from the dashboard") {
    __typename
    ... on CancelTrainingRunPayload { run { id status } }
    ... on Error { message }
  }
}`;
export interface CancelData {
  cancelTrainingRun: { __typename: string; message?: string; run?: { id: string; status: Status } };
}

/** Compare: every run's reward curve in ONE query, one alias per run, each history downsampled by the server. */
export function compareQuery(count: number): string {
  const vars = Array.from({ length: count }, (_, i) => `$id${i}: ID!`).join(', ');
  const fields = Array.from(
    { length: count },
    (_, i) =>
      `r${i}: run(id: $id${i}) { id databaseId projectName modelName status metricHistory(maxPoints: $maxPoints) { step avgReward } }`,
  ).join('\n  ');
  return `query DashboardCompare(${vars}, $maxPoints: Int!) {\n  ${fields}\n}`;
}
/** At most this many runs in one comparison (the server bounds aliases per operation). */
export const MAX_COMPARED = 8;
export interface CompareRun {
  id: string;
  databaseId: number;
  projectName: string;
  modelName: string;
  status: Status;
  metricHistory: { step: number; avgReward: number | null }[];
}

// ---- finding and comparing runs (runs list search, compare view) ----

export interface SummaryMetric {
  split: string;
  name: string;
  last: number;
  min: number;
  max: number;
  step: number;
}

export interface ListedRun extends RunSummary {
  name: string | null;
  tags: string[];
  group: string | null;
  summary: SummaryMetric[];
}

/** The runs list: a page of runs matching the search, with their train and val reward summaries. */
export const RUNS_SEARCH = /* GraphQL */ `query DashboardRunsSearch($filter: TrainingRunFilter, $orderBy: TrainingRunOrder, $first: Int, $after: String, $last: Int, $before: String) {
  runs(filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { node { ${SUMMARY} name tags group summary(names: ["train/reward", "val/reward"]) { split name last min max step } } }
  }
}`;
export interface RunsSearchData {
  runs: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
    edges: { node: ListedRun }[];
  };
}

/** At most this many runs in one comparison. */
export const MAX_COMPARED_RUNS = 20;

export interface ComparedRun {
  id: string;
  databaseId: number;
  name: string | null;
  projectName: string;
  modelName: string;
  status: Status;
  startedAt: string | null;
  createdAt: string;
  learningRate: number;
  numExamples: number;
  rolloutsPerGroup: number;
  numEpochs: number;
  maxSteps: number | null;
  tags: string[];
  group: string | null;
  config: Record<string, unknown>;
  summary: SummaryMetric[];
}

/** Compare, part one: the runs themselves (config, summaries), all in one query through nodes(ids:). */
export const COMPARE_RUNS = /* GraphQL */ `query DashboardCompareRuns($ids: [ID!]!) {
  nodes(ids: $ids) { ... on TrainingRun { id databaseId name projectName modelName status startedAt createdAt learningRate numExamples rolloutsPerGroup numEpochs maxSteps tags group config summary { split name last min max step } } }
}`;
export interface CompareRunsData {
  nodes: (ComparedRun | null)[];
}

export interface ComparedPoint {
  step: number;
  recordedAt: string;
  avgReward: number | null;
  rewardStd: number | null;
  trainingLoss: number | null;
  values: NamedValue[];
}

/** Compare, part two: one split's history of every run, downsampled by the server, in one query. */
export const COMPARE_HISTORY = /* GraphQL */ `query DashboardCompare($ids: [ID!]!, $split: String!, $names: [String!], $maxPoints: Int!) {
  nodes(ids: $ids) { ... on TrainingRun { id metricHistory(maxPoints: $maxPoints, split: $split, names: $names) { step recordedAt avgReward rewardStd trainingLoss values { name value } } } }
}`;
export interface CompareHistoryData {
  nodes: ({ id: string; metricHistory: ComparedPoint[] } | null)[];
}

/** The same scenario side by side: each run's best trajectory of a step. */
export const COMPARE_TRAJECTORIES = /* GraphQL */ `query DashboardCompareTrajectories($ids: [ID!]!, $step: Int!, $split: String) {
  nodes(ids: $ids) { ... on TrainingRun { id trajectories(first: 1, filter: { step: $step, split: $split }, orderBy: { field: REWARD, direction: DESC }) { edges { node { id reward taskInput { inputText } messages { role content } } } } } }
}`;
export interface CompareTrajectoriesData {
  nodes: ({
    id: string;
    trajectories: {
      edges: {
        node: {
          id: string;
          reward: number | null;
          taskInput: { inputText: string };
          messages: { role: string; content: string }[];
        };
      }[];
    };
  } | null)[];
}

/** A run's identity and config, for its page: shown, and changed through updateRun. */
export const RUN_IDENTITY = /* GraphQL */ `query DashboardRunIdentity($id: ID!) {
  run(id: $id) { id name notes tags group config summary { split name last min max step } costs { name total steps } }
}`;
export interface RunIdentity {
  id: string;
  name: string | null;
  notes: string | null;
  tags: string[];
  group: string | null;
  config: Record<string, unknown>;
  summary: SummaryMetric[];
  costs: { name: string; total: number; steps: number }[];
}
export const UPDATE_RUN = /* GraphQL */ `mutation DashboardUpdateRun($id: ID!, $name: String, $notes: String, $tags: [String!], $group: String) {
  updateRun(id: $id, name: $name, notes: $notes, tags: $tags, group: $group) {
    __typename
    ... on ValidationError { issues { field message } }
    ... on Error { message }
  }
}`;

// ---- evaluations (evaluateCheckpoint) ----

export interface Evaluation {
  id: string;
  step: number;
  status: 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
  source: string;
  scenarioCount: number;
  modelName: string | null;
  error: string | null;
  createdAt: string;
  metrics: { name: string; value: number }[];
}
export const EVALUATIONS = /* GraphQL */ `query DashboardEvaluations($id: ID!) {
  run(id: $id) {
    id status
    evaluations(first: 50) { id step status source scenarioCount modelName error createdAt metrics { name value } }
    taskInputs { inputText split }
  }
}`;
export interface EvaluationsData {
  run: {
    id: string;
    status: string;
    evaluations: Evaluation[];
    taskInputs: { inputText: string; split: 'TRAIN' | 'VAL' }[];
  } | null;
}
export const EVALUATE = /* GraphQL */ `mutation DashboardEvaluate($runId: ID!, $step: Int!, $scenarios: [EvalScenarioInput!]) {
  evaluateCheckpoint(runId: $runId, step: $step, scenarios: $scenarios) {
    __typename
    ... on EvaluateCheckpointPayload { evaluation { id step status } }
    ... on Error { message }
  }
}`;
export interface EvaluateData {
  evaluateCheckpoint: { __typename: string; evaluation?: { id: string }; message?: string };
}
export const EVALUATION_PROGRESS = /* GraphQL */ `subscription DashboardEvaluationProgress($id: ID!) {
  evaluationProgress(evaluationId: $id) { status rolloutsDone rolloutsTotal judgeCallsDone judgeCallsTotal }
}`;
export interface EvaluationProgressData {
  evaluationProgress: {
    status: Evaluation['status'];
    rolloutsDone: number;
    rolloutsTotal: number;
    judgeCallsDone: number;
    judgeCallsTotal: number;
  };
}
