// Drives one pipeline run through ART's AutoRL loop: generate inputs, then for each step of the
// dataset iteration collect rollouts, score them with RULER and train on them through the ART
// backend. Every write is guarded by the status it expects, so once a run is cancelled nothing more
// is written; a restart resumes from what is stored (completed steps are never redone).
import { totalSteps, iterateDataset, type Batch } from '../domain/dataset';
import type { TrainingStatus } from '../domain/status-machine';
import { ConflictError, IllegalTransitionError, RunNoLongerActiveError } from '../errors';
import type { TrajectoryRow } from '../db/entities';
import { parseJsonObject } from '../db/json';
import { runFromRow, type TrainingRun } from '../runs/run.model';
import { messagesFromJson } from '../trajectories/trajectory.model';
import { ArtBackend, type ArtTrajectory, type ArtTrajectoryGroup, type TrainableModel } from '../providers/art-backend';
import { ChatClient, type ChatChoice, type ChatMessage } from '../providers/chat';
import { AbortedError, ProviderError } from '../providers/http';
import { cleanInputs, inputsRequest, systemPromptRequest } from './prompts';
import { buildJudgeRequest, JudgeAnswerError, parseJudgeAnswer } from './ruler';
import { pipelineSettingsOf, type PipelineSettings } from '../domain/pipeline-settings';
import { mapLimit, Semaphore } from './concurrency';
import type { PipelineDeps } from './deps';
import type { RunProgressEvent } from '../events/topics';
import type { WriteGuard } from '../runs/write-guard';

const GENERATION_ATTEMPTS = 5;

/** The run made no progress for too long: a hung backend or provider. */
export class StallError extends Error {
  constructor(seconds: number) {
    super(`no progress for ${seconds} s (is the ART backend or the model provider hung?)`);
    this.name = 'StallError';
  }
}

/** Why an execution was stopped from outside. */
export type StopReason = 'cancel' | 'shutdown' | 'lease-lost';

type Progress = Omit<RunProgressEvent, 'runId' | 'totalSteps' | 'at'>;

export class RunExecution {
  private readonly controller = new AbortController();
  private stage: TrainingStatus = 'pending';
  private lastProgressAt = Date.now();
  /** While a call known to be slow is in flight (prepare starts vLLM), the watchdog waits longer. */
  private slowUntil = 0;
  private totalSteps = 0;
  private progress: Progress = { step: 0, epoch: 0, rolloutsDone: 0, rolloutsTotal: 0, judgeCallsDone: 0, judgeCallsTotal: 0, gradientStepsDone: 0, gradientStepsTotal: null };

  constructor(
    private readonly deps: PipelineDeps,
    readonly runId: number,
    /** The lease this execution holds; every write checks it (undefined: a single instance, no leases). */
    private readonly leaseOwner?: string,
  ) {}

