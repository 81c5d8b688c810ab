// Use cases for training runs: create (mode defaults, pipeline settings, backend choice), read,
// move through the lifecycle, cancel, delete. Every status change goes through transition(), which
// checks the state machine, writes the run and the transition in one transaction, and publishes the
// event after commit. Nothing else writes `status`.
import { randomUUID } from 'node:crypto';

import type { PipelineConfig } from '../config';
import type { Database } from '../db/data-source';
import {
  GradientStepEntity,
  MetricPointEntity,
  RunCostEntity,
  RunSummaryEntity,
  RunTagEntity,
  StatusTransitionEntity,
  TaskInputEntity,
  TrajectoryEntity,
  type RunActivityRow,
  type RunSummaryRow,
  type StatusTransitionRow,
  type TrainingRunRow,
} from '../db/entities';
import type { Page, PageWindow, Positioned } from '../db/keyset';
import { nowStored } from '../db/timestamps';
import type { WriteTx } from '../db/write-queue';
import {
  backendOf,
  checkRolloutSettings,
  checkServerSettings,
  type PipelineSettings,
} from '../domain/pipeline-settings';
import type { ProjectScope } from '../domain/project-scope';
import { assignSplits, checkScenarios, type Scenario } from '../domain/scenarios';
import { isFinal, planTransition, type TrainingStatus } from '../domain/status-machine';
import { ConflictError, IllegalTransitionError, NotFoundError, ValidationError } from '../errors';
import type { EventBus } from '../events/event-bus';
import type { RunStatusEvent } from '../events/topics';
import {
  partialRunFromRow,
  rowColumnOf,
  runFromRow,
  taskInputFromRow,
  type RunMode,
  type StatusTransition,
  type TaskInput,
  type TrainingRun,
} from './run.model';
import {
  addCosts,
  deleteRun,
  insertRun,
  replaceTags,
  updateRun,
  uuidTaken,
  type RunChanges,
  type RunFilter,
  type RunOrder,
  type RunsRepo,
  type StatusEventScope,
} from './runs.repo';
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
  /** Default PIPELINE, as the schema documents. */
  mode?: RunMode | null;
  /** A PIPELINE run's own settings; omitted ones take their defaults. */
  pipeline?:
    | ({ [K in keyof PipelineSettings]?: PipelineSettings[K] | null } & {
        /** Held-out scenarios validated every evalEvery steps: stored as the run's VAL inputs, never trained on. */
        evalScenarios?: Array<{ inputText: string; context?: Record<string, unknown> | null }> | null;
      })
    | null;
  name?: string | null;
  notes?: string | null;
  tags?: string[] | null;
  group?: string | null;
  /** A PIPELINE run's own scenarios instead of generated inputs (at most one of scenarios and datasetId). */
  scenarios?: Array<{ inputText: string; context?: Record<string, unknown> | null; split?: string | null }> | null;
  /** A stored dataset's database id: its items become the run's inputs. */
  datasetId?: number | null;
}

/** What updateRun changes: a field left out stays; null clears it (a cleared name falls back to trainedModelName). */
export interface RunIdentityChanges {
  name?: string | null;
  notes?: string | null;
  tags?: string[] | null;
  group?: string | null;
}

/**
 * The run's inputs with its evalScenarios added as VAL ones (checked against the scenario limits); a
 * run that validates (evalEvery) must have VAL scenarios to validate on.
 */
function withEvalScenarios(
  scenarios: Scenario[] | null,
  evalScenarios: Array<{ inputText: string; context?: Record<string, unknown> | null }> | null,
  evalEvery: number | null,
): Scenario[] | null {
  let out = scenarios;
  if (evalScenarios) {
    const given = evalScenarios.map((s) => ({ inputText: s.inputText, context: s.context ?? null }));
    checkScenarios(given, 'input.pipeline.evalScenarios');
    out = [...(scenarios ?? []), ...given.map((s) => ({ ...s, split: 'val' as const }))];
    checkScenarios(out, 'input.pipeline.evalScenarios');
  }
  if (evalEvery !== null && !out?.some((s) => s.split === 'val'))
    throw ValidationError.of(
      'input.pipeline.evalEvery',
      'needs_val_scenarios',
      'validating needs held-out scenarios: give pipeline.evalScenarios, VAL scenarios, or a dataset with a VAL split',
    );
  return out;
}

