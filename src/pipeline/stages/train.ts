// TRAINING: sends the step's scored groups to the ART backend, storing each gradient step as it
// streams in, then records the step's history point.
import type { TrajectoryRow } from '../../db/entities';
import { ConflictError } from '../../errors';
import type { TrainingRun } from '../../runs/run.model';
import { parseJsonObject } from '../../db/json';
import { messagesFromJson } from '../../trajectories/trajectory.model';
import type { ArtBackend, ArtTrajectory, ArtTrajectoryGroup, TrainableModel } from '../../providers/art-backend';
import { ProviderError } from '../../providers/http';
import type { StageContext } from './context';
import { trainingGroups } from './groups';

export interface TrainOutcome {
  /** What the trainer streamed, one entry per gradient step. */
  lines: Record<string, number>[];
  /** Groups sent; 0 when the step had nothing to train and the backend was not called. */
  groups: number;
}

/** Trains the step; after a broken stream, asks the backend whether the step was trained before trying again. */
export async function train(ctx: StageContext, art: ArtBackend, model: TrainableModel, run: TrainingRun, step: number, backendStep: number): Promise<TrainOutcome> {
  const { deps, progress } = ctx;
  const groups = await trainingGroups(ctx, step);
  // Nothing scored to train on: a training call with no groups would only make an empty checkpoint.
  if (groups.length === 0) return { lines: [], groups: 0 };
  const payload: ArtTrajectoryGroup[] = groups.map((g) => ({ trajectories: g.map(toArtTrajectory), metadata: {}, exceptions: [] }));
  const attempts = deps.config.retryAttempts;
  for (let attempt = 1; ; attempt++) {
    const lines: Record<string, number>[] = [];
    progress.gradientStepsDone = 0;
    progress.gradientStepsTotal = null;
    try {
      await art.train(model, payload, { learning_rate: run.learningRate, beta: 0 }, (values) => {
        lines.push(values);
        progress.gradientStepsDone = lines.length;
        if (typeof values.num_gradient_steps === 'number') progress.gradientStepsTotal = values.num_gradient_steps;
        ctx.touch();
        ctx.publishProgress();
        void deps.metrics.recordGradientStep(run.id, step, lines.length - 1, values, ctx.guard('training')).catch((err) => deps.logger.warn(`run ${run.id}: could not store a gradient step: ${err.message}`));
      }, ctx.signal);
      return { lines, groups: groups.length };
    } catch (err) {
      if (!(err instanceof ProviderError) || !err.transient || attempt >= attempts) throw err;
      if ((await art.getStep(model, ctx.signal)) > backendStep) return { lines, groups: groups.length };
      deps.logger.warn(`run ${run.id}: training step ${step} broke off (${err.message}); trying again`);
      await deps.metrics.clearGradientSteps(run.id, step, ctx.guard('training'));
    }
  }
}

/** Why a step had no group to train, from its stored rollouts. */
export async function whyNothingToTrain(ctx: StageContext, step: number): Promise<string> {
  const rollouts = (await ctx.deps.trajectories.forStep(ctx.runId, step)).map((t) => parseJsonObject(t.metadata)).filter((m) => m.kind === 'rollout');
  const errors = rollouts.map((m) => m.error).filter((e): e is string => typeof e === 'string');
  if (rollouts.length > 0 && errors.length === rollouts.length) return `every rollout failed (last error: ${errors.at(-1)})`;
  const dropped = rollouts.map((m) => m.dropped_reason).find((r): r is string => typeof r === 'string');
  return dropped ? `no group had two scored rollouts (${dropped})` : 'no group had two scored rollouts';
}

/** The step's history point: reward statistics come from the stored (scored) trajectories. */
export async function finishStep(ctx: StageContext, step: number, epoch: number, lines: Record<string, number>[]): Promise<void> {
  const mean = (key: string) => {
    const xs = lines.map((l) => l[key]).filter((x): x is number => typeof x === 'number');
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  };
  const groups = await trainingGroups(ctx, step);
  // A group whose rewards are all equal teaches GRPO nothing: ART skips it.
  const trainable = groups.filter((g) => new Set(g.map((t) => t.reward)).size > 1).length;
  const values: Record<string, number> = { groups: groups.length, trainable_groups: trainable, num_gradient_steps: lines.length };
  for (const key of new Set(lines.flatMap((l) => Object.keys(l)))) {
    const m = mean(key);
    if (m !== null && key !== 'loss' && key !== 'num_gradient_steps') values[key] = m;
  }
  try {
    await ctx.deps.metrics.record(ctx.runId, [{ step, epoch, trainingLoss: mean('loss'), values }], ctx.guard('training'));
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err; // already recorded before a restart
  }
  ctx.touch();
}

function toArtTrajectory(row: TrajectoryRow): ArtTrajectory {
  const messages = messagesFromJson(row.messages);
  const meta = parseJsonObject(row.metadata);
  const metadata: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(meta)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) metadata[k] = v as string | number | boolean | null;
  return {
    // The context as plain messages; the trained assistant turn as the choice verbatim (token logprobs included).
    messages_and_choices: [...messages.slice(0, -1), JSON.parse(row.choice!)],
    tools: null,
    reward: row.reward!,
    metrics: { ruler_score: row.reward!, ...(typeof meta.independent_reward === 'number' ? { independent_reward: meta.independent_reward } : {}) },
    metadata,
    logs: typeof meta.ruler_explanation === 'string' ? [meta.ruler_explanation] : [],
  };
}
