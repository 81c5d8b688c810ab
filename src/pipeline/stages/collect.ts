// COLLECTING: plays rolloutsPerGroup episodes of each of the step's inputs on the model being
// trained, through the run's rollout kind (src/rollouts/), and stores each group as it completes.
// BUILTIN rollouts keep their seed-shaped rows (the trained choice beside the messages); every other
// kind is stored ART-natively, each trajectory as it finishes (appendToGroup), then its group completed
// (finaliseGroup): tool calls, tools and every assistant choice kept.
import type { InferenceTarget, TrainableModel, TrainingBackend } from '../../backends';
import type { Batch } from '../../domain/dataset';
import type { ChatClient } from '../../providers/chat';
import { createRollout, rolloutWorker, type Episode, type EpisodeResult, type Rollout } from '../../rollouts';
import type { TrainingRun } from '../../runs/run.model';
import { derivedUuid } from '../../trajectories/art-rows';
import { Semaphore } from '../concurrency';
import type { StageContext } from './context';

export type StepItem = { inputText: string; context: Record<string, unknown> | null };

/** Set on a trajectory whose reward came from its environment: RULER leaves its group alone. */
export const ENVIRONMENT_REWARD = 'environment';

/** What a WORKER rollout needs besides the chat client: the run's backend, its model and inference server. */
export interface CollectTarget {
  backend: TrainingBackend;
  trainable: TrainableModel;
  inference: InferenceTarget;
}

/** The run's rollout, built for one step (`target` is required by the WORKER kind). */
export function rolloutFor(
  ctx: StageContext,
  chat: ChatClient,
  inferenceModel: string,
  target?: CollectTarget,
): Rollout {
  const { config } = ctx.deps;
  const retry = { attempts: config.retryAttempts, baseDelayMs: config.retryBaseMs };
  const worker =
    ctx.settings.rollout?.kind === 'worker' && target
      ? rolloutWorker(ctx.settings.rollout.url, target.backend, {
          timeoutMs: config.requestTimeoutMs,
          prepareTimeoutMs: config.prepareTimeoutMs,
          streamIdleMs: 2 * config.stallTimeoutMs,
          retry,
          token: config.workerToken,
        })
      : undefined;
  return createRollout(ctx.settings.rollout, {
    chat,
    model: inferenceModel,
    temperature: ctx.settings.temperature,
    timeoutMs: config.requestTimeoutMs,
    retry,
    redact: (text) => ctx.deps.redact(text),
    ...(worker && target ? { worker, trainable: target.trainable, inference: target.inference } : {}),
  });
}

export async function collect(
  ctx: StageContext,
  run: TrainingRun,
  batch: Batch<StepItem>,
  chat: ChatClient,
  inferenceModel: string,
  target?: CollectTarget,
): Promise<void> {
  const rollout = rolloutFor(ctx, chat, inferenceModel, target);
  // One pool of rollout slots for the whole step: maxConcurrentRollouts in flight across all groups.
  const slots = new Semaphore(ctx.settings.maxConcurrentRollouts);
  ctx.publishProgress();
  await Promise.all(
    batch.items.map(async (item, group) => {
      const episode = (index: number): Episode => ({
        id: derivedUuid('atelier-episode', run.uuid, batch.step, group, index),
        scenario: { input_text: item.inputText, context: item.context },
        systemPrompt: run.systemPrompt,
      });
      const hooks = {
        signal: ctx.signal,
        onTurn: () => {
          ctx.touch();
          ctx.publishProgress();
        },
      };
      const finished = () => {
        ctx.progress.rolloutsDone++;
        ctx.touch();
        ctx.publishProgress();
      };
      const metadataBase = (r: EpisodeResult, index: number) => ({
        kind: 'rollout',
        step: batch.step,
        epoch: batch.epoch,
        epoch_step: batch.epochStep,
        group,
        rollout: index,
        ...(r.error ? { error: r.error } : {}),
      });
      // Agentic kinds store each trajectory as it finishes, in arrival order (its ART position), one
      // transaction each and one after the other; the group is finalised once all are in.
      const arrived: Array<{ r: EpisodeResult; index: number }> = [];
      let appends: Promise<unknown> = Promise.resolve();
      const arrive = (index: number, r: EpisodeResult) => {
        const position = arrived.length;
        arrived.push({ r, index });
        if (rollout.kind === 'builtin') return;
        appends = appends.then(() =>
          ctx.deps.trajectories.appendToGroup(
            run.id,
            batch.step,
            'train',
            group,
            position,
            artTrajectory(rollout, r, { ...metadataBase(r, index) }),
            artOptions(ctx),
          ),
        );
        appends.catch(() => undefined); // awaited below; a failed rollout must not leave it unhandled
      };
      const results = rollout.playGroup
        ? // A kind that plays the group in one go (WORKER): one slot, each rollout counted as it finishes.
          await slots.run(() =>
            rollout.playGroup!(
              Array.from({ length: run.rolloutsPerGroup }, (_, index) => episode(index)),
              hooks,
              (index, r) => {
                finished();
                arrive(index, r);
              },
            ),
          )
        : await Promise.all(
            Array.from({ length: run.rolloutsPerGroup }, (_, index) =>
              slots.run(async () => {
                const result = await rollout.play(episode(index), hooks);
                finished();
                arrive(index, result);
                return result;
              }),
            ),
          );
      // What a kind returned without announcing it (a worker that failed mid-group: the rest, failed).
      const announced = arrived.length;
      if (rollout.playGroup) results.slice(announced).forEach((r, i) => arrive(announced + i, r));
      await appends;
      const succeeded = results.filter((r) => !r.error).length;
      const dropped =
        succeeded < 2
          ? `only ${succeeded} of ${results.length} rollouts succeeded; a group needs at least 2 to compare`
          : null;
      const metadata = (r: EpisodeResult, index: number) => ({
        ...metadataBase(r, index),
        ...(dropped ? { dropped_reason: dropped } : {}),
      });
      if (rollout.kind === 'builtin') await storeSingleTurn(ctx, run, batch, item, results, metadata);
      else await finaliseArt(ctx, run, batch, group, rollout, arrived, metadata);
    }),
  );
}

