// Drives one pipeline run through ART's AutoRL loop: generate inputs, then for each step of the
// dataset iteration collect rollouts, score them with RULER and train on them through the ART
// backend. Every write is guarded by the status it expects, so once a run is cancelled nothing more
// is written; a restart resumes from what is stored (completed steps are never redone).
import type { TrainableModel, TrainingBackend } from '../backends';
import { iterateDataset, totalSteps } from '../domain/dataset';
import { pipelineSettingsOf, type PipelineSettings } from '../domain/pipeline-settings';
import type { TrainingStatus } from '../domain/status-machine';
import { ConflictError, IllegalTransitionError, RunNoLongerActiveError } from '../errors';
import type { ChatClient } from '../providers/chat';
import { AbortedError } from '../providers/http';
import type { TrainingRun } from '../runs/run.model';
import type { WriteGuard } from '../runs/write-guard';
import type { PipelineDeps } from './deps';
import { collect, rolloutFor } from './stages/collect';
import type { StageContext, StepProgress } from './stages/context';
import { generate } from './stages/generate';
import { playHeldOut } from './stages/held-out';
import { retain } from './stages/retain';
import { score } from './stages/score';
import { finishStep, train, whyNothingToTrain } from './stages/train';

/** The run made no progress for too long: a hung backend or provider. */
export class StallError extends Error {
  constructor(seconds: number) {
    super(`no progress for ${seconds} s (is the ART backend or the model provider hung?)`);
    this.name = 'StallError';
  }
}

/** Why an execution was stopped from outside. */
export type StopReason = 'cancel' | 'shutdown' | 'lease-lost';

export class RunExecution {
  private readonly controller = new AbortController();
  private stage: TrainingStatus = 'pending';
  private lastProgressAt = Date.now();
  /** While a call known to be slow is in flight (prepare starts vLLM), the watchdog waits longer. */
  private slowUntil = 0;
  private totalSteps = 0;
  /** One object for the whole run, reset at each step: the stages update it through their context. */
  private readonly progress: StepProgress = {
    stage: 'collect',
    step: 0,
    epoch: 0,
    rolloutsDone: 0,
    rolloutsTotal: 0,
    judgeCallsDone: 0,
    judgeCallsTotal: 0,
    gradientStepsDone: 0,
    gradientStepsTotal: null,
  };

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
    const watchdog = setInterval(
      () => {
        const now = Date.now();
        if (now < this.slowUntil) return;
        if (now - this.lastProgressAt > stallMs) this.controller.abort(new StallError(Math.round(stallMs / 1000)));
      },
      Math.min(1000, Math.max(50, stallMs / 4)),
    );
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
    const model: TrainableModel = {
      name: run.trainedModelName ?? `atelier-run-${run.id}`,
      project: run.projectName,
      base_model: run.modelName,
    };
    const ctx = this.context(settings);

    if (run.status === 'pending') run = await this.transition('generating');
    if (run.status === 'generating') await generate(ctx, run);
    run = await this.load();
    // Held-out (val) inputs are never trained on.
    const inputs = await this.deps.runs.taskInputs(run.id);
    const items = inputs.filter((t) => t.split !== 'val').map((t) => ({ inputText: t.inputText, context: t.context }));
    const valItems = inputs
      .filter((t) => t.split === 'val')
      .map((t) => ({ inputText: t.inputText, context: t.context }));
    this.totalSteps = totalSteps(items.length, settings.groupsPerStep, run.numEpochs, run.maxSteps);

    const backend = this.deps.backend(run.backend);
    this.touch();
    // Registering starts vLLM on a GPU box: the watchdog waits as long as that call may take.
    this.slowUntil = Date.now() + this.deps.config.prepareTimeoutMs;
    const inference = await backend.prepare(model, this.signal);
    // The backend hands out its inference key: it must never be stored or logged, even when echoed in an error.
    if (inference.apiKey) this.deps.rememberSecret(inference.apiKey);
    this.slowUntil = 0;
    this.touch();
    let backendStep = await backend.currentStep(model, this.signal);
    const chat = this.deps.chat(inference.baseUrl, inference.apiKey, 'inference server');

