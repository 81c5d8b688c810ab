// GENERATING: writes the run's system prompt (if it has none) and asks the generator model for its
// distinct task inputs, then stores both as the run's dataset.
import { ProviderError } from '../../providers/http';
import { listMcpTools } from '../../rollouts';
import type { TrainingRun } from '../../runs/run.model';
import { cleanInputs, inputsRequest, systemPromptRequest } from '../prompts';
import type { StageContext } from './context';
import { TokenTally } from './token-tally';

const GENERATION_ATTEMPTS = 5;

export async function generate(ctx: StageContext, run: TrainingRun): Promise<void> {
  const { deps, settings } = ctx;
  // Held-out VAL inputs (evalScenarios) are the user's; only TRAIN inputs are generated.
  const existing = (await deps.runs.taskInputs(run.id)).filter((t) => t.split !== 'val');
  let systemPrompt = run.systemPrompt;
  const generator = deps.chat(deps.config.openaiBaseUrl!, deps.config.openaiApiKey, 'generator');
  const generatorModel = settings.generatorModel ?? deps.config.generatorModel!;
  const tokens = new TokenTally('generator');
  if (!systemPrompt) {
    const choice = await generator.complete(
      systemPromptRequest(generatorModel, run.taskDescription),
      ctx.signal,
      undefined,
      tokens.add,
    );
    systemPrompt = (choice.message.content ?? '').trim() || null;
    ctx.touch();
  }
  if (existing.length >= run.numExamples && run.systemPrompt) return;
  // The user's own scenarios are the dataset: only the system prompt is written.
  if (settings.scenarioSource) return deps.runs.recordDataset(run.id, null, systemPrompt, ctx.guard('generating'));
  const inputs: string[] = existing.length >= run.numExamples ? existing.map((e) => e.inputText) : [];
  // An MCP run's inputs are written from its server's tools, as ART's MCP-RL generates scenarios.
  const task =
    settings.rollout?.kind === 'mcp' && settings.rollout.url
      ? await withTools(ctx, run.taskDescription, settings.rollout.url)
      : run.taskDescription;
  const seen = new Set(inputs);
  for (let attempt = 1; attempt <= GENERATION_ATTEMPTS && inputs.length < run.numExamples; attempt++) {
    const wanted = run.numExamples - inputs.length;
    try {
      const answer = await generator.completeJson(
        inputsRequest(generatorModel, task, wanted),
        (v) => v,
        ctx.signal,
        tokens.add,
      );
      for (const text of cleanInputs(answer)) {
        if (!seen.has(text)) {
          seen.add(text);
          inputs.push(text);
        }
      }
    } catch (err) {
      // A malformed answer costs one attempt; transport failures were already retried.
      if (!(err instanceof ProviderError) || err.status !== 200 || attempt === GENERATION_ATTEMPTS) throw err;
    }
    ctx.touch();
  }
  if (inputs.length < run.numExamples) {
    throw new ProviderError(
      `the generator gave ${inputs.length} distinct inputs of ${run.numExamples} after ${GENERATION_ATTEMPTS} attempts`,
      null,
      false,
    );
  }
  await deps.runs.recordDataset(
    run.id,
    inputs.slice(0, run.numExamples).map((inputText) => ({ inputText, context: null })),
    systemPrompt,
    ctx.guard('generating'),
  );
  // Generation precedes the first step: its tokens count at step 0.
  await deps.runs.addCosts(run.id, 0, tokens.values(), ctx.guard('generating'));
}

/** The task description followed by the MCP server's tools, so each generated input is a task they serve. */
async function withTools(ctx: StageContext, taskDescription: string, url: string): Promise<string> {
  const tools = await listMcpTools(url, { timeoutMs: ctx.deps.config.requestTimeoutMs, signal: ctx.signal });
  ctx.touch();
  const list = tools.map((t) => `- ${t.name}${t.description ? `: ${t.description}` : ''}`).join('\n');
  return `${taskDescription}\n\nThe agent works through an MCP server with these tools:\n${list}\nEach input is a task for the agent that these tools help it complete.`;
}
