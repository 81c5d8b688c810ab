// The condition a write holds to, checked inside the write's own transaction on the locked row, so a
// change that commits first always wins: for the pipeline, the run is still in the status the write
// expects and (with several instances) this instance still holds the run's lease; for the tracking
// API, the run is a TRACKED one (a PIPELINE run's records are Atelier's own).
import type { EntityManager } from 'typeorm';

import type { DbKind } from '../db/data-source';
import type { TrainingRunRow } from '../db/entities';
import type { TrainingStatus } from '../domain/status-machine';
import { NotFoundError, RunModeError, RunNoLongerActiveError } from '../errors';
import type { RunMode } from './run.model';
import { lockRun } from './runs.repo';

export interface WriteGuard {
  statuses?: TrainingStatus[];
  leaseOwner?: string;
  /** The run must be of this mode (RunModeError otherwise). */
  mode?: RunMode;
}

/** The guard of the tracking API's writes (recordTrajectories, recordMetrics, transitionRun): TRACKED runs only. */
export const TRACKING_API: WriteGuard = { mode: 'tracked' };

export async function lockGuarded(
  em: EntityManager,
  kind: DbKind,
  runId: number,
  guard?: WriteGuard,
): Promise<TrainingRunRow> {
  const row = await lockRun(em, kind, runId);
  if (!row) throw new NotFoundError('TrainingRun', String(runId));
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