    // A step the backend finished before a restart still needs its history point.
    if (run.currentStep !== null && backendStep > run.currentStep && run.status === 'training') {
      await finishStep(ctx, run.currentStep, this.epochOf(run.currentStep, items.length, settings), []);
    }
    await this.checkBackendStep(model.name, backendStep);
    const target = { backend, trainable: model, inference };
    // The user's rollout must import on its worker before anything is played or trained (WORKER: names the module).
    await rolloutFor(ctx, chat, inference.modelName(backendStep), target).prepare?.(this.signal);

    /** Steps of this execution that trained nothing, and why: never silent (see the end of the loop). */
    const untrained: string[] = [];

    for (const batch of iterateDataset(items, {
      groupsPerStep: settings.groupsPerStep,
      numEpochs: run.numEpochs,
      maxSteps: run.maxSteps,
      initialStep: backendStep,
    })) {
      run = await this.load();
      const resumeAt = run.currentStep === batch.step ? run.status : null;
      // Validation first, on the checkpoint this step starts from (ART's examples: `if step % eval_every == 0`).
      await this.validate(ctx, run, batch.step, valItems, chat, inference.modelName(backendStep));
      run = await this.load();
      Object.assign(this.progress, {
        stage: 'collect',
        step: batch.step,
        epoch: batch.epoch,
        rolloutsDone: 0,
        rolloutsTotal: batch.items.length * run.rolloutsPerGroup,
        judgeCallsDone: 0,
        judgeCallsTotal: 0,
        gradientStepsDone: 0,
        gradientStepsTotal: null,
      } satisfies StepProgress);

      if (resumeAt !== 'scoring' && resumeAt !== 'training') {
        await this.enterCollecting(run, batch.step);
        await collect(ctx, run, batch, chat, inference.modelName(backendStep), target);
        run = await this.transition('scoring');
      }
      if (resumeAt !== 'training') {
        this.progress.stage = 'score';
        await score(ctx, batch.step);
        run = await this.transition('training');
      }
      this.progress.stage = 'train';
      const outcome = await this.deps.trainingGate.during(backend.name, model.name, () =>
        train(ctx, backend, model, run, batch.step, backendStep),
      );
      if (outcome.groups === 0) untrained.push(`step ${batch.step}: ${await whyNothingToTrain(ctx, batch.step)}`);
      else if (outcome.step <= backendStep)
        untrained.push(
          `step ${batch.step}: the ART backend answered without training (its step stayed at ${outcome.step})`,
        );
      if (outcome.step > backendStep)
        await this.recordCheckpoint(backend, inference.modelName(outcome.step), outcome.step);
      backendStep = outcome.step;
      await finishStep(ctx, batch.step, batch.epoch, outcome.lines);
      // Never a checkpoint an evaluation is using (pending or running): checked under the run's lock.
      await retain(ctx, backend, model);
    }

    // The last checkpoint too, when the cadence lands on it.
    if (backendStep > 0)
      await this.validate(ctx, await this.load(), backendStep, valItems, chat, inference.modelName(backendStep));

    // The backend's step counts the checkpoints trained for this run's model: none means the run
    // trained nothing, which is a failure with its causes, never a quiet COMPLETED.
    if (backendStep === 0)
      throw new Error(
        `no step was trained: ${untrained.join('; ') || 'the dataset gave no step to train'}`.slice(0, 4000),
      );
    const completedReason = untrained.length
      ? `${untrained.length} of ${this.totalSteps} steps trained nothing: ${untrained.join('; ')}`.slice(0, 4000)
      : null;

