// GraphQL types and fields for trajectories: the node, the per-run connection, and recording.
import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';

import type { Context } from '../context';
import type { TrajectoryGroupRow } from '../db/entities';
import { parseArtGroupsJson } from '../domain/art-groups-json';
import { seedViewMessages } from '../domain/art-trajectory';
import { ConflictError, NotFoundError, RunModeError, ValidationError } from '../errors';
import type { TrajectoriesRecordedEvent, TrajectoriesScoredEvent } from '../events/topics';
import { reserveMeasured } from '../graphql/answer-budget';
import { builder } from '../graphql/builder';
import { keepPage, pageReadBefore, plannedFieldNodes } from '../graphql/connection-plan';
import { OrderDirectionEnum, SPLIT_RULE } from '../graphql/inputs';
import { jsonObject } from '../graphql/json-rules';
import { pageWindow, toConnection, type ConnectionArgs, type CursorShape } from '../graphql/pagination';
import { selectsPath } from '../graphql/selection';
import { shareSubscribers } from '../graphql/shared-subscription';
import { freshEvent, subscribeForRun } from '../runs/run-subscription';
import { TaskInputRef, TrainingRunNode, TrainingRunRef } from '../runs/runs.graphql';
import { trackingGuard } from '../runs/write-guard';
import type { TrajectoryFilter, TrajectoryOrderField } from './trajectories.repo';
import { MAX_TRAJECTORIES_PER_CALL } from './trajectories.service';
import { artOfSeedRow, messagesFromJson, type Trajectory, type TrajectoryMessage } from './trajectory.model';

const ToolCallRef = builder.objectRef<NonNullable<TrajectoryMessage['toolCalls']>[number]>('ToolCall').implement({
  description:
    "A tool call the assistant made (OpenAI's tool_calls): the function's name and its arguments as JSON text.",
  fields: (t) => ({
    id: t.exposeString('id'),
    type: t.exposeString('type', { description: 'function, as OpenAI and ART name it.' }),
    name: t.exposeString('name'),
    arguments: t.exposeString('arguments', { description: 'The arguments as the model wrote them (JSON text).' }),
  }),
});

const TrajectoryMessageRef = builder.objectRef<TrajectoryMessage>('TrajectoryMessage').implement({
  description: 'One message of a trajectory, as ART records a conversation.',
  fields: (t) => ({
    role: t.exposeString('role', { description: 'system, user, assistant or tool.' }),
    content: t.exposeString('content', {
      description:
        'The text: "" for null content, a part list\'s text parts joined by newlines (the parts themselves are in `art`).',
    }),
    toolCalls: t.field({ type: [ToolCallRef], resolve: (m) => m.toolCalls ?? [] }),
    toolCallId: t.string({
      nullable: true,
      description: 'A tool result: the call it answers.',
      resolve: (m) => m.toolCallId ?? null,
    }),
    name: t.string({ nullable: true, resolve: (m) => m.name ?? null }),
    trainable: t.boolean({
      description: "An ART choice: the model's own turn, the tokens training learns from.",
      resolve: (m) => m.trainable === true,
    }),
  }),
});

const TrajectoryHistoryRef = builder
  .objectRef<{ messages: TrajectoryMessage[]; tools: unknown }>('TrajectoryHistory')
  .implement({
    description: "One of ART's additional_histories (a sub-agent's or a compacted conversation).",
    fields: (t) => ({
      messages: t.field({ type: [TrajectoryMessageRef], resolve: (h) => h.messages }),
      tools: t.field({ type: 'JSON', nullable: true, resolve: (h) => h.tools ?? null }),
    }),
  });

