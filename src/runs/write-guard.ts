// The condition a write holds to, checked inside the write's own transaction on the locked row, so a
// change that commits first always wins: for the pipeline, the run is still in the status the write
// expects and (with several instances) this instance still holds the run's lease; for the tracking
// API, the run is a TRACKED one (a PIPELINE run's records are Atelier's own); for a caller scoped to
// projects, the run is in one of them (another project's run is NotFound, as an absent one).
import type { EntityManager } from 'typeorm';

import type { DbKind } from '../db/data-source';
import type { TrainingRunRow } from '../db/entities';
import type { ProjectScope } from '../domain/project-scope';
import type { TrainingStatus } from '../domain/status-machine';
import { NotFoundError, RunModeError, RunNoLongerActiveError } from '../errors';
import type { RunMode } from './run.model';
import { lockRun } from './runs.repo';

export interface WriteGuard {
  statuses?: TrainingStatus[];
  leaseOwner?: string;
  /** The run must be of this mode (RunModeError otherwise). */
  mode?: RunMode;
  /** The caller's project scope: the run's project must be in it (NotFoundError otherwise). */
  projects?: ProjectScope;
}

/** The tracking API's writes (recordTrajectories, recordMetrics, transitionRun) go into TRACKED runs only. */
const TRACKING_API: WriteGuard = { mode: 'tracked' };

/**
 * The guard of a tracking write for a caller: TRACKED runs of the projects it reaches
 * (`trackingGuard(ctx.viewer.projects)`). Not exported without the scope, so a new tracking door
 * cannot forget it.
 */
export const trackingGuard = (projects: ProjectScope): WriteGuard => ({ ...TRACKING_API, projects });

export async function lockGuarded(
  em: EntityManager,
  kind: DbKind,
  runId: number,
  guard?: WriteGuard,
): Promise<TrainingRunRow> {
  const row = await lockRun(em, kind, runId);
  if (!row || (guard?.projects && !guard.projects.allows(row.projectName)))
    throw new NotFoundError('TrainingRun', String(runId));
  if (guard?.mode) {
    const mode: RunMode = row.mode === 'pipeline' ? 'pipeline' : 'tracked';
    if (mode !== guard.mode) throw new RunModeError(row.uuid, mode);
  }
  if (guard?.statuses && !guard.statuses.includes(row.status as TrainingStatus))
    throw new RunNoLongerActiveError(`the run is now ${row.status.toUpperCase()}`);
  if (guard?.leaseOwner && row.leaseOwner !== guard.leaseOwner)
    throw new RunNoLongerActiveError("this instance no longer holds the run's lease");
  return row;
}
