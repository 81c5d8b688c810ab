// Validation rules for run input, shared by the GraphQL layer (through plugin-zod) and anything
// else that creates runs.
import { z } from 'zod';

import { credentialPaths } from '../domain/credentials';
import { jsonObject, text } from '../graphql/json-rules';

export const RUN_LIMITS = {
  name: 200,
  taskDescription: 20_000,
  systemPrompt: 20_000,
  reason: 10_000,
  numExamples: 100_000,
  rolloutsPerGroup: 128,
  numEpochs: 1_000,
  maxSteps: 10_000_000,
  configBytes: 64 * 1024,
  notes: 20_000,
  tags: 20,
  tag: 64,
  /** run.summary(names:): how many names, and how long each. */
  summaryNames: 100,
  summaryNameLength: 300,
} as const;

/** A tag: letters, digits and `_ . : / + = -`, as W&B's and MLflow's tags are used (no spaces or commas). */
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.:/+=-]{0,63}$/;

export const runRules = {
  uuid: z.string().uuid({ message: 'must be a UUID' }),
  name: text(RUN_LIMITS.name),
  notes: text(RUN_LIMITS.notes),
  /** A summary metric's name, `<split>/<name>`. */
  summaryName: z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}\/[A-Za-z0-9_./:@+=()[\] -]{1,200}$/, {
    message: 'must be <split>/<name>, e.g. val/reward',
  }),
  tag: z.string().regex(TAG, {
    message: 'must be 1–64 letters, digits, _ . : / + = -, starting with a letter, digit or _',
  }),
  taskDescription: text(RUN_LIMITS.taskDescription),
  systemPrompt: text(RUN_LIMITS.systemPrompt),
  reason: z.string().max(RUN_LIMITS.reason, { message: `must be at most ${RUN_LIMITS.reason} characters` }),
  numExamples: z.number().int().min(1).max(RUN_LIMITS.numExamples),
  rolloutsPerGroup: z.number().int().min(1).max(RUN_LIMITS.rolloutsPerGroup),
  numEpochs: z.number().int().min(1).max(RUN_LIMITS.numEpochs),
  learningRate: z.number().gt(0, { message: 'must be greater than 0' }).lte(1, { message: 'must be at most 1' }),
  maxSteps: z.number().int().min(1).max(RUN_LIMITS.maxSteps),
  /** Stored and shown to every reader: credentials (provider keys, Atelier keys, passwords) are refused. */
  config: jsonObject(RUN_LIMITS.configBytes).superRefine((value, ctx) => {
    for (const path of credentialPaths(value)) {
      ctx.addIssue({
        code: 'custom',
        path: path ? path.split('.') : [],
        message:
          'looks like a credential; run config is stored and shown to every reader, so give provider keys to Atelier through its environment instead',
        params: { rule: 'no_credentials' },
      });
    }
  }),
};