const TrajectoryGroupRef = builder.objectRef<TrajectoryGroupRow>('TrajectoryGroup').implement({
  description:
    "The ART TrajectoryGroup a trajectory came in: its position in its step, metadata, metrics, logs and the rollouts' exceptions.",
  fields: (t) => {
    const field = (key: string) => (g: TrajectoryGroupRow) =>
      (JSON.parse(g.art) as Record<string, unknown>)[key] ?? null;
    return {
      index: t.exposeInt('groupIndex', { description: "The group's position in its step (ART's group_index)." }),
      step: t.exposeInt('step'),
      split: t.exposeString('split'),
      metadata: t.field({ type: 'JSON', resolve: field('metadata') }),
      metrics: t.field({ type: 'JSON', resolve: field('metrics') }),
      logs: t.field({ type: 'JSON', resolve: field('logs') }),
      exceptions: t.field({
        type: 'JSON',
        description: "ART's exceptions of the group: [{type, message, traceback}].",
        resolve: field('exceptions'),
      }),
      art: t.field({
        type: 'JSON',
        description: "The group's JSON without its trajectories, as ART dumps it.",
        resolve: (g) => JSON.parse(g.art),
      }),
    };
  },
});

/** The ART JSON of a trajectory: as recorded for ART rows, as ART would dump it for seed-shaped ones. */
async function artOf(tr: Trajectory, ctx: Context): Promise<Record<string, unknown>> {
  return (await ctx.loaders.artByTrajectoryId.load(tr.id)) ?? artOfSeedRow(tr);
}

export const TrajectoryRef = builder.objectRef<Trajectory>('Trajectory');
builder.node(TrajectoryRef, {
  description: 'One rollout: the conversation, its reward and metadata, as ART records a trajectory.',
  id: { resolve: (t) => t.id },
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'messages' in v && 'taskInput' in v,
  loadMany: (ids, ctx: Context) =>
    Promise.all(ids.map((id) => (/^\d+$/.test(id) ? ctx.loaders.trajectoryById.load(Number(id)) : null))),
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    uuid: t.exposeString('uuid'),
    run: t.field({
      type: TrainingRunRef,
      resolve: (tr, _a, ctx) => ctx.services.runs.get(tr.runId, ctx.loaders.runById),
    }),
    taskInput: t.field({ type: TaskInputRef, resolve: (tr) => tr.taskInput }),
    messages: t.field({ type: [TrajectoryMessageRef], resolve: (tr) => tr.messages }),
    reward: t.exposeFloat('reward', { nullable: true }),
    metadata: t.field({ type: 'JSON', resolve: (tr) => tr.metadata }),
    createdAt: t.field({ type: 'DateTime', resolve: (tr) => tr.createdAt }),
    split: t.exposeString('split', {
      description: "The split it was logged under: train, val, or any name (ART's model.log(split=)).",
    }),
    step: t.int({ description: 'The step it belongs to (taskInput.step).', resolve: (tr) => tr.taskInput.step }),
    group: t.field({
      type: TrajectoryGroupRef,
      nullable: true,
      description: "The ART group it was recorded in; null for trajectories recorded in the seed's shape.",
      resolve: (tr, _a, ctx) => (tr.groupId === null ? null : ctx.loaders.trajectoryGroupById.load(tr.groupId)),
    }),
    tools: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The tools the model was offered (OpenAI tool definitions), as ART records them.',
      resolve: async (tr, _a, ctx) => (await artOf(tr, ctx)).tools ?? null,
    }),
    additionalHistories: t.field({
      type: [TrajectoryHistoryRef],
      resolve: async (tr, _a, ctx) => {
        const histories = (await artOf(tr, ctx)).additional_histories;
        return Array.isArray(histories)
          ? histories.map((h: { messages_and_choices?: unknown; tools?: unknown }) => ({
              messages: messagesFromJson(JSON.stringify(seedViewMessages(h.messages_and_choices))),
              tools: h.tools ?? null,
            }))
          : [];
      },
    }),
    art: t.field({
      type: 'JSON',
      description:
        'The trajectory as ART\'s own `model_dump(mode="json")` gives it, key for key: every message and choice (logprobs included), tools, additional_histories, reward, policy versions, metrics, metadata, logs and any field a newer ART adds. For trajectories recorded in the seed\'s shape, the JSON ART would dump for them.',
      resolve: (tr, _a, ctx) => artOf(tr, ctx),
    }),
  }),
});

