// The app's services over one database and event bus: built once by createApp, handed to every
// request's context (src/context.ts) and to the pipeline runner. Repos stay in here: everything
// outside reads and writes through a service.
import { ArtFoldersRepo } from './art-folders/art-folders.repo';
import { ArtFoldersService } from './art-folders/art-folders.service';
import { ArtDecoder } from './art-folders/decode-pool';
import { ApiKeysService } from './auth/api-keys.service';
import { CheckpointsRepo } from './checkpoints/checkpoints.repo';
import { CheckpointsService } from './checkpoints/checkpoints.service';
import type { Config } from './config';
import { DatasetsRepo } from './datasets/datasets.repo';
import { DatasetsService } from './datasets/datasets.service';
import type { Database } from './db/data-source';
import { EvaluationsService } from './evaluations/evaluations.service';
import type { EventBus } from './events/event-bus';
import type { Logger } from './logger';
import { MetricsRepo } from './metrics/metrics.repo';
import { MetricsService } from './metrics/metrics.service';
import { createPipelineDeps } from './pipeline';
import type { PipelineDeps } from './pipeline/deps';
import { PipelineRunner } from './pipeline/runner';
import { RunsRepo } from './runs/runs.repo';
import { RunsService } from './runs/runs.service';
import { StallMonitor } from './runs/stall-monitor';
import type { Redactor } from './security/redact';
import { TrajectoriesRepo } from './trajectories/trajectories.repo';
import { TrajectoriesService } from './trajectories/trajectories.service';

export interface Services {
  runs: RunsService;
  trajectories: TrajectoriesService;
  metrics: MetricsService;
  checkpoints: CheckpointsService;
  evaluations: EvaluationsService;
  datasets: DatasetsService;
  events: EventBus;
  pipeline: PipelineRunner;
  pipelineDeps: PipelineDeps;
  config: Config;
  apiKeys: ApiKeysService;
  /** ART folders in (import plans and files) and out (ART's layout, trajectories.jsonl). */
  artFolders: ArtFoldersService;
  /** Marks TRACKED runs without rows for STALL_TIMEOUT_SECONDS as stalled (started with the server). */
  stalls: StallMonitor;
}

export function buildServices(
  config: Config,
  db: Database,
  events: EventBus,
  logger: Logger,
  redactor: Redactor,
): Services {
  // The runner needs RunsService and RunsService drives runs through the runner: bound late, once built.
  let runner: PipelineRunner | undefined;
  const datasets = new DatasetsService(db, new DatasetsRepo(db.reader));
  const runs = new RunsService(
    db,
    events,
    new RunsRepo(db.reader, db.kind),
    config.pipeline,
    {
      wake: () => runner?.wake(),
      stopped: async (runId) => runner?.stopExecution(runId),
    },
    datasets,
  );
  const core = {
    config,
    events,
    apiKeys: new ApiKeysService(db, { lastUsedWriteIntervalMs: config.auth.lastUsedWriteIntervalMs, logger }),
    runs,
    datasets,
    trajectories: new TrajectoriesService(db, events, new TrajectoriesRepo(db.reader, db.kind)),
    metrics: new MetricsService(db, new MetricsRepo(db.reader, db.kind), events),
    checkpoints: new CheckpointsService(db, new CheckpointsRepo(db.reader, db.kind), events),
  };
  const evaluations = new EvaluationsService(db, db.reader, events, core.metrics, config.pipeline.artBackends);
  const pipelineDeps = createPipelineDeps(config, { ...core, evaluations }, logger, redactor);
  runner = new PipelineRunner(pipelineDeps, db);
  const artFolders = new ArtFoldersService(
    db,
    new ArtFoldersRepo(db.reader, db.kind),
    core.runs,
    core.metrics,
    core.trajectories,
    core.checkpoints,
    new ArtDecoder({
      onUnavailable: (reason) =>
        logger.warn(`ART import: the decode thread could not start (${reason}); files are decoded on the event loop`),
    }),
  );
  const stalls = new StallMonitor(db, events, { timeoutMs: config.pipeline.stallTimeoutMs, logger });
  return { ...core, evaluations, artFolders, pipelineDeps, pipeline: runner, stalls };
}
