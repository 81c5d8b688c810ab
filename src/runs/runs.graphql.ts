// GraphQL types and fields for training runs. Thin: parse arguments, call a service, return.
import type { GraphQLResolveInfo } from 'graphql';

import type { Context } from '../context';
import { datasetIdOf, ScenarioInput, ScenarioSplitEnum } from '../datasets/datasets.graphql';
import { parseDate } from '../db/timestamps';
import { batchAt } from '../domain/dataset';
import { MissingSettingError, pipelineSettingsOf } from '../domain/pipeline-settings';
import { parseRunQuery, QUERY_LIMITS, QuerySyntaxError, type QueryNode } from '../domain/run-query';
import { TRAINING_STATUSES, type TrainingStatus } from '../domain/status-machine';
import type { TrainingMetrics } from '../domain/training-metrics';
import { ConflictError, IllegalTransitionError, NotFoundError, RunModeError, ValidationError } from '../errors';
import { builder } from '../graphql/builder';
import { keepPage, pageReadBefore, plannedFieldNodes } from '../graphql/connection-plan';
import { encodeGlobalId, parseGlobalIdOf } from '../graphql/global-id';
import { FloatRangeInput, OrderDirectionEnum, RunModeEnum } from '../graphql/inputs';
import { pageWindow, toConnection, type CursorShape } from '../graphql/pagination';
import { selectedFieldsAt } from '../graphql/selection';
import { PipelineSettingsInput } from './pipeline-settings.graphql';
import { runName, runTotalSteps } from './run-fields';
import type { StatusTransition, TaskInput, TrainingRun } from './run.model';
import { RUN_LIMITS, runRules } from './run.rules';
import type { RunFilter, RunOrderField } from './runs.repo';
import type { RunIdentityChanges } from './runs.service';
import { trackingGuard } from './write-guard';

/** TrainingStatus's names and the values they stand for (runs-list-plan.ts writes them too). */
export const TRAINING_STATUS_VALUES = Object.fromEntries(
  TRAINING_STATUSES.map((s) => [s.toUpperCase(), { value: s }]),
) as Record<Uppercase<TrainingStatus>, { value: TrainingStatus }>;

export const TrainingStatusEnum = builder.enumType('TrainingStatus', {
  description:
    'Where a run is in its lifecycle: PENDING → GENERATING → COLLECTING → SCORING → TRAINING → (COLLECTING …) → COMPLETED; FAILED or CANCELLED from any non-final state.',
  values: TRAINING_STATUS_VALUES,
});

export const TrainingMetricsRef = builder.objectRef<TrainingMetrics>('TrainingMetrics').implement({
  description:
    "The run's latest metrics: reward statistics of the latest step, total trajectories stored, and the latest loss.",
  fields: (t) => ({
    totalTrajectories: t.exposeInt('totalTrajectories'),
    avgReward: t.exposeFloat('avgReward', { nullable: true }),
    minReward: t.exposeFloat('minReward', { nullable: true }),
    maxReward: t.exposeFloat('maxReward', { nullable: true }),
    trainingLoss: t.exposeFloat('trainingLoss', { nullable: true }),
    epoch: t.exposeInt('epoch'),
    step: t.exposeInt('step'),
  }),
});

export const TaskInputRef = builder.objectRef<TaskInput>('TaskInput').implement({
  description: "One input of a run's dataset. step 999 marks a test input, as in ART's notebooks.",
  fields: (t) => ({
    step: t.exposeInt('step'),
    inputText: t.exposeString('inputText'),
    context: t.field({ type: 'JSON', nullable: true, resolve: (i) => i.context }),
    split: t.field({
      type: ScenarioSplitEnum,
      description: 'TRAIN inputs are trained on; VAL inputs (a held-out part of your scenarios) are not.',
      resolve: (i) => i.split ?? 'train',
    }),
  }),
});

export const TrainingInputBatchRef = builder
  .objectRef<{ step: number; epoch: number; epochStep: number; items: TaskInput[] }>('TrainingInputBatch')
  .implement({
    description: "One step's batch of ART's dataset iteration: the inputs a training step works on.",
    fields: (t) => ({
      step: t.exposeInt('step'),
      epoch: t.exposeInt('epoch'),
      epochStep: t.exposeInt('epochStep'),
      items: t.field({ type: [TaskInputRef], resolve: (b) => b.items }),
    }),
  });