const TrajectoryOrderFieldEnum = builder.enumType('TrajectoryOrderField', {
  values: {
    CREATED_AT: { value: 'createdAt' },
    REWARD: { value: 'reward', description: 'Trajectories without a reward come last.' },
  } as const,
});

const TrajectoryOrderInput = builder.inputType('TrajectoryOrder', {
  fields: (t) => ({
    field: t.field({ type: TrajectoryOrderFieldEnum, required: true }),
    direction: t.field({ type: OrderDirectionEnum, required: true }),
  }),
});

const TrajectoryFilterInput = builder.inputType('TrajectoryFilter', {
  fields: (t) => ({
    split: t.string({ description: 'Only this split (train, val, …).', validate: { schema: SPLIT_RULE } }),
    step: t.int({ validate: { schema: z.number().int().min(0) } }),
    rewardMin: t.float(),
    rewardMax: t.float(),
    hasReward: t.boolean({ description: 'true: only trajectories with a reward; false: only those without.' }),
  }),
  validate: [
    (f) => f.rewardMin == null || f.rewardMax == null || f.rewardMin <= f.rewardMax,
    { message: 'rewardMin must not be greater than rewardMax' },
  ],
});

type TrajectoryArgs = ConnectionArgs & {
  filter?: {
    split?: string | null;
    step?: number | null;
    rewardMin?: number | null;
    rewardMax?: number | null;
    hasReward?: boolean | null;
  } | null;
  orderBy?: { field: TrajectoryOrderField; direction: 'asc' | 'desc' } | null;
};

/** What a page's message contents will add to the answer at least, reserved before the page is read. */
const CONTENT = ['edges', 'node', 'messages', 'content'];

async function resolveTrajectories(runId: number, args: TrajectoryArgs, ctx: Context, info: GraphQLResolveInfo) {
  const filter: TrajectoryFilter = { ...args.filter };
  const field: TrajectoryOrderField = args.orderBy?.field ?? 'createdAt';
  const desc = (args.orderBy?.direction ?? 'asc') === 'desc';
  const shape: CursorShape = {
    order: `trajectories:${field}:${desc ? 'desc' : 'asc'}`,
    query: [runId, filter],
    valueKind: field === 'reward' ? 'number' : 'string',
  };
  const window = pageWindow(args, shape);
  // A page over MAX_RESPONSE_BYTES is refused before its rows leave the database (SQLite reads block everyone).
  // Planned (page-plan.ts), the field runs without its edges: the reservation reads them as written.
  if (selectsPath({ fieldNodes: plannedFieldNodes(ctx, info), fragments: info.fragments }, CONTENT)) {
    const order = { field, desc };
    // The stored bytes first: a page that fits even by them is not parsed to count its content.
    const refused = await reserveMeasured(
      ctx,
      () => ctx.services.trajectories.pageContentChars(runId, filter, order, window),
      () => ctx.services.trajectories.pageStoredChars(runId, filter, order, window),
    );
    if (refused) throw refused;
  }
  const page = await ctx.services.trajectories.page(runId, filter, { field, desc }, window);
  return toConnection(page, shape, () => ctx.services.trajectories.count(runId, filter));
}

const TrajectoryConnection = builder.connectionObject(
  {
    type: TrajectoryRef,
    name: 'TrajectoryConnection',
    fields: (c) => ({
      totalCount: c.int({
        description: 'How many trajectories match the filter.',
        resolve: (conn) => conn.totalCount(),
      }),
    }),
  },
  { name: 'TrajectoryEdge' },
);

builder.objectField(TrainingRunRef, 'trajectories', (t) =>
  t.connection(
    {
      type: TrajectoryRef,
      description: "This run's trajectories, oldest first unless ordered otherwise.",
      args: { filter: t.arg({ type: TrajectoryFilterInput }), orderBy: t.arg({ type: TrajectoryOrderInput }) },
      resolve: (run, args, ctx, info) => resolveTrajectories(run.id, args, ctx, info),
    },
    TrajectoryConnection,
  ),
);

