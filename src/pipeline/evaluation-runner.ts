// Drives evaluations (evaluateCheckpoint): each PENDING one is claimed under a lease (one instance at
// a time; taken over once the lease of an instance that died lapses, at once on SQLite), played on
// its checkpoint's served name with the run's rollout kind (stages/held-out.ts, split `eval`), scored,
// and ended COMPLETED with its summary in the run's history, or FAILED with its cause — never failing
// the run. A resumed evaluation first removes what it stored before (its own group range), so it is
// never doubled. Cancelling the run cancels its evaluations (here and on every instance). Evaluations
// queue behind nothing: not behind runs, not behind each other (up to MAX_EVALUATIONS at once); on a
// backend that cannot serve while it trains the model, each model call waits out an in-flight
// training call of that model (training-gate.ts).
import type { TrainableModel } from '../backends';
import { pipelineSettingsOf } from '../domain/pipeline-settings';
import { TRAINING_STATUSES, type TrainingStatus } from '../domain/status-machine';
import { groupOffsetOf, type Evaluation } from '../evaluations/evaluations.service';
import type { BoundedIterator } from '../events/bounded-iterator';
import type { RunStatusEvent } from '../events/topics';
import type { ChatClient } from '../providers/chat';
import type { WriteGuard } from '../runs/write-guard';
import type { PipelineDeps } from './deps';
import { PollLoop } from './poll-loop';
import type { StageContext, StepProgress } from './stages/context';
import { groupRange, playHeldOut } from './stages/held-out';

/** Evaluations this instance plays at once. */
export const MAX_EVALUATIONS = 4;
const POLL_MS = 1000;

type Stop = 'cancel' | 'shutdown' | 'lease-lost';

/** Writes of an evaluation go into its run in any status but CANCELLED (a cancel wins over them). */
const EVALUATION_GUARD: WriteGuard = {
  statuses: TRAINING_STATUSES.filter((s): s is TrainingStatus => s !== 'cancelled'),
};

export class EvaluationRunner {
  private readonly executing = new Map<number, { controller: AbortController; runId: number; done: Promise<void> }>();
  private renewTimer: NodeJS.Timeout | null = null;
  private readonly loop = new PollLoop(() => this.lookForWork(), POLL_MS);
  private stopped = true;
  private statusEvents: BoundedIterator<RunStatusEvent> | null = null;

  constructor(
    private readonly deps: PipelineDeps,
    private readonly owner: string,
    private readonly sqlite: boolean,
  ) {}

  private get ttlMs(): number {
    return this.deps.config.leaseTtlMs;
  }

  async start(): Promise<void> {
    this.stopped = false;
    // One process owns a SQLite file: evaluations a process that died left RUNNING resume at once.
    if (this.sqlite) await this.deps.evaluations.release(null);
    this.watchCancels();
    this.renewTimer = setInterval(() => void this.renewAll(), Math.max(100, Math.floor(this.ttlMs / 3)));
    this.loop.start();
  }

  wake(): void {
    if (!this.stopped) this.loop.wake();
  }

  private async lookForWork(): Promise<void> {
    try {
      let free = MAX_EVALUATIONS - this.executing.size;
      if (free <= 0 || this.stopped) return;
      for (const evaluation of await this.deps.evaluations.candidates(50)) {
        if (free <= 0 || this.stopped) break;
        if (this.executing.has(evaluation.id)) continue;
        if (await this.deps.evaluations.claim(evaluation.id, this.owner, this.ttlMs)) {
          this.launch(evaluation);
          free--;
        }
      }
    } catch (err) {
      this.deps.logger.error('the evaluation runner could not look for work', err);
    }
  }

  private launch(evaluation: Evaluation): void {
    const controller = new AbortController();
    const done = this.execute(evaluation, controller.signal)
      .catch((err) => this.deps.logger.error(`evaluation ${evaluation.uuid} stopped unexpectedly`, err))
      .finally(() => {
        this.executing.delete(evaluation.id);
        this.wake();
      });
    this.executing.set(evaluation.id, { controller, runId: evaluation.runId, done });
  }