/** Tags as stored: each once, in the order given. */
function distinctTags(tags: readonly string[] | null | undefined): string[] {
  return [...new Set(tags ?? [])];
}

/** Where runs read a stored dataset's items from (datasets/, below runs/). */
export interface DatasetSource {
  find(id: number): Promise<{ uuid: string } | null>;
  items(id: number): Promise<Scenario[]>;
}

/** The seed's defaults. */
export const RUN_DEFAULTS = { numExamples: 100, rolloutsPerGroup: 4, learningRate: 1e-5, numEpochs: 1 } as const;

/**
 * What drives PIPELINE runs, as runs/ sees it: runs/ never imports pipeline/, so src/services.ts
 * hands the runner in through this.
 */
export interface RunDriver {
  /** A PIPELINE run was created: look for work now rather than at the next poll. */
  wake(): void;
  /**
   * The run was just CANCELLED: stop its execution on this instance, if any, and wait (bounded) for
   * it to end, so nothing of it is written after the cancel answers.
   */
  stopped(runId: number): Promise<void>;
}

/** Loads runs by id, batched per request: a DataLoader fits. */
export interface RunLoader {
  load(id: number): Promise<TrainingRun | null>;
}

export class RunsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly repo: RunsRepo,
    private readonly pipeline: PipelineConfig,
    private readonly driver: RunDriver,
    private readonly datasets?: DatasetSource,
  ) {}

  // ---- reads ----

  /** The run, or NotFoundError. Pass the request's loader so a page of lookups stays one query. */
  async get(id: number, loader?: RunLoader): Promise<TrainingRun> {
    const run = loader ? await loader.load(id) : await this.find(id);
    if (!run) throw new NotFoundError('TrainingRun', String(id));
    return run;
  }

  async find(id: number): Promise<TrainingRun | null> {
    return (await this.getMany([id]))[0] ?? null;
  }

  /** The runs of these ids that exist, in no particular order (the dataloaders' batch read). */
  async getMany(ids: readonly number[]): Promise<TrainingRun[]> {
    return (await this.repo.findByIds(ids)).map(runFromRow);
  }

  async findByUuid(uuid: string): Promise<TrainingRun | null> {
    const row = await this.repo.findByUuid(uuid);
    return row ? runFromRow(row) : null;
  }

  /**
   * A keyset page of runs, each with the position its cursor encodes. With `properties`, only those
   * are read and set (a list whose selection needs a few columns reads those alone).
   */
  async page(
    filter: RunFilter,
    order: RunOrder,
    window: PageWindow,
    properties?: readonly (keyof TrainingRun)[],
  ): Promise<Page<Positioned<TrainingRun>>> {
    // The list's READS table (runs.graphql.ts) names only fields stored as columns of the same name;
    // a selection with any other field reads whole rows (properties undefined).
    const columns =
      properties && order.field !== 'metric'
        ? [...properties.map(rowColumnOf), order.field as keyof TrainingRunRow]
        : undefined;
    const page = await this.repo.page(filter, order, window, columns);
    return {
      ...page,
      rows: page.rows.map((row) => ({
        node: columns && properties ? partialRunFromRow(row, properties) : runFromRow(row),
        position: {
          value:
            order.field === 'createdAt'
              ? row.createdAt
              : order.field === 'metric'
                ? (row.sortValue ?? null)
                : row.avgReward,
          id: row.id,
        },
      })),
    };
  }

  count(filter: RunFilter): Promise<number> {
    return this.repo.count(filter);
  }

  /** Each run's summary metrics, by name (the dataloaders' batch read). */
  summariesOf(runIds: readonly number[]): Promise<RunSummaryRow[]> {
    return this.repo.summariesForRuns(runIds);
  }

  /** A run's costs summed per name, and per step for the names given. */
  costsOf(runIds: readonly number[]): Promise<Array<{ runId: number; name: string; total: number; steps: number }>> {
    return this.repo.costTotals(runIds);
  }

  /** Runs ahead of a PENDING pipeline run on its backend; null for a run that is not waiting. */
  queuePosition(run: TrainingRun): Promise<number | null> {
    return this.repo.queuePosition(run);
  }

  /** Every transition of these runs, oldest first (the dataloaders' batch read). */
  transitionsOf(runIds: readonly number[]): Promise<StatusTransition[]> {
    return this.repo.transitionsForRuns(runIds);
  }

  /** The datasets of these runs, in order, each input with its run's id (the dataloaders' batch read). */
  async taskInputsOf(runIds: readonly number[]): Promise<Array<TaskInput & { runId: number }>> {
    return (await this.repo.taskInputsForRuns(runIds)).map((r) => ({ runId: r.runId, ...taskInputFromRow(r) }));
  }

  /** One run's dataset, in order. */
  async taskInputs(runId: number): Promise<TaskInput[]> {
    return (await this.repo.taskInputsForRuns([runId])).map(taskInputFromRow);
  }

  /** Stored transitions after an event id, oldest first, as the events a resuming subscriber missed. */
  statusEventsAfter(afterEventId: number, scope: StatusEventScope, limit: number): Promise<RunStatusEvent[]> {
    return this.repo.statusEventsAfter(afterEventId, scope, limit);
  }

  /** Pipeline runs that may need a driver: every active one and the oldest PENDING ones. */
  async pipelineCandidates(pendingLimit: number): Promise<{ active: TrainingRun[]; pending: TrainingRun[] }> {
    const rows = await this.repo.pipelineCandidates(pendingLimit);
    return { active: rows.active.map(runFromRow), pending: rows.pending.map(runFromRow) };
  }

  // ---- writes ----

  /**
   * Creates a run in PENDING. A PIPELINE run (the default) needs the server's pipeline settings and
   * trains on the backend its settings name (else the first); a TRACKED run takes no pipeline settings.
   * The caller's project scope must reach the run's project (ValidationError on input.projectName).
   */
  async create(input: CreateRunInput, projects: ProjectScope): Promise<TrainingRun> {
    projects.assertMayUse(input.projectName, 'input.projectName');
    const mode = input.mode ?? 'pipeline';
    let config = input.config ?? {};
    let backend: string | null = null;
    let scenarios: Scenario[] | null = null;
    if (mode === 'pipeline') {
      const { evalScenarios, ...own } = input.pipeline ?? {};
      const settings: Partial<PipelineSettings> = Object.fromEntries(Object.entries(own).filter(([, v]) => v != null));
      checkServerSettings(this.pipeline, settings);
      checkRolloutSettings(settings.rollout);
      if (settings.rollout)
        settings.rollout = Object.fromEntries(
          Object.entries(settings.rollout).filter(([, v]) => v != null),
        ) as PipelineSettings['rollout'];
      const chosen = backendOf(this.pipeline, settings);
      backend = chosen.name;
      checkRolloutSettings(settings.rollout, chosen.kind ?? 'art-run');
      const given = await this.scenariosOf(input);
      if (given) {
        scenarios = given.items;
        settings.scenarioSource = given.source;
        const train = scenarios.filter((s) => s.split === 'train').length;
        if (input.numExamples != null && input.numExamples !== train)
          throw ValidationError.of(
            'input.numExamples',
            'matches_scenarios',
            `must be left out or equal the ${train} train scenarios given`,
          );
        input = { ...input, numExamples: train };
      }
      scenarios = withEvalScenarios(scenarios, evalScenarios ?? null, settings.evalEvery ?? null);
      config = { ...config, pipeline: settings };
    } else if (input.pipeline) {
      throw ValidationError.of('input.pipeline', 'pipeline_only', 'pipeline settings apply to PIPELINE runs only');
    } else if (input.scenarios || input.datasetId != null) {
      throw ValidationError.of(
        input.scenarios ? 'input.scenarios' : 'input.datasetId',
        'pipeline_only',
        'scenarios apply to PIPELINE runs only (a TRACKED run records its own)',
      );
    }
    const run = await this.insert(input, mode, config, backend, scenarios);
    if (mode === 'pipeline') this.driver.wake();
    return run;
  }

  /** The run's own scenarios, checked, with their splits; null when it generates its inputs. */
  private async scenariosOf(input: CreateRunInput): Promise<{ items: Scenario[]; source: string } | null> {
    if (input.scenarios && input.datasetId != null)
      throw ValidationError.of('input.datasetId', 'one_of', 'give scenarios or datasetId, not both');
    if (input.scenarios) {
      const given = input.scenarios.map((s) => ({
        inputText: s.inputText,
        context: s.context ?? null,
        split: s.split ?? null,
      }));
      checkScenarios(given, 'input.scenarios');
      return {
        items: assignSplits(given, null, { items: 'input.scenarios', splits: 'input.splits' }),
        source: 'scenarios',
      };
    }
    if (input.datasetId == null) return null;
    const dataset = await this.datasets?.find(input.datasetId);
    if (!dataset || !this.datasets)
      throw ValidationError.of('input.datasetId', 'exists', `no dataset has the id given`);
    return { items: await this.datasets.items(input.datasetId), source: `dataset:${dataset.uuid}` };
  }

  private async insert(
    input: CreateRunInput,
    mode: RunMode,
    config: Record<string, unknown>,
    backend: string | null,
    scenarios: Scenario[] | null,
  ): Promise<TrainingRun> {
    return this.db.writes.run(async (tx) => {
      const uuid = input.uuid ?? randomUUID();
      if (input.uuid && (await uuidTaken(tx.em, uuid)))
        throw new ConflictError(`a run with uuid ${uuid} already exists`);
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
        config: JSON.stringify(config),
        avgReward: null,
        mode,
        currentStep: null,
        backend,
        leaseOwner: null,
        leaseExpiresAt: null,
        // ART's model name is the run's name unless it was given one.
        name: input.name ?? input.trainedModelName ?? null,
        notes: input.notes ?? null,
        groupName: input.group ?? null,
      });
      await replaceTags(tx.em, row.id, distinctTags(input.tags));
      if (scenarios) await insertTaskInputs(tx, row.id, scenarios);
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
      const effects = planTransition(from, to, reason, row.mode === 'pipeline' ? 'pipeline' : 'tracked');
      const now = nowStored();
      row.status = to;
      if (effects.setsStartedAt && !row.startedAt) row.startedAt = now;
      if (effects.setsCompletedAt) row.completedAt = now;
      if (effects.setsError) row.error = reason;
      Object.assign(row, changes);
      await updateRun(tx.em, row.id, {
        status: row.status,
        startedAt: row.startedAt,
        completedAt: row.completedAt,
        error: row.error,
        ...changes,
      });
      await this.recordTransition(tx, row, from, to, reason, now);
      return runFromRow(row);
    });
  }

  /** Renames a run, or changes its notes, tags or group, in any status. */
  async updateIdentity(runId: number, changes: RunIdentityChanges, projects?: ProjectScope): Promise<TrainingRun> {
    return this.db.writes.run(async (tx) => {
      // Another project's run is, to a key scoped to projects, a run that does not exist.
      const row = await lockGuarded(tx.em, this.db.kind, runId, { projects });
      const update: RunChanges = {};
      if (changes.name !== undefined) update.name = changes.name;
      if (changes.notes !== undefined) update.notes = changes.notes;
      if (changes.group !== undefined) update.groupName = changes.group;
      await updateRun(tx.em, runId, update);
      if (changes.tags !== undefined) await replaceTags(tx.em, runId, distinctTags(changes.tags));
      return runFromRow({ ...row, ...update });
    });
  }

  /**
   * Adds to a run's costs of one step (tokens used, seconds spent): what was spent, so a step redone
   * after a restart adds its second spending too.
   */
  async addCosts(runId: number, step: number, values: Record<string, number>, guard?: WriteGuard): Promise<void> {
    const entries = Object.entries(values).filter(([, v]) => Number.isFinite(v));
    if (entries.length === 0) return;
    await this.db.writes.run(async (tx) => {
      await lockGuarded(tx.em, this.db.kind, runId, guard);
      await addCosts(tx.em, runId, step, entries);
    });
  }

  /** Each run's tags, sorted (the dataloaders' batch read). */
  tagsOf(runIds: readonly number[]): Promise<Array<{ runId: number; tag: string }>> {
    return this.repo.tagsForRuns(runIds);
  }

  /** When these TRACKED runs' rows last arrived, and since when each is stalled (src/runs/stall-monitor.ts). */
  activityOf(runIds: readonly number[]): Promise<RunActivityRow[]> {
    return this.repo.activityForRuns(runIds);
  }

  /**
   * Stores a pipeline run's generated dataset and system prompt, replacing a partial one, while the
   * run is GENERATING; `inputs` null keeps the inputs it has (the user's own scenarios).
   */
  async recordDataset(
    runId: number,
    inputs: { inputText: string; context: Record<string, unknown> | null }[] | null,
    systemPrompt: string | null,
    guard: WriteGuard,
  ): Promise<void> {
    await this.db.writes.run(async (tx) => {
      const row = await lockGuarded(tx.em, this.db.kind, runId, guard);
      if (inputs) {
        // The held-out VAL inputs (evalScenarios) stay, after the generated TRAIN ones that replace the old.
        const repo = tx.em.getRepository(TaskInputEntity);
        const kept = (await repo.find({ where: { runId, split: 'val' }, order: { position: 'ASC' } })).map((r) => ({
          inputText: r.inputText,
          context: r.context ? (JSON.parse(r.context) as Record<string, unknown>) : null,
          split: 'val' as const,
        }));
        await repo.delete({ runId });
        await insertTaskInputs(tx, runId, [...inputs.map((i) => ({ ...i, split: 'train' as const })), ...kept]);
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

  /**
   * Cancels a run wherever it is: CANCELLED at once (so every later write of its execution is
   * refused), then its execution is stopped. Works for tracked runs too. A run outside the caller's
   * project scope is NotFound.
   */
  async cancel(runId: number, projects: ProjectScope, reason = 'cancelled by request'): Promise<TrainingRun> {
    const current = projects.assertVisible(await this.find(runId), 'TrainingRun', String(runId));
    if (isFinal(current.status))
      throw new IllegalTransitionError(
        current.status,
        'cancelled',
        `the run is already ${current.status.toUpperCase()}`,
      );
    const run = await this.transition(runId, 'cancelled', reason, {}, { projects });
    await this.driver.stopped(runId);
    return run;
  }

  /** Deletes a run in a final state with everything recorded for it (NotFound outside the caller's project scope). */
  async delete(runId: number, projects: ProjectScope): Promise<TrainingRun> {
    return this.db.writes.run(async (tx) => {
      const row = await lockGuarded(tx.em, this.db.kind, runId, { projects });
      if (!isFinal(row.status as TrainingStatus)) {
        throw new ConflictError(
          `run ${row.uuid} is ${row.status.toUpperCase()}; only a COMPLETED, FAILED or CANCELLED run can be deleted`,
        );
      }
      for (const entity of [
        TrajectoryEntity,
        MetricPointEntity,
        GradientStepEntity,
        TaskInputEntity,
        StatusTransitionEntity,
        RunTagEntity,
        RunSummaryEntity,
        RunCostEntity,
      ]) {
        await tx.em.getRepository(entity).delete({ runId: row.id });
      }
      await deleteRun(tx.em, row.id);
      return runFromRow(row);
    });
  }

  private async recordTransition(
    tx: WriteTx,
    run: TrainingRunRow,
    from: string | null,
    to: string,
    reason: string | null,
    at: string,
  ): Promise<StatusTransitionRow> {
    const transitions = tx.em.getRepository(StatusTransitionEntity);
    const saved = await transitions.save(
      transitions.create({ runId: run.id, fromStatus: from, toStatus: to, at, reason }),
    );
    tx.afterCommit(() =>
      this.events.publish('runStatus', {
        eventId: saved.id,
        runId: run.id,
        projectName: run.projectName,
        from,
        to,
        at,
        reason,
      }),
    );
    return saved;
  }
}

/** A run's inputs, in order (step 0: ART's dataset iteration decides the step each is used in). */
async function insertTaskInputs(tx: WriteTx, runId: number, inputs: Scenario[]): Promise<void> {
  const repo = tx.em.getRepository(TaskInputEntity);
  for (let i = 0; i < inputs.length; i += 200) {
    await repo.insert(
      inputs.slice(i, i + 200).map((input, j) => ({
        runId,
        position: i + j,
        step: 0,
        inputText: input.inputText,
        context: input.context ? JSON.stringify(input.context) : null,
        split: input.split,
      })),
    );
  }
}