export const StatusTransitionRef = builder.objectRef<StatusTransition>('StatusTransition').implement({
  description: "One change of a run's status. The first has no `from`: the run was created.",
  fields: (t) => ({
    eventId: t.string({
      description: 'Increases with every transition; resume subscriptions after it.',
      resolve: (r) => String(r.id),
    }),
    from: t.field({ type: TrainingStatusEnum, nullable: true, resolve: (r) => r.fromStatus as TrainingStatus | null }),
    to: t.field({ type: TrainingStatusEnum, resolve: (r) => r.toStatus as TrainingStatus }),
    at: t.field({ type: 'DateTime', resolve: (r) => parseDate(r.at) }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

export const TrainingRunRef = builder.objectRef<TrainingRun>('TrainingRun');
/** The node: `t.arg.globalID({ for: TrainingRunNode })` gives resolvers the run's database id as a number. */
export const TrainingRunNode = builder.node(TrainingRunRef, {
  description:
    "A training session in Atelier: its configuration, status, dataset, trajectories and metrics, as ART's notebooks describe a training run.",
  // The global id's digits were checked when it was decoded (graphql/global-id.ts).
  id: { resolve: (r) => r.id, parse: (id) => Number(id) },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'taskDescription' in v,
  loadMany: (ids, ctx: Context) => Promise.all(ids.map((id) => ctx.loaders.runById.load(id))),
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The row id in training_runs.' }),
    name: t.string({
      nullable: true,
      description:
        "The run's name: the one given at creation or by updateRun, else ART's model name (trainedModelName).",
      resolve: runName,
    }),
    notes: t.exposeString('notes', { nullable: true, description: 'Notes about the run, in Markdown.' }),
    tags: t.stringList({
      description: "The run's tags, sorted.",
      resolve: (r, _a, ctx) => ctx.loaders.tagsByRunId.load(r.id),
    }),
    group: t.exposeString('group', {
      nullable: true,
      description: 'The group the run belongs to (W&B run groups: the seeds of one experiment, a sweep).',
    }),
    uuid: t.exposeString('uuid'),
    status: t.field({ type: TrainingStatusEnum, resolve: (r) => r.status }),
    modelName: t.exposeString('modelName', { description: 'The base model, e.g. Qwen/Qwen2.5-1.5B-Instruct.' }),
    projectName: t.exposeString('projectName', { description: 'The ART project.' }),
    trainedModelName: t.exposeString('trainedModelName', { nullable: true }),
    taskDescription: t.exposeString('taskDescription'),
    numExamples: t.exposeInt('numExamples'),
    rolloutsPerGroup: t.exposeInt('rolloutsPerGroup'),
    learningRate: t.exposeFloat('learningRate'),
    numEpochs: t.exposeInt('numEpochs'),
    maxSteps: t.exposeInt('maxSteps', { nullable: true }),
    systemPrompt: t.exposeString('systemPrompt', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
    startedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.startedAt }),
    completedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the run reached a final state.',
      resolve: (r) => r.completedAt,
    }),
    metrics: t.field({ type: TrainingMetricsRef, nullable: true, resolve: (r) => r.metrics }),
    error: t.exposeString('error', { nullable: true }),
    config: t.field({ type: 'JSON', resolve: (r) => r.config }),
    mode: t.field({ type: RunModeEnum, resolve: (r) => r.mode }),
    currentStep: t.exposeInt('currentStep', { nullable: true, description: 'The step a pipeline run is working on.' }),
    totalSteps: t.int({
      nullable: true,
      description:
        "Training steps the run will take: for a pipeline run ART's dataset iteration over numExamples inputs (groupsPerStep a step, numEpochs epochs, capped by maxSteps); for a tracked run maxSteps, if set.",
      resolve: runTotalSteps,
    }),
    backend: t.exposeString('backend', { nullable: true, description: 'The ART backend a pipeline run trains on.' }),
    leaseOwner: t.exposeString('leaseOwner', {
      nullable: true,
      description: 'The Atelier instance driving the run now.',
    }),
    leaseExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        "When the driving instance's claim lapses unless renewed; another instance takes the run over after it.",
      resolve: (r) => r.leaseExpiresAt,
    }),
    queuePosition: t.int({
      nullable: true,
      description:
        'For a PENDING pipeline run: how many runs are ahead of it on its backend (0: it starts next). Null otherwise.',
      resolve: (r, _a, ctx) => ctx.services.runs.queuePosition(r),
    }),
    statusHistory: t.field({
      type: [StatusTransitionRef],
      description: 'Every transition, oldest first.',
      resolve: (r, _a, ctx) => ctx.loaders.statusHistoryByRunId.load(r.id),
    }),
    taskInputs: t.field({
      type: [TaskInputRef],
      description: "The run's dataset, in order.",
      resolve: (r, _a, ctx) => ctx.loaders.taskInputsByRunId.load(r.id),
    }),
    inputBatch: t.field({
      type: TrainingInputBatchRef,
      nullable: true,
      description: "The batch ART's dataset iteration gives for a step, over this run's taskInputs.",
      args: {
        step: t.arg.int({ required: true, validate: { schema: runRules.maxSteps.min(0) } }),
        groupsPerStep: t.arg.int({
          description: "Defaults to the run's pipeline setting (2 unless set).",
          validate: { schema: runRules.rolloutsPerGroup },
        }),
      },
      resolve: async (r, args, ctx) => {
        const items = await ctx.loaders.taskInputsByRunId.load(r.id);
        const groupsPerStep = args.groupsPerStep ?? pipelineSettingsOf(r.config).groupsPerStep;
        return batchAt(items, { groupsPerStep, numEpochs: r.numEpochs, maxSteps: r.maxSteps }, args.step);
      },
    }),
  }),
});

