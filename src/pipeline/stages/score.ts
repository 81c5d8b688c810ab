// SCORING: ranks each scorable group of the step's rollouts with one RULER judge call and stores
// the scores as the trajectories' rewards.
import type { ChatClient, ChatMessage } from '../../providers/chat';
import { ProviderError } from '../../providers/http';
import { messagesFromJson } from '../../trajectories/trajectory.model';
import { mapLimit } from '../concurrency';
import { buildJudgeRequest, JudgeAnswerError, parseJudgeAnswer } from '../ruler';
import type { StageContext } from './context';
import { groupsOf } from './groups';

export async function score(ctx: StageContext, step: number): Promise<void> {
  const { deps, settings } = ctx;
  const groups = groupsOf(await deps.trajectories.forStep(ctx.runId, step)).filter((g) => g.scorable.length >= 2);
  ctx.progress.judgeCallsTotal = groups.length;
  ctx.publishProgress();
  const judgeClient = deps.chat(deps.config.openaiBaseUrl!, deps.config.openaiApiKey, 'judge');
  const judgeModel = settings.judgeModel ?? deps.config.judgeModel!;
  await mapLimit(groups, settings.maxConcurrentJudgeCalls, async (group) => {
    const conversations = group.scorable.map((t) => messagesFromJson(t.messages) as ChatMessage[]);
    // Identical trajectories cannot be ranked against each other: score one absolutely, as ART does.
    const identical = conversations.every((c) => JSON.stringify(c) === JSON.stringify(conversations[0]));
    const sent = identical ? conversations.slice(0, 1) : conversations;
    const scores = await judge(ctx, judgeClient, judgeModel, sent, settings.rubric);
    await deps.trajectories.applyScores(
      ctx.runId,
      group.scorable.map((t, i) => {
        const s = scores[identical ? 0 : i];
        return { id: t.id, reward: s.score, metadata: { independent_reward: t.reward, ruler_score: s.score, ruler_explanation: s.explanation } };
      }),
      ctx.guard('scoring'),
    );
    ctx.progress.judgeCallsDone++;
    ctx.touch();
    ctx.publishProgress();
  });
}

/** One RULER call; a wrong number of scores is asked again once, as newer ART does. */
async function judge(ctx: StageContext, client: ChatClient, model: string, conversations: ChatMessage[][], rubric: string | null) {
  const request = buildJudgeRequest(model, conversations, rubric);
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.completeJson(request, (v) => parseJudgeAnswer(v, conversations.length), ctx.signal);
    } catch (err) {
      if (err instanceof JudgeAnswerError && err.retryable && attempt === 1) continue;
      if (err instanceof JudgeAnswerError) throw new ProviderError(`RULER judge (${model}): ${err.message}`, 200, false);
      throw err;
    }
  }
}
