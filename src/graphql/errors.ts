// The typed errors clients handle, every one of them: each implements `interface Error { message }`.
import { MissingSettingError } from '../domain/pipeline-settings';
import {
  CheckpointNotServedError,
  ConflictError,
  IllegalTransitionError,
  NotFoundError,
  RunModeError,
  ValidationError,
  type ValidationIssue,
} from '../errors';
import { ProviderError } from '../providers/http';
import { builder } from './builder';
import { RunModeEnum } from './inputs';

export const ErrorInterface = builder.interfaceRef<Error>('Error').implement({
  description: 'An expected outcome a client should handle, such as invalid input or a missing run.',
  fields: (t) => ({ message: t.exposeString('message') }),
});

const ValidationIssueRef = builder.objectRef<ValidationIssue>('ValidationIssue').implement({
  description: 'One broken rule: which field, which rule, and a message for people.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'Dotted path of the field, e.g. input.learningRate.' }),
    rule: t.exposeString('rule', { description: 'The rule that failed, e.g. too_big, too_small, invalid_format.' }),
    message: t.exposeString('message'),
  }),
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'The input broke one or more rules; nothing was changed.',
  interfaces: [ErrorInterface],
  fields: (t) => ({ issues: t.field({ type: [ValidationIssueRef], resolve: (e) => e.issues }) }),
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: 'The object named does not exist (or no longer does).',
  interfaces: [ErrorInterface],
  fields: (t) => ({ entity: t.exposeString('entity'), key: t.exposeString('key') }),
});

builder.objectType(IllegalTransitionError, {
  name: 'IllegalTransitionError',
  description: "The run's state machine does not allow this change; nothing was changed.",
  interfaces: [ErrorInterface],
  fields: (t) => ({
    from: t.string({ resolve: (e) => e.from.toUpperCase() }),
    to: t.string({ resolve: (e) => e.to.toUpperCase() }),
  }),
});

builder.objectType(ConflictError, {
  name: 'ConflictError',
  description:
    'The change conflicts with what is stored (a duplicate, or a run that is still active); nothing was changed.',
  interfaces: [ErrorInterface],
});

builder.objectType(MissingSettingError, {
  name: 'MissingSettingError',
  description: 'The server lacks a setting this operation needs; nothing was changed.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    setting: t.exposeString('setting', {
      description: 'The first environment variable to set, e.g. ART_BACKEND_URL (the first of `settings`).',
    }),
    settings: t.exposeStringList('settings', {
      description:
        'Every environment variable to set, in the order ART_BACKEND_URL, OPENAI_BASE_URL, GENERATOR_MODEL, JUDGE_MODEL.',
    }),
  }),
});

builder.objectType(ProviderError, {
  name: 'ProviderError',
  description: 'The ART backend or a model provider failed (after retries); nothing was stored.',
  interfaces: [ErrorInterface],
});

builder.objectType(RunModeError, {
  name: 'RunModeError',
  description:
    "The run is of the wrong mode for this operation: recordTrajectories, recordMetrics and transitionRun write only into TRACKED runs (a PIPELINE run's records are Atelier's own; cancelTrainingRun still stops it). Nothing was changed.",
  interfaces: [ErrorInterface],
  fields: (t) => ({ mode: t.field({ type: RunModeEnum, description: "The run's mode.", resolve: (e) => e.mode }) }),
});

builder.objectType(CheckpointNotServedError, {
  name: 'CheckpointNotServedError',
  description:
    "The run's backend cannot serve that checkpoint: the legacy `art run` server serves only its latest. Nothing was changed.",
  interfaces: [ErrorInterface],
  fields: (t) => ({
    step: t.exposeInt('step', { description: 'The checkpoint asked for.' }),
    servedStep: t.exposeInt('servedStep', { nullable: true, description: 'The one it serves.' }),
  }),
});
