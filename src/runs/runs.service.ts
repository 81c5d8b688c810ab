// Use cases for training runs: create, move through the lifecycle, delete. Every status change goes
// through transition(), which checks the state machine, writes the run and the transition in one
// transaction, and publishes the event after commit. Nothing else writes `status`.
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/data-source';
import { nowStored } from '../db/timestamps';
import { GradientStepEntity, MetricPointEntity, StatusTransitionEntity, TaskInputEntity, TrajectoryEntity, type StatusTransitionRow, type TrainingRunRow } from '../db/entities';
import type { WriteTx } from '../db/write-queue';
import { isFinal, planTransition, type TrainingStatus } from '../domain/status-machine';
import { ConflictError } from '../errors';
import type { EventBus } from '../events/event-bus';
import { runFromRow, type RunMode, type TrainingRun } from './run.model';
import { deleteRun, insertRun, updateRun, uuidTaken } from './runs.repo';
import { lockGuarded, type WriteGuard } from './write-guard';

export interface CreateRunInput {
  uuid?: string | null;
  modelName: string;
  projectName: string;
  trainedModelName?: string | null;
  taskDescription: string;
  numExamples?: number | null;
  rolloutsPerGroup?: number | null;
  learningRate?: number | null;
  numEpochs?: number | null;
  maxSteps?: number | null;
  systemPrompt?: string | null;
  config?: Record<string, unknown> | null;
  mode?: RunMode;
  /** The ART backend a pipeline run trains on. */
  backend?: string | null;
}

/** The seed's defaults. */
export const RUN_DEFAULTS = { numExamples: 100, rolloutsPerGroup: 4, learningRate: 1e-5, numEpochs: 1 } as const;

export class RunsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  async create(input: CreateRunInput): Promise<TrainingRun> {
    return this.db.writes.run(async (tx) => {
      const uuid = input.uuid ?? randomUUID();
      if (input.uuid && (await uuidTaken(tx.em, uuid))) throw new ConflictError(`a run with uuid ${uuid} already exists`);
      const now = nowStored();
      const row = await insertRun(tx.em, {
          uuid,
          status: 'pending',
          modelName: input.modelName,
          projectName: input.projectName,
          trainedModelName: input.trainedModelName ?? null,
          taskDescription: input.taskDescription,
          numExamples: input.numExamples ?? RUN_DEFAULTS.numExamples,
          rolloutsPerGroup: input.rolloutsPerGroup ?? RUN_DEFAULTS.rolloutsPerGroup,
          learningRate: input.learningRate ?? RUN_DEFAULTS.learningRate,
          numEpochs: input.numEpochs ?? RUN_DEFAULTS.numEpochs,
          maxSteps: input.maxSteps ?? null,
          systemPrompt: input.systemPrompt ?? null,
          createdAt: now,
          startedAt: null,
          completedAt: null,
          metrics: null,
          error: null,
          // Always an object, never NULL: the seed's from_row cannot read a NULL config back.
          config: JSON.stringify(input.config ?? {}),
          avgReward: null,
          mode: input.mode ?? 'tracked',
          currentStep: null,
          backend: input.backend ?? null,
          leaseOwner: null,
          leaseExpiresAt: null,
      });
      await this.recordTransition(tx, row, null, 'pending', null, now);
      return runFromRow(row);
    });
  }

  async transition(
    runId: number,
    to: TrainingStatus,
    reason: string | null,
    changes: Partial<Pick<TrainingRunRow, 'trainedModelName' | 'systemPrompt' | 'currentStep'>> = {},
    guard?: WriteGuard,
  ): Promise<TrainingRun> {
    return this.db.writes.run(async (tx) => {
      const row = await lockGuarded(tx.em, this.db.kind, runId, guard);
      const from = row.status as TrainingStatus;
      const effects = planTransition(from, to, reason);
      const now = nowStored();
      row.status = to;
      if (effects.setsStartedAt && !row.startedAt) row.startedAt = now;
      if (effects.setsCompletedAt) row.completedAt = now;
      if (effects.setsError) row.error = reason;
      Object.assign(row, changes);
      await updateRun(tx.em, row.id, { status: row.status, startedAt: row.startedAt, completedAt: row.completedAt, error: row.error, ...changes });
      await this.recordTransition(tx, row, from, to, reason, now);
      return runFromRow(row);
    });
  }

  /** Stores a pipeline run's generated dataset and system prompt, replacing a partial one, while the run is GENERATING. */
  async recordDataset(runId: number, inputs: { inputText: string; context: Record<string, unknown> | null }[], systemPrompt: string | null, guard: WriteGuard): Promise<void> {
    await this.db.writes.run(async (tx) => {
      const row = await lockGuarded(tx.em, this.db.kind, runId, guard);
      const repo = tx.em.getRepository(TaskInputEntity);
      await repo.delete({ runId });
      for (let i = 0; i < inputs.length; i += 200) {
        await repo.insert(
          inputs.slice(i, i + 200).map((input, j) => ({
            runId,
            position: i + j,
            step: 0,
            inputText: input.inputText,
            context: input.context ? JSON.stringify(input.context) : null,
          })),
        );
      }
      if (systemPrompt !== null && systemPrompt !== row.systemPrompt) await updateRun(tx.em, runId, { systemPrompt });
    });
  }

  /** Moves a pipeline run to another step without a status change (a step redone after a restart). */
  async setCurrentStep(runId: number, step: number, guard: WriteGuard): Promise<void> {
    await this.db.writes.run(async (tx) => {
      await lockGuarded(tx.em, this.db.kind, runId, guard);
      await updateRun(tx.em, runId, { currentStep: step });
    });
  }

  /** Deletes a run in a final state with everything recorded for it. */
  async delete(runId: number): Promise<TrainingRun> {
    return this.db.writes.run(async (tx) => {
      const row = await lockGuarded(tx.em, this.db.kind, runId);
      if (!isFinal(row.status as TrainingStatus)) {
        throw new ConflictError(`run ${row.uuid} is ${row.status.toUpperCase()}; only a COMPLETED, FAILED or CANCELLED run can be deleted`);
      }
      for (const entity of [TrajectoryEntity, MetricPointEntity, GradientStepEntity, TaskInputEntity, StatusTransitionEntity]) {
        await tx.em.getRepository(entity).delete({ runId: row.id });
      }
      await deleteRun(tx.em, row.id);
      return runFromRow(row);
    });
  }

  private async recordTransition(tx: WriteTx, run: TrainingRunRow, from: string | null, to: string, reason: string | null, at: string): Promise<StatusTransitionRow> {
    const transitions = tx.em.getRepository(StatusTransitionEntity);
    const saved = await transitions.save(transitions.create({ runId: run.id, fromStatus: from, toStatus: to, at, reason }));
    tx.afterCommit(() =>
      this.events.publish('runStatus', { eventId: saved.id, runId: run.id, projectName: run.projectName, from, to, at, reason }),
    );
    return saved;
  }
}
