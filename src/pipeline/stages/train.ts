// TRAINING: sends the step's scored groups to the training backend (legacy art run, worker or W&B
// serverless), storing each gradient step as it streams in, then records the step's history point.
//
// Retries (#11): a training call that fails with a transient error (5xx, 429, a reset, silence) is tried
// again with the same bounded backoff as every other call, but never blindly: the backend is first asked
// for the model's step. Saved → the step is done. Not saved → before the first streamed line (or job)
// nothing trained, so it is sent again; after it, the stream's gradient steps are forgotten and it is
// sent again only because the backend says the checkpoint was not saved (`art run` stops a step whose
// client went away; a worker keeps training and answers 409 busy, which is waited out, not counted).
// A serverless job that was created is never created twice: losing its events fails the step.
import {
  TrainingCallError,
  type ArtTrajectory,
  type ArtTrajectoryGroup,
  type TrainableModel,
  type TrainingBackend,
} from '../../backends';
import type { TrajectoryRow } from '../../db/entities';
import { parseJsonObject } from '../../db/json';
import { GRADIENT_STEPS_KEY, LOSS_KEY } from '../../domain/train-metrics';
import { ConflictError } from '../../errors';
import { pause, retryDelayMs } from '../../providers/http';
import type { TrainingRun } from '../../runs/run.model';
import { messagesFromJson } from '../../trajectories/trajectory.model';
import type { StageContext } from './context';
import { trainingGroups } from './groups';

export interface TrainOutcome {
  /** What the trainer streamed, one entry per gradient step. */
  lines: Record<string, number>[];
  /** The backend's step after the call (unchanged when nothing was trained). */
  step: number;
  /** Groups sent; 0 when the step had nothing to train and the backend was not called. */
  groups: number;
}

/** Trains the step; answers the gradient steps' metrics, the backend's new step and the groups sent. */
export async function train(
  ctx: StageContext,
  backend: TrainingBackend,
  model: TrainableModel,
  run: TrainingRun,
  step: number,
  backendStep: number,
): Promise<TrainOutcome> {
  const { deps, progress } = ctx;
  const groups = await trainingGroups(ctx, step);
  // Nothing scored to train on: a training call with no groups would only make an empty checkpoint.
  if (groups.length === 0) return { lines: [], step: backendStep, groups: 0 };
  const art = await deps.trajectories.artOf(groups.flat().map((t) => t.id));
  const payload: ArtTrajectoryGroup[] = groups.map((g) => ({
    trajectories: g.map((t) => toArtTrajectory(t, art.get(t.id))),
    metadata: {},
    exceptions: [],
  }));
  const attempts = deps.config.retryAttempts;
  // The step's training time, waits and retries included, under ART's name for it.
  const started = performance.now();
  const done = async (outcome: TrainOutcome): Promise<TrainOutcome> => {
    const seconds = (performance.now() - started) / 1000;
    await deps.runs.addCosts(run.id, step, { 'time/step_trainer_s': seconds }, ctx.guard('training'));
    return outcome;
  };
  let failures = 0;
  let busyWaits = 0;
  let lastLines: Record<string, number>[] = [];
  for (let retry = false; ; retry = true) {
    // Right before sending the step again, ask once more whether the backend saved it meanwhile (a
    // call it kept training after its stream was cut may end during the wait): never train it twice.
    if (retry) {
      const saved = await backend.currentStep(model, ctx.signal);
      if (saved > backendStep) return done({ lines: lastLines, step: saved, groups: groups.length });
    }
    const lines: Record<string, number>[] = [];
    lastLines = lines;
    progress.gradientStepsDone = 0;
    progress.gradientStepsTotal = null;
    try {
      const result = await backend.train(
        model,
        payload,
        { learning_rate: run.learningRate, beta: 0 },
        (values) => {
          lines.push(values);
          progress.gradientStepsDone = lines.length;
          if (typeof values[GRADIENT_STEPS_KEY] === 'number') progress.gradientStepsTotal = values[GRADIENT_STEPS_KEY];
          ctx.touch();
          ctx.publishProgress();
          void deps.metrics
            .recordGradientStep(run.id, step, lines.length - 1, values, ctx.guard('training'))
            .catch((err) => deps.logger.warn(`run ${run.id}: could not store a gradient step: ${err.message}`));
        },
        ctx.signal,
      );
      return done({
        lines,
        step: result.step ?? (await backend.currentStep(model, ctx.signal)),
        groups: groups.length,
      });
    } catch (err) {
      if (!(err instanceof TrainingCallError) || !err.transient) throw err;
      const saved = await backend.currentStep(model, ctx.signal);
      if (saved > backendStep) {
        deps.logger.warn(
          `run ${run.id}: training step ${step} reported ${deps.redact(err.message)}, but backend ${backend.name} saved it (step ${saved})`,
        );
        return done({ lines, step: saved, groups: groups.length });
      }
      // The same rule as every other call (providers/http.ts): the backend's Retry-After, else jittered backoff.
      const delay = retryDelayMs({ baseDelayMs: deps.config.retryBaseMs }, failures, err.retryAfterMs);
      const why = err.retryAfterMs !== null ? ' (its Retry-After)' : '';
      if (err.busy) {
        // Still training an earlier call's step: wait (the stall watchdog bounds this), then ask again.
        const wait = err.retryAfterMs ?? Math.min(5000, deps.config.retryBaseMs * 2 ** Math.min(busyWaits++, 6));
        deps.logger.warn(
          `run ${run.id}: backend ${backend.name} is still training step ${step} from an earlier call; asking again in ${Math.round(wait)} ms${why}`,
        );
        await pause(wait, ctx.signal);
        continue;
      }
      if (++failures >= attempts)
        throw new TrainingCallError(
          `${err.message} (gave up after ${attempts} attempts)`,
          err.status,
          false,
          err.started,
        );
      if (err.started) {
        deps.logger.warn(
          `run ${run.id}: training step ${step} broke off after ${lines.length} gradient steps (${deps.redact(err.message)}); backend ${backend.name} did not save it, training it again in ${Math.round(delay)} ms${why}`,
        );
        await deps.metrics.clearGradientSteps(run.id, step, ctx.guard('training'));
      } else {
        deps.logger.warn(
          `run ${run.id}: training step ${step} could not start (${deps.redact(err.message)}); trying again in ${Math.round(delay)} ms${why}`,
        );
      }
      await pause(delay, ctx.signal);
    }
  }
}