type MetadataOf = (r: EpisodeResult, index: number) => Record<string, string | number>;

/** Today's rows: the messages, and the trained turn's choice verbatim (token logprobs included). */
async function storeSingleTurn(
  ctx: StageContext,
  run: TrainingRun,
  batch: Batch<StepItem>,
  item: StepItem,
  results: EpisodeResult[],
  metadataOf: MetadataOf,
): Promise<void> {
  await ctx.deps.trajectories.record(
    run.id,
    results.map((r, index) => {
      const items = r.trajectory.messages_and_choices;
      const choice = r.error
        ? undefined
        : (items.at(-1) as { message: { content: string | null }; finish_reason?: unknown });
      const messages = (r.error ? items : items.slice(0, -1)) as Array<{ role: string; content: string }>;
      return {
        taskInput: { step: batch.step, inputText: item.inputText, context: item.context },
        messages: choice ? [...messages, { role: 'assistant', content: choice.message.content ?? '' }] : messages,
        reward: null,
        metadata: { ...metadataOf(r, index), ...(choice ? { finish_reason: choice.finish_reason } : {}) },
        choice,
      };
    }),
    { guard: ctx.guard('collecting') },
  );
}

/** A trajectory as ART JSON, its reward the environment's (or 0 until RULER scores it), Atelier's metadata merged in. */
function artTrajectory(rollout: Rollout, r: EpisodeResult, metadata: Record<string, string | number>) {
  return {
    ...r.trajectory,
    reward: r.reward ?? 0,
    metadata: {
      ...r.trajectory.metadata,
      ...metadata,
      rollout_kind: rollout.kind,
      turns: r.turns,
      ...(r.reward !== null ? { reward_source: ENVIRONMENT_REWARD } : {}),
    },
  };
}

function artOptions(ctx: StageContext) {
  return {
    guard: ctx.guard('collecting'),
    // Until RULER scores them, trajectories without an environment reward (and failed ones) have none.
    pendingReward: (t: Record<string, unknown>) => {
      const m = t.metadata as Record<string, unknown>;
      return m.reward_source !== ENVIRONMENT_REWARD || typeof m.error === 'string';
    },
  };
}

/** Completes one ART group: every trajectory (failed ones with their cause and the turns they played), their exceptions. */
async function finaliseArt(
  ctx: StageContext,
  run: TrainingRun,
  batch: Batch<StepItem>,
  group: number,
  rollout: Rollout,
  arrived: Array<{ r: EpisodeResult; index: number }>,
  metadataOf: MetadataOf,
): Promise<void> {
  await ctx.deps.trajectories.finaliseGroup(
    run.id,
    batch.step,
    'train',
    {
      index: group,
      trajectories: arrived.map(({ r, index }) => artTrajectory(rollout, r, metadataOf(r, index))),
      metadata: { step: batch.step, group },
      exceptions: arrived
        .filter(({ r }) => r.error)
        .map(
          ({ r }) =>
            r.exception ?? {
              type: /^(\w+Error):/.exec(r.error!)?.[1] ?? 'RolloutError',
              message: r.error!,
              traceback: '',
            },
        ),
    },
    artOptions(ctx),
  );
}
