// SCORING: ranks each scorable group of the step's rollouts with one RULER judge call and stores
// the scores as the trajectories' rewards.
import type { ChatClient, ChatMessage } from '../../providers/chat';
import { ProviderError } from '../../providers/http';
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
import type { StageContext } from './context';
import { groupsOf } from './groups';
import { TokenTally } from './token-tally';

export async function score(ctx: StageContext, step: number): Promise<void> {
  const { deps, settings } = ctx;
  const groups = groupsOf(await deps.trajectories.forStep(ctx.runId, step)).filter((g) => g.scorable.length >= 2);
  ctx.progress.judgeCallsTotal = groups.length;
  ctx.publishProgress();
  const judgeClient = deps.chat(deps.config.openaiBaseUrl!, deps.config.openaiApiKey, 'judge');
  const judgeModel = settings.judgeModel ?? deps.config.judgeModel!;
  const tokens = new TokenTally('judge');
  await mapLimit(groups, settings.maxConcurrentJudgeCalls, async (group) => {
    const trajectories = group.scorable.map((t) => messagesFromJson(t.messages) as ChatMessage[]);
    const prompt = buildJudgeRequest(judgeModel, { trajectories }, settings.rubric);
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
      ctx.guard('scoring'),
    );
    ctx.progress.judgeCallsDone++;
    ctx.touch();
    ctx.publishProgress();
  });
  await deps.runs.addCosts(ctx.runId, step, tokens.values(), ctx.guard('scoring'));
}

/** One RULER call; an answer with wrong, missing or repeated ids is asked again once, with what was wrong. */
async function judge(
  ctx: StageContext,
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