/** Why a step had no group to train, from its stored rollouts. */
export async function whyNothingToTrain(ctx: StageContext, step: number): Promise<string> {
  const rollouts = (await ctx.deps.trajectories.forStep(ctx.runId, step))
    .map((t) => parseJsonObject(t.metadata))
    .filter((m) => m.kind === 'rollout');
  const errors = rollouts.map((m) => m.error).filter((e): e is string => typeof e === 'string');
  if (rollouts.length > 0 && errors.length === rollouts.length)
    return `every rollout failed (last error: ${errors.at(-1)})`;
  const dropped = rollouts.map((m) => m.dropped_reason).find((r): r is string => typeof r === 'string');
  return dropped ? `no group had two scored rollouts (${dropped})` : 'no group had two scored rollouts';
}

/** The step's history point: reward statistics come from the stored (scored) trajectories. */
export async function finishStep(
  ctx: StageContext,
  step: number,
  epoch: number,
  lines: Record<string, number>[],
): Promise<void> {
  const mean = (key: string) => {
    const xs = lines.map((l) => l[key]).filter((x): x is number => typeof x === 'number');
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  };
  const groups = await trainingGroups(ctx, step);
  // A group whose rewards are all equal teaches GRPO nothing: ART skips it.
  const trainable = groups.filter((g) => new Set(g.map((t) => t.reward)).size > 1).length;
  // Means of every gradient-step metric in ART's current names (loss/train, loss/grad_norm, …), so their charts span backend kinds.
  const values: Record<string, number> = {};
  for (const key of new Set(lines.flatMap((l) => Object.keys(l)))) {
    const m = mean(key);
    if (m !== null) values[key] = m;
  }
  Object.assign(values, {
    groups: groups.length,
    trainable_groups: trainable,
    [GRADIENT_STEPS_KEY]: mean(GRADIENT_STEPS_KEY) ?? lines.length,
  });
  try {
    await ctx.deps.metrics.record(
      ctx.runId,
      [{ step, epoch, trainingLoss: mean(LOSS_KEY), values }],
      ctx.guard('training'),
    );
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err; // already recorded before a restart
  }
  ctx.touch();
}

/** The trajectory as trained: its stored ART JSON (every assistant choice, tools) when it has one, else its single turn. */
function toArtTrajectory(row: TrajectoryRow, artJson?: string): ArtTrajectory {
  const meta = parseJsonObject(row.metadata);
  const metadata: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(meta))
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v))
      metadata[k] = v as string | number | boolean | null;
  const stored = artJson
    ? (JSON.parse(artJson) as {
        messages_and_choices: unknown[];
        tools: unknown[] | null;
        metrics?: Record<string, number>;
      })
    : null;
  return {
    // ART data as stored; else the context as plain messages and the trained turn as its choice verbatim (token logprobs included).
    messages_and_choices: stored
      ? stored.messages_and_choices
      : [...messagesFromJson(row.messages).slice(0, -1), JSON.parse(row.choice!)],
    tools: stored?.tools ?? null,
    reward: row.reward!,
    metrics: {
      ...(stored?.metrics ?? {}),
      ...(typeof meta.ruler_score === 'number' || !stored ? { ruler_score: row.reward! } : {}),
      ...(typeof meta.independent_reward === 'number' ? { independent_reward: meta.independent_reward } : {}),
    },
    metadata,
    logs: typeof meta.ruler_explanation === 'string' ? [meta.ruler_explanation] : [],
  };
}