  /** The guard for a write made in the given stage. */
  private guard(status: TrainingStatus): WriteGuard {
    return { statuses: [status], leaseOwner: this.leaseOwner };
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the execution: in-flight calls are aborted. A cancel has already made the run CANCELLED. */
  stop(reason: StopReason): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  async run(): Promise<void> {
    const stallMs = this.deps.config.stallTimeoutMs;
    const watchdog = setInterval(() => {
      const now = Date.now();
      if (now < this.slowUntil) return;
      if (now - this.lastProgressAt > stallMs) this.controller.abort(new StallError(Math.round(stallMs / 1000)));
    }, Math.min(1000, Math.max(50, stallMs / 4)));
    try {
      await this.drive();
    } catch (err) {
      await this.settle(err);
    } finally {
      clearInterval(watchdog);
    }
  }

  // ---- the loop ----

  private async drive(): Promise<void> {
    let run = await this.load();
    this.stage = run.status;
    const settings = pipelineSettingsOf(run.config);
    const model: TrainableModel = { name: run.trainedModelName ?? `atelier-run-${run.id}`, project: run.projectName, base_model: run.modelName };

    if (run.status === 'pending') run = await this.transition('generating');
    if (run.status === 'generating') await this.generate(run, settings);
    run = await this.load();
    const items = (await this.deps.runsRepo.taskInputsForRuns([run.id])).map((t) => ({ inputText: t.inputText, context: t.context ? parseJsonObject(t.context) : null }));
    this.totalSteps = totalSteps(items.length, settings.groupsPerStep, run.numEpochs, run.maxSteps);

    const art = this.deps.art(run.backend);
    this.touch();
    await art.register(model, this.signal);
    this.slowUntil = Date.now() + this.deps.config.prepareTimeoutMs;
    const inference = await art.prepare(model, this.signal);
    this.slowUntil = 0;
    this.touch();
    let backendStep = await art.getStep(model, this.signal);
    const chat = this.deps.chat(inference.baseUrl, inference.apiKey, 'inference server');

    // A step the backend finished before a restart still needs its history point.
    if (run.currentStep !== null && backendStep > run.currentStep && run.status === 'training') {
      await this.finishStep(run.currentStep, this.epochOf(run.currentStep, items.length, settings), []);
    }

    for (const batch of iterateDataset(items, { groupsPerStep: settings.groupsPerStep, numEpochs: run.numEpochs, maxSteps: run.maxSteps, initialStep: backendStep })) {
      run = await this.load();
      const resumeAt = run.currentStep === batch.step ? run.status : null;
      this.progress = { step: batch.step, epoch: batch.epoch, rolloutsDone: 0, rolloutsTotal: batch.items.length * run.rolloutsPerGroup, judgeCallsDone: 0, judgeCallsTotal: 0, gradientStepsDone: 0, gradientStepsTotal: null };

      if (resumeAt !== 'scoring' && resumeAt !== 'training') {
        await this.enterCollecting(run, batch.step);
        await this.collect(run, batch, settings, chat, `${model.name}@${backendStep}`);
        run = await this.transition('scoring');
      }
      if (resumeAt !== 'training') {
        await this.score(run, batch.step, settings);
        run = await this.transition('training');
      }
      const lines = await this.train(art, model, run, batch.step, backendStep);
      backendStep = await art.getStep(model, this.signal);
      await this.finishStep(batch.step, batch.epoch, lines);
    }

    run = await this.load();
    // A run with nothing (left) to train still walks the lifecycle to its end.
    const rest: Partial<Record<TrainingStatus, TrainingStatus[]>> = { generating: ['collecting', 'scoring', 'training'], collecting: ['scoring', 'training'], scoring: ['training'] };
    const path = rest[run.status] ?? [];
    for (const to of path) await this.transition(to, 'nothing left to train');
    await this.transition('completed', null, { trainedModelName: model.name });
  }

  private epochOf(step: number, itemCount: number, settings: PipelineSettings): number {
    return Math.floor(step / Math.max(1, Math.ceil(itemCount / settings.groupsPerStep)));
  }

  /** COLLECTING for a step: from GENERATING or TRAINING; a step interrupted while collecting is redone from scratch. */
  private async enterCollecting(run: TrainingRun, step: number): Promise<void> {
    if (run.status === 'collecting') {
      await this.deps.trajectories.deleteStep(run.id, step, this.guard('collecting'));
      await this.deps.runs.setCurrentStep(run.id, step, this.guard('collecting'));
      return;
    }
    if (run.status === 'scoring') await this.transition('training', 'redoing an interrupted step');
    await this.transition('collecting', null, { currentStep: step });
  }

  // ---- GENERATING ----

  private async generate(run: TrainingRun, settings: PipelineSettings): Promise<void> {
    const existing = await this.deps.runsRepo.taskInputsForRuns([run.id]);
    let systemPrompt = run.systemPrompt;
    const generator = this.deps.chat(this.deps.config.openaiBaseUrl!, this.deps.config.openaiApiKey, 'generator');
    const generatorModel = settings.generatorModel ?? this.deps.config.generatorModel!;
    if (!systemPrompt) {
      const choice = await generator.complete(systemPromptRequest(generatorModel, run.taskDescription), this.signal);
      systemPrompt = (choice.message.content ?? '').trim() || null;
      this.touch();
    }
    if (existing.length >= run.numExamples && run.systemPrompt) return;
    const inputs: string[] = existing.length >= run.numExamples ? existing.map((e) => e.inputText) : [];
    const seen = new Set(inputs);
    for (let attempt = 1; attempt <= GENERATION_ATTEMPTS && inputs.length < run.numExamples; attempt++) {
      const wanted = run.numExamples - inputs.length;
      try {
        const answer = await generator.completeJson(inputsRequest(generatorModel, run.taskDescription, wanted), (v) => v, this.signal);
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
      this.touch();
    }
    if (inputs.length < run.numExamples) {
      throw new ProviderError(`the generator gave ${inputs.length} distinct inputs of ${run.numExamples} after ${GENERATION_ATTEMPTS} attempts`, null, false);
    }
    await this.deps.runs.recordDataset(run.id, inputs.slice(0, run.numExamples).map((inputText) => ({ inputText, context: null })), systemPrompt, this.guard('generating'));
  }

  // ---- COLLECTING ----

  private async collect(run: TrainingRun, batch: Batch<{ inputText: string; context: Record<string, unknown> | null }>, settings: PipelineSettings, chat: ChatClient, inferenceModel: string): Promise<void> {
    const system = run.systemPrompt ?? '';
    // One pool of rollout slots for the whole step: maxConcurrentRollouts in flight across all groups.
    const slots = new Semaphore(settings.maxConcurrentRollouts);
    this.publishProgress();
    await Promise.all(batch.items.map(async (item, group) => {
      const messages: ChatMessage[] = [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user', content: item.inputText }];
      const rollouts = await Promise.all(
        Array.from({ length: run.rolloutsPerGroup }, (_, rollout) =>
          slots.run(async () => {
            const outcome = await this.rollout(chat, inferenceModel, messages, settings.temperature);
            this.progress.rolloutsDone++;
            this.touch();
            this.publishProgress();
            return { rollout, ...outcome };
          }),
        ),
      );
      const succeeded = rollouts.filter((r) => r.choice).length;
      const dropped = succeeded < 2 ? `only ${succeeded} of ${run.rolloutsPerGroup} rollouts succeeded; RULER needs at least 2 to compare` : null;
      await this.deps.trajectories.record(
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
        { guard: this.guard('collecting') },
      );
    }));
  }

  private async rollout(chat: ChatClient, model: string, messages: ChatMessage[], temperature: number): Promise<{ choice?: ChatChoice; error?: string }> {
    try {
      return { choice: await chat.complete({ model, messages, temperature, logprobs: true }, this.signal, () => this.touch()) };
    } catch (err) {
      if (err instanceof AbortedError || this.signal.aborted) throw err;
      if (err instanceof ProviderError) return { error: this.deps.redact(err.message) };
      throw err;
    }
  }

  // ---- SCORING ----

  private async score(run: TrainingRun, step: number, settings: PipelineSettings): Promise<void> {
    const groups = groupsOf(await this.deps.trajectoriesRepo.forStep(run.id, step)).filter((g) => g.scorable.length >= 2);
    this.progress.judgeCallsTotal = groups.length;
    this.publishProgress();
    const judge = this.deps.chat(this.deps.config.openaiBaseUrl!, this.deps.config.openaiApiKey, 'judge');
    const judgeModel = settings.judgeModel ?? this.deps.config.judgeModel!;
    await mapLimit(groups, settings.maxConcurrentJudgeCalls, async (group) => {
      const conversations = group.scorable.map((t) => messagesFromJson(t.messages) as ChatMessage[]);
      // Identical trajectories cannot be ranked against each other: score one absolutely, as ART does.
      const identical = conversations.every((c) => JSON.stringify(c) === JSON.stringify(conversations[0]));
      const sent = identical ? conversations.slice(0, 1) : conversations;
      const scores = await this.judge(judge, judgeModel, sent, settings.rubric);
      await this.deps.trajectories.applyScores(
        run.id,
        group.scorable.map((t, i) => {
          const s = scores[identical ? 0 : i];
          return { id: t.id, reward: s.score, metadata: { independent_reward: t.reward, ruler_score: s.score, ruler_explanation: s.explanation } };
        }),
        this.guard('scoring'),
      );
      this.progress.judgeCallsDone++;
      this.touch();
      this.publishProgress();
    });
  }

  /** One RULER call; a wrong number of scores is asked again once, as newer ART does. */
  private async judge(client: ChatClient, model: string, conversations: ChatMessage[][], rubric: string | null) {
    const request = buildJudgeRequest(model, conversations, rubric);
    for (let attempt = 1; ; attempt++) {
      try {
        return await client.completeJson(request, (v) => parseJudgeAnswer(v, conversations.length), this.signal);
      } catch (err) {
        if (err instanceof JudgeAnswerError && err.retryable && attempt === 1) continue;
        if (err instanceof JudgeAnswerError) throw new ProviderError(`RULER judge (${model}): ${err.message}`, 200, false);
        throw err;
      }
    }
  }

  // ---- TRAINING ----

  /** Trains the step; after a broken stream, asks the backend whether the step was trained before trying again. */
  private async train(art: ArtBackend, model: TrainableModel, run: TrainingRun, step: number, backendStep: number): Promise<Record<string, number>[]> {
    const groups = await this.trainingGroups(step);
    const payload: ArtTrajectoryGroup[] = groups.map((g) => ({ trajectories: g.map(toArtTrajectory), metadata: {}, exceptions: [] }));
    const attempts = this.deps.config.retryAttempts;
    for (let attempt = 1; ; attempt++) {
      const lines: Record<string, number>[] = [];
      this.progress.gradientStepsDone = 0;
      this.progress.gradientStepsTotal = null;
      try {
        await art.train(model, payload, { learning_rate: run.learningRate, beta: 0 }, (values) => {
          lines.push(values);
          this.progress.gradientStepsDone = lines.length;
          if (typeof values.num_gradient_steps === 'number') this.progress.gradientStepsTotal = values.num_gradient_steps;
          this.touch();
          this.publishProgress();
          void this.deps.metrics.recordGradientStep(run.id, step, lines.length - 1, values, this.guard('training')).catch((err) => this.deps.logger.warn(`run ${run.id}: could not store a gradient step: ${err.message}`));
        }, this.signal);
        return lines;
      } catch (err) {
        if (!(err instanceof ProviderError) || !err.transient || attempt >= attempts) throw err;
        if ((await art.getStep(model, this.signal)) > backendStep) return lines;
        this.deps.logger.warn(`run ${run.id}: training step ${step} broke off (${err.message}); trying again`);
        await this.deps.metrics.clearGradientSteps(run.id, step, this.guard('training'));
      }
    }
  }

  /** A step's scored groups of at least two, as sent to the trainer (read from what is stored, so a resumed step counts right). */
  private async trainingGroups(step: number): Promise<TrajectoryRow[][]> {
    return groupsOf(await this.deps.trajectoriesRepo.forStep(this.runId, step))
      .map((g) => g.scorable.filter((t) => t.reward !== null && t.choice))
      .filter((g) => g.length >= 2);
  }

  /** The step's history point: reward statistics come from the stored (scored) trajectories. */
  private async finishStep(step: number, epoch: number, lines: Record<string, number>[]): Promise<void> {
    const mean = (key: string) => {
      const xs = lines.map((l) => l[key]).filter((x): x is number => typeof x === 'number');
      return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
    };
    const groups = await this.trainingGroups(step);
    // A group whose rewards are all equal teaches GRPO nothing: ART skips it.
    const trainable = groups.filter((g) => new Set(g.map((t) => t.reward)).size > 1).length;
    const values: Record<string, number> = { groups: groups.length, trainable_groups: trainable, num_gradient_steps: lines.length };
    for (const key of new Set(lines.flatMap((l) => Object.keys(l)))) {
      const m = mean(key);
      if (m !== null && key !== 'loss' && key !== 'num_gradient_steps') values[key] = m;
    }
    try {
      await this.deps.metrics.record(this.runId, [{ step, epoch, trainingLoss: mean('loss'), values }], this.guard('training'));
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err; // already recorded before a restart
    }
    this.touch();
  }

  // ---- plumbing ----

  private async load(): Promise<TrainingRun> {
    const row = (await this.deps.runsRepo.findByIds([this.runId]))[0];
    if (!row) throw new RunNoLongerActiveError('deleted');
    return runFromRow(row);
  }

  private async transition(to: TrainingStatus, reason: string | null = null, changes: { trainedModelName?: string; currentStep?: number } = {}): Promise<TrainingRun> {
    if (this.signal.aborted) throw new AbortedError(this.signal.reason);
    const run = await this.deps.runs.transition(this.runId, to, reason, changes, { leaseOwner: this.leaseOwner });
    this.stage = to;
    this.touch();
    return run;
  }

  private touch(): void {
    this.lastProgressAt = Date.now();
  }

  private publishProgress(): void {
    this.deps.events.publish('runProgress', { runId: this.runId, totalSteps: this.totalSteps, ...this.progress, at: new Date().toISOString() });
  }

  /** Ends the run after an error: FAILED with the stage and cause, unless it was cancelled or the server is stopping. */
  private async settle(err: unknown): Promise<void> {
    const reason = this.signal.aborted ? this.signal.reason : null;
    if (reason === 'shutdown' || reason === 'lease-lost') return; // resumes here after a restart, or elsewhere
    if (reason === 'cancel' || err instanceof RunNoLongerActiveError || err instanceof IllegalTransitionError) return; // cancelled or failed elsewhere
    const cause = reason instanceof StallError ? reason.message : err instanceof Error ? err.message : String(err);
    const message = this.deps.redact(`${this.stage.toUpperCase()}: ${cause}`);
    this.deps.logger.warn(`run ${this.runId} failed: ${message}`);
    try {
      await this.deps.runs.transition(this.runId, 'failed', message, {}, { leaseOwner: this.leaseOwner });
    } catch (e) {
      if (!(e instanceof IllegalTransitionError)) this.deps.logger.error(`run ${this.runId}: could not record its failure`, e);
    }
  }
}

interface Group {
  index: number;
  /** Rollouts that succeeded and belong to a group that was not dropped. */
  scorable: TrajectoryRow[];
}

/** A step's trajectories by group (metadata.group), keeping only what RULER and training may use. */
function groupsOf(rows: TrajectoryRow[]): Group[] {
  const groups = new Map<number, Group>();
  for (const row of rows) {
    const meta = parseJsonObject(row.metadata);
    if (meta.kind !== 'rollout') continue;
    const index = Number(meta.group);
    const g = groups.get(index) ?? { index, scorable: [] };
    groups.set(index, g);
    if (!meta.error && !meta.dropped_reason && row.choice) g.scorable.push(row);
  }
  return [...groups.values()].sort((a, b) => a.index - b.index);
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

