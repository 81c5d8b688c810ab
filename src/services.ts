// The app's services over one database and event bus: built once by createApp, handed to every
// request's context (src/context.ts) and to the pipeline runner.
import { ApiKeysService } from './auth/api-keys.service';
import type { Config } from './config';
import type { Database } from './db/data-source';
import type { EventBus } from './events/event-bus';
import type { Logger } from './logger';
import { MetricsRepo } from './metrics/metrics.repo';
import { MetricsService } from './metrics/metrics.service';
import { createPipelineDeps } from './pipeline';
import type { PipelineDeps } from './pipeline/deps';
import { PipelineRunner } from './pipeline/runner';
import { RunsRepo } from './runs/runs.repo';
import { RunsService } from './runs/runs.service';
import type { Redactor } from './security/redact';
import { TrajectoriesRepo } from './trajectories/trajectories.repo';
import { TrajectoriesService } from './trajectories/trajectories.service';

export interface Services {
  runs: RunsService;
  runsRepo: RunsRepo;
  trajectories: TrajectoriesService;
  trajectoriesRepo: TrajectoriesRepo;
  metrics: MetricsService;
  metricsRepo: MetricsRepo;
  events: EventBus;
  pipeline: PipelineRunner;
  pipelineDeps: PipelineDeps;
  config: Config;
  apiKeys: ApiKeysService;
}

export function buildServices(config: Config, db: Database, events: EventBus, logger: Logger, redactor: Redactor): Services {
  const metricsRepo = new MetricsRepo(db.reader);
  const core = {
    config,
    events,
    apiKeys: new ApiKeysService(db, { lastUsedWriteIntervalMs: config.auth.lastUsedWriteIntervalMs, logger }),
    runs: new RunsService(db, events),
    runsRepo: new RunsRepo(db.reader, db.kind),
    trajectories: new TrajectoriesService(db, events),
    trajectoriesRepo: new TrajectoriesRepo(db.reader),
    metricsRepo,
    metrics: new MetricsService(db, metricsRepo, events),
  };
  const pipelineDeps = createPipelineDeps(config, core, logger, redactor);
  return { ...core, pipelineDeps, pipeline: new PipelineRunner(pipelineDeps, db) };
}
