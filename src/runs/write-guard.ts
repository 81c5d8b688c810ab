// The condition a pipeline write holds to: the run is still in the status the write expects, and
// (with several instances) this instance still holds the run's lease. Checked inside the write's own
// transaction, on the locked row, so a cancel or a takeover that commits first always wins.
import type { EntityManager } from 'typeorm';
import type { DbKind } from '../db/data-source';
import type { TrainingRunRow } from '../db/entities';
import type { TrainingStatus } from '../domain/status-machine';
import { NotFoundError, RunNoLongerActiveError } from '../errors';
import { lockRun } from './runs.repo';

export interface WriteGuard {
  statuses?: TrainingStatus[];
  leaseOwner?: string;
}

export async function lockGuarded(em: EntityManager, kind: DbKind, runId: number, guard?: WriteGuard): Promise<TrainingRunRow> {
  const row = await lockRun(em, kind, runId);
  if (!row) throw new NotFoundError('TrainingRun', String(runId));
  if (guard?.statuses && !guard.statuses.includes(row.status as TrainingStatus)) throw new RunNoLongerActiveError(`the run is now ${row.status.toUpperCase()}`);
  if (guard?.leaseOwner && row.leaseOwner !== guard.leaseOwner) throw new RunNoLongerActiveError('this instance no longer holds the run\'s lease');
  return row;
}