// ---- runs(filter, orderBy) ----

/**
 * The run properties each TrainingRun field above reads. A runs page whose items ask only for these
 * fields reads only their columns (each column read costs, and a list reads 50 rows); a field not
 * listed here (queuePosition, or one another module adds to TrainingRun) makes the page read whole
 * rows. taskDescription is always read: isTypeOf looks for it.
 */
const SAME_NAME = [
  'uuid',
  'status',
  'modelName',
  'projectName',
  'trainedModelName',
  'taskDescription',
  'numExamples',
  'rolloutsPerGroup',
  'learningRate',
  'numEpochs',
  'maxSteps',
  'systemPrompt',
  'createdAt',
  'startedAt',
  'completedAt',
  'metrics',
  'error',
  'config',
  'mode',
  'currentStep',
  'backend',
  'leaseOwner',
  'leaseExpiresAt',
] as const satisfies readonly (keyof TrainingRun)[];
const READS: Record<string, readonly (keyof TrainingRun)[]> = {
  ...Object.fromEntries(SAME_NAME.map((p) => [p, [p]])),
  __typename: [],
  id: ['id'],
  databaseId: ['id'],
  totalSteps: ['mode', 'numExamples', 'config', 'numEpochs', 'maxSteps'],
  statusHistory: ['id'],
  taskInputs: ['id'],
  inputBatch: ['id', 'config', 'numEpochs', 'maxSteps'],
  name: ['name', 'trainedModelName'],
  notes: ['notes'],
  group: ['group'],
  // read by loaders keyed by the run's id (run-summary.graphql.ts, tags above)
  tags: ['id'],
  summary: ['id'],
  costs: ['id'],
  stalled: ['id', 'mode', 'status'],
  stalledSince: ['id', 'mode', 'status'],
  lastActivityAt: ['id', 'mode', 'startedAt', 'createdAt'],
};
const ALWAYS: readonly (keyof TrainingRun)[] = ['id', 'taskDescription'];

/**
 * The properties a runs page must read for this selection, or undefined for whole rows. Planned
 * (runs-list-plan.ts), the field runs without its edges: the selection is read as written.
 */
function runPropertiesFor(ctx: Context, info: GraphQLResolveInfo): (keyof TrainingRun)[] | undefined {
  const props = new Set(ALWAYS);
  const selection = { fieldNodes: plannedFieldNodes(ctx, info), fragments: info.fragments };
  for (const field of selectedFieldsAt(selection, ['edges', 'node'])) {
    const reads = Object.hasOwn(READS, field) ? READS[field] : undefined;
    if (!reads) return undefined;
    for (const p of reads) props.add(p);
  }
  return [...props].sort();
}

const RunOrderFieldEnum = builder.enumType('TrainingRunOrderField', {
  values: {
    CREATED_AT: { value: 'createdAt' },
    AVG_REWARD: { value: 'avgReward', description: 'The latest avgReward; runs without one come last.' },
    METRIC: {
      value: 'metric',
      description:
        'The last value of the summary metric named by `metric` (e.g. val/reward); runs without it come last.',
    },
  } as const,
});

