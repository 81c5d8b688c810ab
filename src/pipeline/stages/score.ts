// SCORING: ranks each scorable group of the step's rollouts with one RULER judge call and stores
// the scores as the trajectories' rewards. A group whose environment rewarded every trajectory is
// left as it is; RULER scores the others, seeing the tools the agent had in <available_tools>.
import type { TrajectoryRow } from '../../db/entities';
import { parseJsonObject } from '../../db/json';
import type { ChatClient, ChatMessage } from '../../providers/chat';
import { ProviderError } from '../../providers/http';
import { conversationOf, type ArtTrajectoryJson } from '../../rollouts';
import type { WriteGuard } from '../../runs/write-guard';
import { messagesFromJson } from '../../trajectories/trajectory.model';
import { mapLimit } from '../concurrency';
import {
  buildJudgeRequest,
  JudgeAnswerError,
  parseJudgeAnswer,
  retryRequest,
  scoresForGroup,
  type JudgePrompt,
  type JudgeScore,
} from '../ruler';
import { ENVIRONMENT_REWARD } from './collect';
import type { StageContext } from './context';
import { groupsOf } from './groups';
import { TokenTally } from './token-tally';

export async function score(ctx: StageContext, step: number): Promise<void> {
  await scoreRows(ctx, await ctx.deps.trajectories.forStep(ctx.runId, step), ctx.guard('scoring'), step);
}

/**
 * Scores stored rollouts (a training step's, a validation's or an evaluation's) group by group, the
 * scores written under `guard`; the judge's tokens go to the run's costs at `costStep` (`who` names them).
 */
export async function scoreRows(
  ctx: Pick<StageContext, 'deps' | 'runId' | 'settings' | 'signal' | 'progress' | 'touch' | 'publishProgress'>,
  rows: TrajectoryRow[],
  guard: WriteGuard,
  costStep: number,
  who: 'judge' | 'val_judge' | 'eval_judge' = 'judge',
): Promise<void> {
  const { deps, settings } = ctx;
  const groups = groupsOf(rows).filter(
    (g) =>
      g.scorable.length >= 2 &&
      !g.scorable.every((t) => parseJsonObject(t.metadata).reward_source === ENVIRONMENT_REWARD),
  );
  ctx.progress.judgeCallsTotal = groups.length;
  ctx.publishProgress();
  if (groups.length === 0) return;
  const art = await deps.trajectories.artOf(groups.flatMap((g) => g.scorable.map((t) => t.id)));
  const judgeClient = deps.chat(deps.config.openaiBaseUrl!, deps.config.openaiApiKey, 'judge');
  const judgeModel = settings.judgeModel ?? deps.config.judgeModel!;
  const tokens = new TokenTally(who);
  await mapLimit(groups, settings.maxConcurrentJudgeCalls, async (group) => {
    // ART data: the conversation as ART's Trajectory.messages() gives it (tool calls included) and its tools.
    const stored = group.scorable
      .map((t) => art.get(t.id))
      .map((a) => (a ? (JSON.parse(a) as ArtTrajectoryJson) : null));
    const trajectories = group.scorable.map((t, i) =>
      stored[i]
        ? (conversationOf(stored[i]!) as unknown as ChatMessage[])
        : (messagesFromJson(t.messages) as ChatMessage[]),
    );
    // As ART's ruler_score_group: the first trajectory's tools (a group's trajectories share them).
    const tools = stored[0]?.tools ?? null;
    const prompt = buildJudgeRequest(judgeModel, { trajectories, tools }, settings.rubric);
    const scores = scoresForGroup(
      prompt,
      await judge(ctx, judgeClient, judgeModel, prompt, tokens),
      trajectories.length,
    );
    await deps.trajectories.applyScores(
      ctx.runId,
      group.scorable.map((t, i) => ({
        id: t.id,
        reward: scores[i].score,
        metadata: {
          independent_reward: t.reward,
          ruler_score: scores[i].score,
          ruler_explanation: deps.redact(scores[i].explanation),
        },
      })),
      guard,
    );
    ctx.progress.judgeCallsDone++;
    ctx.touch();
    ctx.publishProgress();
  });
  await deps.runs.addCosts(ctx.runId, costStep, tokens.values(), guard);
}

/** One RULER call; an answer with wrong, missing or repeated ids is asked again once, with what was wrong. */
async function judge(
  ctx: Pick<StageContext, 'signal'>,
  client: ChatClient,
  model: string,
  prompt: JudgePrompt,
  tokens: TokenTally,
): Promise<JudgeScore[]> {
  let request = prompt.request;
  for (let attempt = 1; ; attempt++) {
    let answer = '';
    try {
      return await client.completeJson(
        request,
        (value, raw) => {
          answer = raw;
          return parseJudgeAnswer(value, prompt.ids);
        },
        ctx.signal,
        tokens.add,
      );
    } catch (err) {
      if (err instanceof JudgeAnswerError && err.retryable && attempt === 1) {
        request = retryRequest(prompt, answer, err.message.replace(/^the judge returned /, ''));
        continue;
      }
      if (err instanceof JudgeAnswerError)
        throw new ProviderError(`RULER judge (${model}): ${err.message}`, 200, false);
      throw err;
    }
  }
}