    run = await this.load();
    // A run with nothing (left) to train still walks the lifecycle to its end.
    const rest: Partial<Record<TrainingStatus, TrainingStatus[]>> = {
      generating: ['collecting', 'scoring', 'training'],
      collecting: ['scoring', 'training'],
      scoring: ['training'],
    };
    const path = rest[run.status] ?? [];
    for (const to of path) await this.transition(to, 'nothing left to train');
    await this.transition('completed', completedReason, { trainedModelName: model.name });
  }

  /**
   * VALIDATE at `step` when evalEvery says so: the checkpoint of that step plays the run's VAL
   * scenarios (split `val`), scored, and the `val/*` summary is recorded at that step. Its
   * `exception_rate` marks it done: a restart skips a finished validation and redoes an interrupted
   * one from scratch (its partial trajectories removed first), so none is ever doubled. It runs
   * under the run's status of the moment: no status of its own.
   */
  private async validate(
    ctx: StageContext,
    run: TrainingRun,
    step: number,
    items: Array<{ inputText: string; context: Record<string, unknown> | null }>,
    chat: ChatClient,
    servedName: string,
  ): Promise<void> {
    const every = ctx.settings.evalEvery;
    if (!every || items.length === 0 || step % every !== 0) return;
    if (await this.deps.metrics.hasValue(run.id, 'val', step, 'exception_rate')) return;
    const guard = this.guard(run.status);
    await this.deps.trajectories.deleteStep(run.id, step, guard, 'val');
    Object.assign(this.progress, { stage: 'validate', step, gradientStepsDone: 0, gradientStepsTotal: null });
    const summary = await playHeldOut(ctx, run, chat, {
      split: 'val',
      step,
      items,
      groupOffset: 0,
      episodeKey: 'atelier-val-episode',
      model: servedName,
      guard,
      who: 'val_judge',
    });
    await this.deps.metrics.record(run.id, [{ step, values: summary }], guard, 'val');
    this.touch();
  }

  /** The checkpoint a trained step made, under the name its backend serves (kept once, also across a resume). */
  private async recordCheckpoint(backend: TrainingBackend, name: string, step: number): Promise<void> {
    try {
      await this.deps.checkpoints.record(
        this.runId,
        { step, name, uri: backend.kind === 'serverless' ? name : null },
        this.guard('training'),
      );
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err; // recorded before a restart under another served name
    }
  }

  /**
   * The backend's model must not be ahead of what this run trained: after step k it is at k + 1 (one
   * more when the history point was not stored before a restart). Further means another run or script
   * trained a model of this name, and this run would skip steps it never trained.
   */
  private async checkBackendStep(modelName: string, backendStep: number): Promise<void> {
    const recorded = await this.deps.metrics.recorded(this.runId);
    if (backendStep > recorded.lastStep + 2) {
      throw new Error(
        `the ART backend reports model ${modelName} at step ${backendStep}, but this run recorded ${recorded.count} step${recorded.count === 1 ? '' : 's'} of its ${this.totalSteps}: another run or script has trained a model of this name (give this run its own trainedModelName)`,
      );
    }
  }

  /** What the stages get: they report progress and guard their writes through this execution. */
  private context(settings: PipelineSettings): StageContext {
    return {
      deps: this.deps,
      runId: this.runId,
      settings,
      signal: this.signal,
      progress: this.progress,
      guard: (status) => this.guard(status),
      touch: () => this.touch(),
      publishProgress: () => this.publishProgress(),
    };
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

  // ---- plumbing ----

  private async load(): Promise<TrainingRun> {
    const run = await this.deps.runs.find(this.runId);
    if (!run) throw new RunNoLongerActiveError('deleted');
    return run;
  }

  private async transition(
    to: TrainingStatus,
    reason: string | null = null,
    changes: { trainedModelName?: string; currentStep?: number } = {},
  ): Promise<TrainingRun> {
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
    this.deps.events.publish('runProgress', {
      runId: this.runId,
      totalSteps: this.totalSteps,
      ...this.progress,
      at: new Date().toISOString(),
    });
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
      if (!(e instanceof IllegalTransitionError))
        this.deps.logger.error(`run ${this.runId}: could not record its failure`, e);
    }
  }
}