const RunOrderInput = builder.inputType('TrainingRunOrder', {
  fields: (t) => ({
    field: t.field({ type: RunOrderFieldEnum, required: true }),
    direction: t.field({ type: OrderDirectionEnum, required: true }),
    metric: t.string({
      description: 'With field METRIC: the summary metric, `<split>/<name>` as run.summary names it.',
      validate: { schema: runRules.summaryName },
    }),
  }),
  validate: [
    (o) => (o.field === 'metric') === (o.metric != null),
    { message: 'give metric with field METRIC, and only then', path: ['metric'] },
  ],
});

const RunFilterInput = builder.inputType('TrainingRunFilter', {
  fields: (t) => ({
    status: t.field({ type: [TrainingStatusEnum], description: 'Any of these statuses.', validate: { maxLength: 8 } }),
    projectName: t.string({ validate: { maxLength: 200 } }),
    modelName: t.string({ validate: { maxLength: 200 } }),
    createdAfter: t.field({ type: 'DateTime' }),
    createdBefore: t.field({ type: 'DateTime' }),
    taskDescriptionContains: t.string({ description: 'Case-insensitive substring.', validate: { maxLength: 200 } }),
    avgReward: t.field({ type: FloatRangeInput, description: 'Range on the latest avgReward.' }),
    query: t.string({
      description:
        'A search in the run query language (README, "Finding runs"): `tag = baseline AND config.learning_rate >= 1e-5 AND metrics.val/reward > 0.6`, `status IN (failed, cancelled) OR project ~ supp`, free words over name, notes and description. ANDed with the other fields.',
      validate: { maxLength: QUERY_LIMITS.length },
    }),
  }),
});

/** The query text parsed, or a ValidationError on filter.query that says where and what was expected. */
function parseQuery(text: string | null | undefined): QueryNode | null {
  if (text == null) return null;
  try {
    return parseRunQuery(text);
  } catch (e) {
    if (e instanceof QuerySyntaxError) throw ValidationError.of('filter.query', e.rule, e.message);
    throw e;
  }
}

builder.queryFields((t) => ({
  run: t.field({
    type: TrainingRunRef,
    nullable: true,
    description: 'One run, by global id or by uuid.',
    // A plain ID, decoded in the resolver: relay decodes globalID args before the one-of rule below runs,
    // and `run(id: "x", uuid: "y")` must say to give exactly one, not that "x" is malformed.
    args: { id: t.arg.id(), uuid: t.arg.string({ validate: { schema: runRules.uuid } }) },
    validate: [(a) => (a.id == null) !== (a.uuid == null), { message: 'give exactly one of id or uuid' }],
    resolve: async (_root, args, ctx) => {
      // Both answer null for a run outside the caller's projects, as for one that does not exist.
      if (args.id != null) return ctx.loaders.runById.load(parseGlobalIdOf('TrainingRun', String(args.id)));
      return ctx.viewer.projects.visible(await ctx.services.runs.findByUuid(args.uuid!));
    },
  }),
  runs: t.connection(
    {
      type: TrainingRunRef,
      description:
        'Runs, newest first unless ordered otherwise. Keyset-paginated: any page costs what the first costs.',
      args: {
        filter: t.arg({ type: RunFilterInput }),
        orderBy: t.arg({ type: RunOrderInput }),
      },
      resolve: async (_root, args, ctx, info) => {
        const before = pageReadBefore<Awaited<ReturnType<typeof toConnection<TrainingRun>>>>(ctx, info);
        if (before) return before;
        const filter: RunFilter = {
          status: args.filter?.status,
          projectName: args.filter?.projectName,
          // Only the projects the caller reaches: counts, pages and cursors never see the others.
          projectNames: ctx.viewer.projects.projectNames,
          modelName: args.filter?.modelName,
          createdAfter: args.filter?.createdAfter,
          createdBefore: args.filter?.createdBefore,
          taskDescriptionContains: args.filter?.taskDescriptionContains,
          avgRewardMin: args.filter?.avgReward?.min,
          avgRewardMax: args.filter?.avgReward?.max,
        };
        const query = parseQuery(args.filter?.query);
        const field: RunOrderField = args.orderBy?.field ?? 'createdAt';
        const desc = (args.orderBy?.direction ?? 'desc') === 'desc';
        const metric = args.orderBy?.metric ?? undefined;
        const shape: CursorShape = {
          order: `runs:${field}${metric ? `(${metric})` : ''}:${desc ? 'desc' : 'asc'}`,
          query: { ...filter, query: args.filter?.query ?? null },
          valueKind: field === 'createdAt' ? 'string' : 'number',
        };
        const full: RunFilter = { ...filter, query };
        const page = await ctx.services.runs.page(
          full,
          { field, desc, metric },
          pageWindow(args, shape),
          runPropertiesFor(ctx, info),
        );
        const connection = toConnection(page, shape, () => ctx.services.runs.count(full));
        keepPage(ctx, info, connection);
        return connection;
      },
    },
    {
      name: 'TrainingRunConnection',
      fields: (c) => ({
        totalCount: c.int({ description: 'How many runs match the filter.', resolve: (conn) => conn.totalCount() }),
      }),
    },
    { name: 'TrainingRunEdge' },
  ),
}));

