// The GraphQL input for a pipeline run's own settings.
import { z } from 'zod';

import { SCENARIO_LIMITS } from '../domain/scenarios';
import { builder } from '../graphql/builder';
import { jsonObject, text } from '../graphql/json-rules';

export const EvalScenarioInput = builder.inputType('EvalScenarioInput', {
  description:
    "A held-out scenario to evaluate on, as the seed's TaskInput: the text the agent gets and a context object (an answer to check, ids, anything the environment needs). Never trained on.",
  fields: (t) => ({
    inputText: t.string({
      required: true,
      validate: { schema: z.string().max(SCENARIO_LIMITS.inputText) },
    }),
    context: t.field({ type: 'JSON', validate: { schema: jsonObject(SCENARIO_LIMITS.contextBytes) } }),
  }),
});

export const RolloutKindEnum = builder.enumType('RolloutKind', {
  description: 'How a pipeline run plays its episodes (src/rollouts/, docs/ENVIRONMENTS.md).',
  values: {
    BUILTIN: { value: 'builtin', description: 'One prompt, one completion; RULER scores each group. The default.' },
    HTTP: {
      value: 'http',
      description:
        'An environment behind POST {url}/reset, /step and /close: multi-turn, tool-using, its reward or RULER.',
    },
    MCP: {
      value: 'mcp',
      description:
        "An MCP server (Streamable HTTP) at url: its tools and complete_task in a tool loop, scored by RULER, as ART's MCP-RL.",
    },
    WORKER: {
      value: 'worker',
      description:
        "The user's own ART rollout function (`entrypoint`, ART's signature), run by an Atelier worker in the user's Python environment: the run's backend when it is a worker, else the worker at url (GPU-less, e.g. beside serverless training). Streamed back trajectory by trajectory with ART's exceptions (worker/PROTOCOL.md).",
    },
  } as const,
});

export const RolloutInput = builder.inputType('RolloutInput', {
  description: "A pipeline run's rollout kind and its settings.",
  fields: (t) => ({
    kind: t.field({ type: RolloutKindEnum, required: true }),
    url: t.string({
      description:
        "HTTP: the environment's base URL; MCP: the server's Streamable HTTP endpoint (http or https); WORKER: an Atelier worker that runs the rollouts when the run's backend is not one (e.g. `atelier-worker --rollouts-only` beside serverless training).",
      validate: {
        schema: z
          .string()
          .max(2000)
          .regex(/^https?:\/\/[^\s]+$/, { message: 'must be an http:// or https:// URL' }),
      },
    }),
    maxTurns: t.int({
      description: 'Assistant turns an episode may take before it counts as never done. Default 10.',
      validate: { schema: z.number().int().min(1).max(100) },
    }),
    entrypoint: t.string({
      description:
        "WORKER: the rollout function, `pkg.module:function`, with ART's signature: `async (model, scenario[, config]) -> art.Trajectory` or `-> art.TrajectoryGroup` (ART's PipelineTrainer SingleRolloutFn / RolloutFn).",
      validate: {
        schema: z
          .string()
          .max(300)
          .regex(/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/, {
            message: 'must be pkg.module:function (a dotted module path, a colon, an attribute)',
          }),
      },
    }),
  }),
});

export const RetentionInput = builder.inputType('RetentionInput', {
  description:
    "Which checkpoints a pipeline run keeps after each trained step: ART's Model.delete_checkpoints keeps the latest and the best by a metric; this keeps the `keepLast` latest and the `keepBest` best (ART's rule: the steps with the highest average of `metric` in the history). The others are deleted on the backend and marked deleted on the run's checkpoints.",
  fields: (t) => ({
    keepLast: t.int({
      description: 'The latest checkpoints kept. Default 1 (the backends always keep the latest).',
      required: true,
      defaultValue: 1,
      validate: { schema: z.number().int().min(1).max(10_000) },
    }),
    keepBest: t.int({
      description: 'The best checkpoints by `metric` kept. Default 1.',
      required: true,
      defaultValue: 1,
      validate: { schema: z.number().int().min(0).max(10_000) },
    }),
    metric: t.string({
      description: 'The history metric the best are chosen by, as run.bestCheckpoint reads it. Default val/reward.',
      required: true,
      defaultValue: 'val/reward',
      validate: { schema: text(200) },
    }),
  }),
});

export const PipelineSettingsInput = builder.inputType('PipelineSettingsInput', {
  description:
    "A pipeline run's own settings; omitted ones take their defaults. Stored in the run's config under `pipeline`.",
  fields: (t) => ({
    groupsPerStep: t.int({
      description: 'Inputs (groups) per training step. Default 2.',
      validate: { schema: z.number().int().min(1).max(1024) },
    }),
    rubric: t.string({
      description: "RULER's grading rubric. Default: RULER's own.",
      validate: { schema: text(20_000) },
    }),
    judgeModel: t.string({ description: 'The RULER judge. Default: JUDGE_MODEL.', validate: { schema: text(200) } }),
    generatorModel: t.string({
      description: 'Writes the inputs and system prompt. Default: GENERATOR_MODEL.',
      validate: { schema: text(200) },
    }),
    temperature: t.float({
      description: 'Rollout temperature. Default 0.7.',
      validate: { schema: z.number().min(0).max(2) },
    }),
    maxConcurrentRollouts: t.int({
      description: 'Rollouts in flight at once. Default 16.',
      validate: { schema: z.number().int().min(1).max(256) },
    }),
    backend: t.string({
      description: 'The ART backend to train on, by name (ART_BACKENDS). Default: the first.',
      validate: {
        schema: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'must be 1–64 letters, digits, _ or -' }),
      },
    }),
    maxConcurrentJudgeCalls: t.int({
      description: 'RULER calls in flight at once. Default 8.',
      validate: { schema: z.number().int().min(1).max(64) },
    }),
    rollout: t.field({ type: RolloutInput, description: 'How episodes are played. Default: BUILTIN.' }),
    retention: t.field({
      type: RetentionInput,
      description: 'Delete checkpoints after each trained step, keeping the latest and the best. Default: keep all.',
    }),
    evalEvery: t.int({
      description:
        "Validate every this many steps, and before the first (as ART's examples do): the current checkpoint plays the run's VAL scenarios (evalScenarios, the VAL ones of scenarios, or the dataset's VAL split) with the run's rollout kind, scored by the environment or RULER; `val/*` metrics are recorded at that step and the trajectories under split `val`, never trained on. Default: never.",
      validate: { schema: z.number().int().min(1).max(100_000) },
    }),
    evalScenarios: t.field({
      type: [EvalScenarioInput],
      description: "Held-out scenarios for evalEvery, stored as the run's VAL inputs (run.taskInputs).",
      validate: { maxLength: SCENARIO_LIMITS.items },
    }),
  }),
});
