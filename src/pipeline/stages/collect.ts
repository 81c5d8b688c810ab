// COLLECTING: runs rolloutsPerGroup rollouts of each of the step's inputs on the model being
// trained and stores them as trajectories, one group per input.
import type { Batch } from '../../domain/dataset';
import type { ChatChoice, ChatClient, ChatMessage } from '../../providers/chat';
import { AbortedError, ProviderError } from '../../providers/http';
import type { TrainingRun } from '../../runs/run.model';
import { Semaphore } from '../concurrency';
import type { StageContext } from './context';

export type StepItem = { inputText: string; context: Record<string, unknown> | null };

export async function collect(
  ctx: StageContext,
  run: TrainingRun,
  batch: Batch<StepItem>,
  chat: ChatClient,
  inferenceModel: string,
): Promise<void> {
  const system = run.systemPrompt ?? '';
  // One pool of rollout slots for the whole step: maxConcurrentRollouts in flight across all groups.
  const slots = new Semaphore(ctx.settings.maxConcurrentRollouts);
  ctx.publishProgress();
  await Promise.all(
    batch.items.map(async (item, group) => {
      const messages: ChatMessage[] = [
        ...(system ? [{ role: 'system' as const, content: system }] : []),
        { role: 'user', content: item.inputText },
      ];
      const rollouts = await Promise.all(
        Array.from({ length: run.rolloutsPerGroup }, (_, rollout) =>
          slots.run(async () => {
            const outcome = await rolloutOnce(ctx, chat, inferenceModel, messages, ctx.settings.temperature);
            ctx.progress.rolloutsDone++;
            ctx.touch();
            ctx.publishProgress();
            return { rollout, ...outcome };
          }),
        ),
      );
      const succeeded = rollouts.filter((r) => r.choice).length;
      const dropped =
        succeeded < 2
          ? `only ${succeeded} of ${run.rolloutsPerGroup} rollouts succeeded; RULER needs at least 2 to compare`
          : null;
      await ctx.deps.trajectories.record(
        run.id,
        rollouts.map((r) => ({
          taskInput: { step: batch.step, inputText: item.inputText, context: item.context },
          messages: r.choice ? [...messages, { role: 'assistant', content: r.choice.message.content ?? '' }] : messages,
          reward: null,
          metadata: {
            kind: 'rollout',
            step: batch.step,
            epoch: batch.epoch,
            epoch_step: batch.epochStep,
            group: group,
            rollout: r.rollout,
            ...(r.choice ? { finish_reason: r.choice.finish_reason } : { error: r.error }),
            ...(dropped ? { dropped_reason: dropped } : {}),
          },
          choice: r.choice ?? undefined,
        })),
        { guard: ctx.guard('collecting') },
      );
    }),
  );
}

/** One rollout; a provider failure is kept as the rollout's error instead of failing the step. */
async function rolloutOnce(
  ctx: StageContext,
  chat: ChatClient,
  model: string,
  messages: ChatMessage[],
  temperature: number,
): Promise<{ choice?: ChatChoice; error?: string }> {
  try {
    return {
      choice: await chat.complete({ model, messages, temperature, logprobs: true }, ctx.signal, () => ctx.touch()),
    };
  } catch (err) {
    if (err instanceof AbortedError || ctx.signal.aborted) throw err;
    if (err instanceof ProviderError) return { error: ctx.deps.redact(err.message) };
    throw err;
  }
}