// ---- mutations ----

const CreateTrainingRunInput = builder.inputType('CreateTrainingRunInput', {
  description: "A run's configuration: the fields of a TrainingRun. Omitted numbers take Atelier's defaults.",
  fields: (t) => ({
    uuid: t.string({
      description: 'Your own id for the run (a UUID); generated when omitted.',
      validate: { schema: runRules.uuid },
    }),
    modelName: t.string({
      required: true,
      description: 'The base model, e.g. Qwen/Qwen2.5-1.5B-Instruct.',
      validate: { schema: runRules.name },
    }),
    projectName: t.string({ required: true, validate: { schema: runRules.name } }),
    trainedModelName: t.string({ validate: { schema: runRules.name } }),
    taskDescription: t.string({ required: true, validate: { schema: runRules.taskDescription } }),
    numExamples: t.int({ description: 'Default 100.', validate: { schema: runRules.numExamples } }),
    rolloutsPerGroup: t.int({ description: 'Default 4.', validate: { schema: runRules.rolloutsPerGroup } }),
    learningRate: t.float({
      description: 'Default 1e-5; 0 < learningRate ≤ 1.',
      validate: { schema: runRules.learningRate },
    }),
    numEpochs: t.int({ description: 'Default 1.', validate: { schema: runRules.numEpochs } }),
    maxSteps: t.int({ validate: { schema: runRules.maxSteps } }),
    systemPrompt: t.string({ validate: { schema: runRules.systemPrompt } }),
    config: t.field({
      type: 'JSON',
      description: 'Any further configuration: a JSON object of at most 64 KiB.',
      validate: { schema: runRules.config },
    }),
    mode: t.field({
      type: RunModeEnum,
      description: 'Default PIPELINE: Atelier drives the run. TRACKED: your script reports into it.',
    }),
    pipeline: t.field({ type: PipelineSettingsInput, description: 'Settings of a PIPELINE run.' }),
    name: t.string({
      description: "The run's name; defaults to trainedModelName (ART's model name).",
      validate: { schema: runRules.name },
    }),
    notes: t.string({ description: 'Notes, in Markdown.', validate: { schema: runRules.notes } }),
    tags: t.stringList({ validate: { maxLength: RUN_LIMITS.tags, items: { schema: runRules.tag } } }),
    group: t.string({ validate: { schema: runRules.name } }),
    scenarios: t.field({
      type: [ScenarioInput],
      description:
        "A PIPELINE run's own inputs instead of generated ones (numExamples becomes the TRAIN count); VAL ones are held out. At most one of scenarios and datasetId.",
      validate: { maxLength: 10_000 },
    }),
    datasetId: t.id({ description: "A stored dataset (createDataset) whose items become the run's inputs." }),
  }),
});

const RunPayload = (name: string) =>
  builder
    .objectRef<{ run: TrainingRun }>(name)
    .implement({ fields: (t) => ({ run: t.field({ type: TrainingRunRef, resolve: (p) => p.run }) }) });

