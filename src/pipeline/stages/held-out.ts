// Held-out rollouts: a validation during a pipeline run (split `val`, every evalEvery steps) and an
// evaluation of a kept checkpoint (split `eval`, evaluateCheckpoint) play the same way. Each scenario
// gets rolloutsPerGroup episodes on one served checkpoint, with the run's own rollout kind; each group
// is stored ART-natively as it completes (never trained on: the train stage reads split `train` only),
// scored by its environment or RULER, and summarized as ART's model.log summarizes a split.
import type { ChatClient } from '../../providers/chat';
import { createRollout, type EpisodeResult } from '../../rollouts';
import type { TrainingRun } from '../../runs/run.model';
import type { WriteGuard } from '../../runs/write-guard';
import { derivedUuid } from '../../trajectories/art-rows';
import { Semaphore } from '../concurrency';
import { ENVIRONMENT_REWARD, type StepItem } from './collect';
import type { StageContext } from './context';
import { scoreRows } from './score';

export interface HeldOutPlan {
  split: 'val' | 'eval';
  /** The checkpoint's step: the history step its metrics and trajectories are recorded at. */
  step: number;
  items: StepItem[];
  /** The first ART group index (an evaluation's groups sit in their own range of the step). */
  groupOffset: number;
  /** Makes episode ids unique to this validation or evaluation (and stable across a resume). */
  episodeKey: string;
  /** The served name of the checkpoint. */
  model: string;
  guard: WriteGuard;
  /** Whose judge tokens these are in the run's costs. */
  who: 'val_judge' | 'eval_judge';
  /** Extra metadata on every trajectory (an evaluation's id). */
  metadata?: Record<string, string | number>;
}

/** The ART group index range a plan writes. */
export function groupRange(plan: Pick<HeldOutPlan, 'groupOffset' | 'items'>): { from: number; to: number } {
  return { from: plan.groupOffset, to: plan.groupOffset + Math.max(0, plan.items.length - 1) };
}

/**
 * Plays, stores and scores the plan; answers its summary as ART's model.log names a split's values
 * (`reward`, `reward_std_dev`, `exception_rate`, plus `trajectories` and `scored` counts), recorded by
 * the caller under the split.
 */
export async function playHeldOut(
  ctx: StageContext,
  run: TrainingRun,
  chat: ChatClient,
  plan: HeldOutPlan,
): Promise<Record<string, number>> {
  const { config } = ctx.deps;
  const rollout = createRollout(ctx.settings.rollout, {
    chat,
    model: plan.model,
    temperature: ctx.settings.temperature,
    timeoutMs: config.requestTimeoutMs,
    retry: { attempts: config.retryAttempts, baseDelayMs: config.retryBaseMs },
    redact: (text) => ctx.deps.redact(text),
  });
  const slots = new Semaphore(ctx.settings.maxConcurrentRollouts);
  ctx.progress.rolloutsDone = 0;
  ctx.progress.rolloutsTotal = plan.items.length * run.rolloutsPerGroup;
  ctx.progress.judgeCallsDone = 0;
  ctx.progress.judgeCallsTotal = 0;
  ctx.publishProgress();
  await Promise.all(
    plan.items.map(async (item, position) => {
      const group = plan.groupOffset + position;
      const results: EpisodeResult[] = await Promise.all(
        Array.from({ length: run.rolloutsPerGroup }, (_, index) =>
          slots.run(async () => {
            const result = await rollout.play(
              {
                id: derivedUuid(plan.episodeKey, run.uuid, plan.step, group, index),
                scenario: { input_text: item.inputText, context: item.context },
                systemPrompt: run.systemPrompt,
              },
              {
                signal: ctx.signal,
                onTurn: () => {
                  ctx.touch();
                  ctx.publishProgress();
                },
              },
            );
            ctx.progress.rolloutsDone++;
            ctx.touch();
            ctx.publishProgress();
            return result;
          }),
        ),
      );
      const succeeded = results.filter((r) => !r.error).length;
      const dropped =
        succeeded < 2 && results.some((r) => r.reward === null)
          ? `only ${succeeded} of ${run.rolloutsPerGroup} rollouts succeeded; RULER needs at least 2 to compare`
          : null;
      await ctx.deps.trajectories.recordGroups(
        run.id,
        plan.step,
        plan.split,
        [
          {
            index: group,
            trajectories: results.map((r, index) => ({
              ...r.trajectory,
              reward: r.reward ?? 0,
              metadata: {
                ...r.trajectory.metadata,
                ...(plan.metadata ?? {}),
                kind: 'rollout',
                split: plan.split,
                step: plan.step,
                group,
                rollout: index,
                model: plan.model,
                rollout_kind: rollout.kind,
                turns: r.turns,
                ...(r.error ? { error: r.error } : {}),
                ...(dropped ? { dropped_reason: dropped } : {}),
                ...(r.reward !== null ? { reward_source: ENVIRONMENT_REWARD } : {}),
              },
            })),
            metadata: { step: plan.step, group, split: plan.split },
            exceptions: results
              .filter((r) => r.error)
              .map((r) => ({
                type: /^(\w+Error):/.exec(r.error!)?.[1] ?? 'RolloutError',
                message: r.error!,
                traceback: '',
              })),
          },
        ],
        {
          guard: plan.guard,
          pendingReward: (t) => {
            const m = t.metadata as Record<string, unknown>;
            return m.reward_source !== ENVIRONMENT_REWARD || typeof m.error === 'string';
          },
        },
      );
    }),
  );
  const range = groupRange(plan);
  const stored = () => ctx.deps.trajectories.inGroups(run.id, plan.split, plan.step, range.from, range.to);
  await scoreRows(ctx, await stored(), plan.guard, plan.step, plan.who);
  return summarize(await stored());
}

/** A split's summary: the mean and standard deviation of the scored rewards, and the share of episodes that failed. */
function summarize(rows: Array<{ reward: number | null; metadata: string | null }>): Record<string, number> {
  const failed = rows.filter((r) => typeof (JSON.parse(r.metadata ?? '{}') as { error?: unknown }).error === 'string');
  const rewards = rows.filter((r) => !failed.includes(r) && r.reward !== null).map((r) => r.reward!);
  const out: Record<string, number> = {
    trajectories: rows.length,
    scored: rewards.length,
    exception_rate: rows.length ? failed.length / rows.length : 0,
  };
  if (rewards.length) {
    const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
    out.reward = mean;
    out.reward_std_dev = Math.sqrt(rewards.reduce((a, b) => a + (b - mean) ** 2, 0) / rewards.length);
  }
  return out;
}