builder.queryField('trajectories', (t) =>
  t.connection(
    {
      type: TrajectoryRef,
      description:
        "A run's trajectories, oldest first unless ordered otherwise. Keyset-paginated: any page costs what the first costs.",
      args: {
        runId: t.arg.globalID({ required: true, for: TrainingRunNode }),
        filter: t.arg({ type: TrajectoryFilterInput }),
        orderBy: t.arg({ type: TrajectoryOrderInput }),
      },
      resolve: async (_root, args, ctx, info) => {
        const before = pageReadBefore<Awaited<ReturnType<typeof resolveTrajectories>>>(ctx, info);
        if (before) return before;
        // An unknown run is NotFound, as everywhere else, not an empty connection.
        const run = await ctx.services.runs.get(args.runId.id, ctx.loaders.runById);
        const connection = await resolveTrajectories(run.id, args, ctx, info);
        keepPage(ctx, info, connection);
        return connection;
      },
    },
    TrajectoryConnection,
  ),
);

// ---- recording ----

const TaskInputInput = builder.inputType('TaskInputInput', {
  fields: (t) => ({
    step: t.int({ required: true, validate: { schema: z.number().int().min(0) } }),
    inputText: t.string({ required: true, validate: { schema: z.string().max(100_000) } }),
    context: t.field({ type: 'JSON', validate: { schema: jsonObject(64 * 1024) } }),
  }),
});

const TrajectoryMessageInput = builder.inputType('TrajectoryMessageInput', {
  fields: (t) => ({
    role: t.string({
      required: true,
      validate: {
        schema: z.enum(['system', 'user', 'assistant', 'tool'], { message: 'must be system, user, assistant or tool' }),
      },
    }),
    content: t.string({ required: true, validate: { schema: z.string().max(1_000_000) } }),
  }),
});

const TrajectoryInput = builder.inputType('TrajectoryInput', {
  fields: (t) => ({
    uuid: t.string({
      description: 'Makes recording idempotent: a trajectory already stored under this uuid is not stored again.',
      validate: { schema: z.string().uuid({ message: 'must be a UUID' }) },
    }),
    taskInput: t.field({ type: TaskInputInput, required: true }),
    messages: t.field({ type: [TrajectoryMessageInput], required: true, validate: { maxLength: 1000 } }),
    reward: t.float(),
    metadata: t.field({ type: 'JSON', validate: { schema: jsonObject(64 * 1024) } }),
  }),
});

const RecordTrajectoriesPayload = builder
  .objectRef<{ recorded: number; duplicateUuids: string[]; uuids: string[] }>('RecordTrajectoriesPayload')
  .implement({
    fields: (t) => ({
      recorded: t.exposeInt('recorded', { description: 'How many were stored by this call.' }),
      duplicates: t.int({
        description: 'How many were already stored with the same content and were skipped.',
        resolve: (p) => p.duplicateUuids.length,
      }),
      duplicateUuids: t.exposeStringList('duplicateUuids'),
      uuids: t.exposeStringList('uuids', { description: 'The uuid of every trajectory in the batch, in input order.' }),
    }),
  });

