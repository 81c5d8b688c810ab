// The pipeline scenario's baseline: the same run as an Atelier pipeline run, driven by the least code
// that can drive it — generate → rollouts → RULER → train, with plain fetch against the same simulator
// endpoints and the same concurrency, nothing stored, no retries, no progress, no watchdog. It builds
// its requests with Atelier's pure prompt builders (src/pipeline/prompts.ts, ruler.ts) and iterates the
// dataset as Atelier does (src/domain/dataset.ts), so both sides send the same calls.
import { iterateDataset } from '../../src/domain/dataset';
import { mapLimit, Semaphore } from '../../src/pipeline/concurrency';
import { cleanInputs, inputsRequest, systemPromptRequest } from '../../src/pipeline/prompts';
import { buildJudgeRequest, parseJudgeAnswer, scoresForGroup } from '../../src/pipeline/ruler';
import type { ChatMessage, ChatRequest } from '../../src/providers/chat';

export interface MinimalLoopOptions {
  openaiUrl: string;
  artUrl: string;
  project: string;
  name: string;
  baseModel: string;
  taskDescription: string;
  generatorModel: string;
  judgeModel: string;
  numExamples: number;
  rolloutsPerGroup: number;
  numEpochs: number;
  groupsPerStep: number;
  maxConcurrentRollouts: number;
  maxConcurrentJudgeCalls: number;
  temperature: number;
  learningRate: number;
}

interface Choice {
  message: { role: string; content: string | null };
  [key: string]: unknown;
}

async function post(url: string, body: unknown): Promise<Response> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  return res;
}

async function complete(base: string, req: ChatRequest): Promise<Choice> {
  const answer = (await (await post(`${base}/chat/completions`, req)).json()) as { choices: Choice[] };
  return answer.choices[0];
}

/** Milliseconds spent in each stage, named as Atelier's statuses. */
export type Phases = Record<'generating' | 'collecting' | 'scoring' | 'training', number>;

/** Runs the loop; answers its wall time (ms), the time of each stage and the gradient steps the backend streamed. */
export async function runMinimalLoop(
  o: MinimalLoopOptions,
): Promise<{ wallMs: number; phases: Phases; gradientSteps: number }> {
  const started = performance.now();
  const phases: Phases = { generating: 0, collecting: 0, scoring: 0, training: 0 };
  let mark = started;
  const lap = (phase: keyof Phases) => {
    const t = performance.now();
    phases[phase] += t - mark;
    mark = t;
  };
  const model = {
    name: o.name,
    project: o.project,
    entity: null,
    id: null,
    config: null,
    trainable: true,
    base_model: o.baseModel,
    inference_api_key: null,
    inference_base_url: null,
    inference_model_name: null,
  };
  // Generate: a system prompt, then the inputs (asked again until there are enough distinct ones).
  const system =
    (await complete(o.openaiUrl, systemPromptRequest(o.generatorModel, o.taskDescription))).message.content?.trim() ??
    '';
  const inputs = new Set<string>();
  while (inputs.size < o.numExamples) {
    const choice = await complete(
      o.openaiUrl,
      inputsRequest(o.generatorModel, o.taskDescription, o.numExamples - inputs.size),
    );
    for (const text of cleanInputs(JSON.parse(choice.message.content ?? '{}'))) inputs.add(text);
  }
  const items = [...inputs].slice(0, o.numExamples);
  await post(`${o.artUrl}/register`, model);
  await post(`${o.artUrl}/_prepare_backend_for_training`, { model, config: null });
  lap('generating');
  let gradientSteps = 0;
  for (const batch of iterateDataset(items, { groupsPerStep: o.groupsPerStep, numEpochs: o.numEpochs })) {
    // Rollouts: one pool of maxConcurrentRollouts slots for the step, as Atelier's collect stage.
    const slots = new Semaphore(o.maxConcurrentRollouts);
    const groups = await Promise.all(
      batch.items.map((input) =>
        Promise.all(
          Array.from({ length: o.rolloutsPerGroup }, () =>
            slots.run(async () => {
              const messages: ChatMessage[] = [
                { role: 'system', content: system },
                { role: 'user', content: input },
              ];
              const choice = await complete(o.openaiUrl, {
                model: o.name,
                messages,
                temperature: o.temperature,
                logprobs: true,
              });
              return { messages, choice };
            }),
          ),
        ),
      ),
    );
    lap('collecting');
    // RULER: one judge call per group, maxConcurrentJudgeCalls at once.
    const scored = await mapLimit(groups, o.maxConcurrentJudgeCalls, async (group) => {
      const trajectories = group.map((r) => [
        ...r.messages,
        { role: 'assistant' as const, content: r.choice.message.content ?? '' },
      ]);
      const prompt = buildJudgeRequest(o.judgeModel, { trajectories });
      const answer = await complete(o.openaiUrl, prompt.request);
      const scores = scoresForGroup(
        prompt,
        parseJudgeAnswer(JSON.parse(answer.message.content ?? '{}'), prompt.ids),
        group.length,
      );
      return {
        trajectories: group.map((r, i) => ({
          messages_and_choices: [...r.messages, r.choice],
          tools: null,
          reward: scores[i].score,
          metrics: { ruler_score: scores[i].score },
          metadata: {},
          logs: [scores[i].explanation],
        })),
        metadata: {},
        exceptions: [],
      };
    });
    lap('scoring');
    // Train: the step's groups in one streamed call, read to its end.
    const res = await post(`${o.artUrl}/_train_model`, {
      model,
      trajectory_groups: scored,
      config: { learning_rate: o.learningRate, beta: 0 },
      dev_config: {},
      verbose: false,
    });
    const text = await res.text();
    gradientSteps += text.split('\n').filter((l) => l.trim()).length;
    lap('training');
  }
  return { wallMs: performance.now() - started, phases, gradientSteps };
}