  private async execute(evaluation: Evaluation, signal: AbortSignal): Promise<void> {
    const { deps } = this;
    const run = await deps.runs.find(evaluation.runId);
    if (!run) return; // deleted: its evaluations went with it
    try {
      const checkpoint = await deps.checkpoints.at(run.id, evaluation.step);
      if (!checkpoint) throw new Error(`checkpoint step ${evaluation.step} is not recorded`);
      if (checkpoint.deletedAt)
        throw new Error(`checkpoint step ${evaluation.step} was deleted at ${checkpoint.deletedAt}`);
      const backend = deps.backend(run.backend);
      const model: TrainableModel = {
        name: run.trainedModelName ?? `atelier-run-${run.id}`,
        project: run.projectName,
        base_model: run.modelName,
      };
      const inference = await backend.prepare(model, signal);
      if (inference.apiKey) deps.rememberSecret(inference.apiKey);
      if (backend.kind === 'art-run') {
        const served = await backend.currentStep(model, signal);
        if (served !== evaluation.step)
          throw new Error(
            `backend ${backend.name} is a legacy art run server, which serves only its latest checkpoint (now step ${served}), not step ${evaluation.step}`,
          );
      }
      await deps.evaluations.started(evaluation, this.owner, checkpoint.name, run.projectName);
      const running = { ...evaluation, status: 'running' as const };
      const offset = groupOffsetOf(evaluation.id);
      const plan = {
        split: 'eval' as const,
        step: evaluation.step,
        items: evaluation.scenarios,
        groupOffset: offset,
        episodeKey: `atelier-eval-episode:${evaluation.uuid}`,
        model: checkpoint.name,
        guard: EVALUATION_GUARD,
        who: 'eval_judge' as const,
        metadata: { evaluation: evaluation.uuid },
      };
      // A resumed evaluation starts over: what it stored before a crash is removed first.
      await deps.trajectories.deleteStep(run.id, evaluation.step, EVALUATION_GUARD, 'eval', groupRange(plan));
      const progress: StepProgress = {
        stage: 'validate',
        step: evaluation.step,
        epoch: 0,
        rolloutsDone: 0,
        rolloutsTotal: 0,
        judgeCallsDone: 0,
        judgeCallsTotal: 0,
        gradientStepsDone: 0,
        gradientStepsTotal: null,
      };
      const ctx: StageContext = {
        deps,
        runId: run.id,
        settings: pipelineSettingsOf(run.config),
        signal,
        progress,
        guard: () => EVALUATION_GUARD,
        touch: () => {},
        publishProgress: () => deps.evaluations.publish(running, run.projectName, progress),
      };
      let chat = deps.chat(inference.baseUrl, inference.apiKey, 'inference server');
      // W&B serves inference apart from training; ART's LocalBackend (worker, art run) sleeps vLLM while it trains.
      if (backend.kind !== 'serverless')
        chat = gated(chat, () => deps.trainingGate.idle(backend.name, model.name, signal));
      const summary = await playHeldOut(ctx, run, chat, plan);
      await deps.evaluations.complete(running, this.owner, summary, run.projectName, EVALUATION_GUARD);
    } catch (err) {
      const reason = signal.aborted ? (signal.reason as Stop) : null;
      if (reason === 'shutdown') return void (await deps.evaluations.release(this.owner));
      if (reason === 'cancel' || reason === 'lease-lost') return;
      const message = deps.redact(err instanceof Error ? err.message : String(err));
      deps.logger.warn(`evaluation ${evaluation.uuid} of run ${run.id} failed: ${message}`);
      await deps.evaluations.fail({ ...evaluation, status: 'running' }, this.owner, message, run.projectName);
    }
  }

  private async renewAll(): Promise<void> {
    for (const [id, e] of this.executing) {
      try {
        if (!(await this.deps.evaluations.renew(id, this.owner, this.ttlMs))) e.controller.abort('lease-lost');
      } catch (err) {
        this.deps.logger.warn(
          `evaluation ${id}: could not renew its lease: ${err instanceof Error ? err.message : err}`,
        );
      }
    }
  }

  /** Cancels a run's evaluations: stored CANCELLED, and the ones playing here stopped. */
  async cancelRun(runId: number, projectName: string): Promise<void> {
    await this.deps.evaluations.cancelForRun(runId, projectName);
    const stopping = [...this.executing.values()].filter((e) => e.runId === runId);
    for (const e of stopping) e.controller.abort('cancel');
    await Promise.all(stopping.map((e) => e.done));
  }

  /** A run cancelled through any instance cancels its evaluations here too. */
  private watchCancels(): void {
    const events = this.deps.events.subscribe('runStatus', { filter: (e) => e.to === 'cancelled' });
    this.statusEvents = events;
    void (async () => {
      try {
        for await (const e of events) await this.cancelRun(e.runId, e.projectName);
      } catch {
        if (!this.stopped) this.watchCancels();
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.renewTimer) clearInterval(this.renewTimer);
    await this.loop.stop();
    for (const e of this.executing.values()) e.controller.abort('shutdown');
    await Promise.all([...this.executing.values()].map((e) => e.done));
    await this.statusEvents?.return();
  }
}

/** The client with a wait before each call (the backend's training of the model in flight). */
function gated(chat: ChatClient, wait: () => Promise<void>): ChatClient {
  return new Proxy(chat, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if ((prop === 'complete' || prop === 'completeJson') && typeof value === 'function')
        return async (...args: unknown[]) => {
          await wait();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      return value;
    },
  });
}