builder.mutationFields((t) => ({
  createTrainingRun: t.field({
    type: RunPayload('CreateTrainingRunPayload'),
    description: 'Creates a run in PENDING.',
    errors: { types: [ValidationError, ConflictError, MissingSettingError], directResult: true },
    args: { input: t.arg({ type: CreateTrainingRunInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      run: await ctx.services.runs.create(
        {
          ...input,
          config: input.config as Record<string, unknown> | null | undefined,
          pipeline: input.pipeline && {
            ...input.pipeline,
            evalScenarios: input.pipeline.evalScenarios?.map((s) => ({
              inputText: s.inputText,
              context: (s.context as Record<string, unknown> | null | undefined) ?? null,
            })),
          },
          scenarios: input.scenarios?.map((s) => ({
            inputText: s.inputText,
            context: (s.context as Record<string, unknown> | null | undefined) ?? null,
            split: s.split ?? null,
          })),
          datasetId: input.datasetId == null ? null : datasetIdOf(String(input.datasetId), 'input.datasetId'),
        },
        ctx.viewer.projects,
      ),
    }),
  }),
  updateRun: t.field({
    type: RunPayload('UpdateRunPayload'),
    description:
      "Renames a run or changes its notes, tags or group, in any status and of either mode. A field left out stays as it is; null clears it (a cleared name falls back to trainedModelName); tags replace the run's tags.",
    errors: { types: [ValidationError, NotFoundError], directResult: true },
    args: {
      id: t.arg.globalID({ required: true, for: TrainingRunNode }),
      name: t.arg.string({ validate: { schema: runRules.name } }),
      notes: t.arg.string({ validate: { schema: runRules.notes } }),
      tags: t.arg.stringList({ validate: { maxLength: RUN_LIMITS.tags, items: { schema: runRules.tag } } }),
      group: t.arg.string({ validate: { schema: runRules.name } }),
    },
    resolve: async (_root, args, ctx) => {
      const changes: RunIdentityChanges = {};
      // Pothos hands an omitted argument as undefined and an explicit null as null.
      if (args.name !== undefined) changes.name = args.name;
      if (args.notes !== undefined) changes.notes = args.notes;
      if (args.tags !== undefined) changes.tags = args.tags ?? [];
      if (args.group !== undefined) changes.group = args.group;
      return { run: await ctx.services.runs.updateIdentity(args.id.id, changes, ctx.viewer.projects) };
    },
  }),
  transitionRun: t.field({
    type: RunPayload('TransitionRunPayload'),
    description:
      "Moves a TRACKED run to another status, as its state machine allows. FAILED needs a reason, which becomes the run's error. A PIPELINE run's status is Atelier's own (RunModeError).",
    errors: { types: [ValidationError, NotFoundError, IllegalTransitionError, RunModeError], directResult: true },
    args: {
      runId: t.arg.globalID({ required: true, for: TrainingRunNode }),
      to: t.arg({ type: TrainingStatusEnum, required: true }),
      reason: t.arg.string({ validate: { schema: runRules.reason } }),
    },
    resolve: async (_root, args, ctx) => ({
      run: await ctx.services.runs.transition(
        args.runId.id,
        args.to,
        args.reason ?? null,
        {},
        trackingGuard(ctx.viewer.projects),
      ),
    }),
  }),
  cancelTrainingRun: t.field({
    type: RunPayload('CancelTrainingRunPayload'),
    description:
      'Stops a run wherever it is: CANCELLED at once, in-flight calls to the backend and providers aborted, nothing more written.',
    errors: { types: [ValidationError, NotFoundError, IllegalTransitionError], directResult: true },
    args: {
      id: t.arg.globalID({ required: true, for: TrainingRunNode }),
      reason: t.arg.string({ validate: { maxLength: 10_000 } }),
    },
    resolve: async (_root, args, ctx) => ({
      run: await ctx.services.runs.cancel(args.id.id, ctx.viewer.projects, args.reason ?? undefined),
    }),
  }),
  deleteTrainingRun: t.field({
    type: builder.objectRef<{ run: TrainingRun }>('DeleteTrainingRunPayload').implement({
      fields: (f) => ({
        deletedRunId: f.id({ resolve: (p) => encodeGlobalId('TrainingRun', p.run.id) }),
        uuid: f.string({ resolve: (p) => p.run.uuid }),
      }),
    }),
    description: 'Deletes a COMPLETED, FAILED or CANCELLED run with its trajectories, metrics and history.',
    errors: { types: [ValidationError, NotFoundError, ConflictError], directResult: true },
    args: { id: t.arg.globalID({ required: true, for: TrainingRunNode }) },
    resolve: async (_root, args, ctx) => ({ run: await ctx.services.runs.delete(args.id.id, ctx.viewer.projects) }),
  }),
}));