builder.mutationField('recordTrajectories', (t) =>
  t.field({
    type: RecordTrajectoriesPayload,
    description: `Stores up to ${MAX_TRAJECTORIES_PER_CALL} trajectories of a TRACKED run: all or nothing, idempotent by uuid. A PIPELINE run's trajectories are Atelier's own (RunModeError).`,
    errors: { types: [ValidationError, NotFoundError, ConflictError, RunModeError], directResult: true },
    args: {
      runId: t.arg.globalID({ required: true, for: TrainingRunNode }),
      trajectories: t.arg({
        type: [TrajectoryInput],
        required: true,
        validate: {
          maxLength: [
            MAX_TRAJECTORIES_PER_CALL,
            { message: `must hold at most ${MAX_TRAJECTORIES_PER_CALL} trajectories per call` },
          ],
        },
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.trajectories.record(
        args.runId.id,
        args.trajectories.map((tr) => ({
          uuid: tr.uuid,
          taskInput: {
            step: tr.taskInput.step,
            inputText: tr.taskInput.inputText,
            context: (tr.taskInput.context as Record<string, unknown> | null) ?? null,
          },
          messages: tr.messages,
          reward: tr.reward,
          metadata: tr.metadata as Record<string, unknown> | null,
        })),
        { guard: trackingGuard(ctx.viewer.projects) },
      ),
  }),
);

const TrajectoryGroupInput = builder.inputType('TrajectoryGroupInput', {
  description:
    'An ART TrajectoryGroup as `model_dump(mode="json")` gives it. Each trajectory is ART\'s Trajectory JSON, checked against ART\'s shapes (ART 0.5.17, PeterWofford/ART 679b236e) and kept whole, fields a newer ART adds included.',
  fields: (t) => ({
    index: t.int({
      description:
        "The group's position in its step; by default its position in this call. Give it to add groups to a step in several calls.",
      validate: { schema: z.number().int().min(0).max(1_000_000) },
    }),
    trajectories: t.field({ type: ['JSON'], required: true, validate: { maxLength: MAX_TRAJECTORIES_PER_CALL } }),
    metadata: t.field({ type: 'JSON' }),
    metrics: t.field({ type: 'JSON' }),
    logs: t.stringList({ validate: { maxLength: 10_000 } }),
    exceptions: t.field({
      type: ['JSON'],
      description: "ART's exceptions of the group: [{type, message, traceback}].",
      validate: { maxLength: 10_000 },
    }),
  }),
});

const RecordTrajectoryGroupsPayload = builder
  .objectRef<{ recorded: number; duplicateUuids: string[]; uuids: string[]; replaced: number }>(
    'RecordTrajectoryGroupsPayload',
  )
  .implement({
    fields: (t) => ({
      recorded: t.exposeInt('recorded', { description: 'How many trajectories were stored by this call.' }),
      duplicates: t.int({
        description: 'How many were already stored with the same content (a retry) and were skipped.',
        resolve: (p) => p.duplicateUuids.length,
      }),
      replaced: t.exposeInt('replaced', {
        description: 'How many stored trajectories of this split and step a replace removed.',
      }),
      uuids: t.exposeStringList('uuids', {
        description:
          "Each trajectory's stable identity, group by group in input order (derived from run, split, step, group index and position).",
      }),
    }),
  });

builder.mutationField('recordTrajectoryGroups', (t) =>
  t.field({
    type: RecordTrajectoryGroupsPayload,
    description: `Stores one log of ART groups into a TRACKED run, as \`model.log(groups, split=, step=)\` logs them: up to ${MAX_TRAJECTORIES_PER_CALL} trajectories, all or nothing. A retry adds nothing; the same group index with other content is a ConflictError unless \`replace\` (a second log of the split and step, replacing it as ART's file is). The split and step's history point gets the reward statistics.`,
    errors: { types: [ValidationError, NotFoundError, ConflictError, RunModeError], directResult: true },
    args: {
      runId: t.arg.globalID({ required: true, for: TrainingRunNode }),
      step: t.arg.int({ required: true, validate: { schema: z.number().int().min(0) } }),
      split: t.arg.string({ defaultValue: 'train', validate: { schema: SPLIT_RULE } }),
      replace: t.arg.boolean({ defaultValue: false }),
      groups: t.arg({
        type: [TrajectoryGroupInput],
        description: 'The groups as GraphQL input objects. Give this or `groupsJson`, not both.',
        validate: { maxLength: MAX_TRAJECTORIES_PER_CALL },
      }),
      groupsJson: t.arg.string({
        description:
          'The bulk door: the whole list of groups as one JSON text, as `json.dumps([g.model_dump(mode="json") for g in groups])` gives it (each element shaped as TrajectoryGroupInput). Parsed once, with the same checks as `groups` and errors named `groupsJson.<group>.<field>`, without per-value GraphQL coercion. Give this or `groups`, not both.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const options = { guard: trackingGuard(ctx.viewer.projects), replace: args.replace ?? false };
      const split = args.split ?? 'train';
      const hasGroups = args.groups !== null && args.groups !== undefined;
      const hasJson = args.groupsJson !== null && args.groupsJson !== undefined;
      if (hasGroups === hasJson)
        throw hasJson
          ? ValidationError.of('groupsJson', 'exclusive', 'give either groups or groupsJson, not both')
          : ValidationError.of('groups', 'required', 'give the groups, as groups or as groupsJson');
      if (hasJson)
        return ctx.services.trajectories.recordGroups(
          args.runId.id,
          args.step,
          split,
          parseArtGroupsJson(args.groupsJson!, MAX_TRAJECTORIES_PER_CALL),
          { ...options, field: 'groupsJson' },
        );
      return ctx.services.trajectories.recordGroups(
        args.runId.id,
        args.step,
        split,
        args.groups!.map((g) => ({
          index: g.index,
          trajectories: g.trajectories as unknown[],
          metadata: g.metadata,
          metrics: g.metrics,
          logs: g.logs,
          exceptions: g.exceptions,
        })),
        options,
      );
    },
  }),
);

// ---- live ----

const TrajectoriesRecordedRef = builder.objectRef<TrajectoriesRecordedEvent>('TrajectoriesRecordedEvent').implement({
  description: 'A batch of trajectories just stored for a run.',
  fields: (t) => ({
    count: t.exposeInt('count', { description: 'How many were stored.' }),
    step: t.exposeInt('step', {
      nullable: true,
      description: 'The step they belong to; null when the batch spans several.',
    }),
    trajectories: t.field({
      type: [TrajectoryRef],
      description: 'The stored trajectories (loaded only when selected).',
      resolve: (e, _a, ctx) => ctx.services.trajectories.getMany(e.trajectoryIds),
    }),
  }),
});

builder.subscriptionField('trajectoriesRecorded', (t) =>
  t.field({
    type: TrajectoriesRecordedRef,
    description:
      "Each batch of trajectories stored for the run. Completes after the run's final transition, once every batch stored before it was pushed (at once for a run already final).",
    args: { runId: t.arg.globalID({ required: true, for: TrainingRunNode }) },
    subscribe: (_root, args, ctx) => subscribeForRun(ctx, args.runId.id, 'trajectoriesRecorded'),
    resolve: freshEvent,
    extensions: shareSubscribers(),
  }),
);

const TrajectoriesScoredRef = builder.objectRef<TrajectoriesScoredEvent>('TrajectoriesScoredEvent').implement({
  description: 'Trajectories of a run just given rewards by RULER (one group at a time), after the scores were stored.',
  fields: (t) => ({
    count: t.int({ description: 'How many were scored.', resolve: (e) => e.trajectoryIds.length }),
    step: t.exposeInt('step', { nullable: true, description: 'The step they belong to; null when they span several.' }),
    trajectories: t.field({
      type: [TrajectoryRef],
      description: 'The scored trajectories, with their reward and judgeExplanation (loaded only when selected).',
      resolve: (e, _a, ctx) => ctx.services.trajectories.getMany(e.trajectoryIds),
    }),
  }),
});

builder.subscriptionField('trajectoriesScored', (t) =>
  t.field({
    type: TrajectoriesScoredRef,
    description:
      "Each group of the run's trajectories RULER scored: their rewards and the judge's explanations. Completes after the run's final transition, once every group scored before it was pushed (at once for a run already final).",
    args: { runId: t.arg.globalID({ required: true, for: TrainingRunNode }) },
    subscribe: (_root, args, ctx) => subscribeForRun(ctx, args.runId.id, 'trajectoriesScored'),
    resolve: freshEvent,
  }),
);
