// A TRACKED run's last activity. Every write of its rows (history points, trajectories, groups,
// checkpoints — through GraphQL, the import endpoint or any other door) stamps it inside that write's
// own transaction, so what is stored is what happened; a stalled run stamped becomes active again and
// says so (a runStall event after the commit). The other half, noticing silence, is stall-monitor.ts.
import { RunActivityEntity, type TrainingRunRow } from '../db/entities';
import { toStoredDate } from '../db/timestamps';
import type { WriteTx } from '../db/write-queue';
import type { EventBus } from '../events/event-bus';

/** Records that rows of the run just arrived (a PIPELINE run has its own watchdog: nothing to do). */
export async function markActivity(
  tx: WriteTx,
  run: Pick<TrainingRunRow, 'id' | 'mode' | 'projectName'>,
  events: EventBus,
  now: Date = new Date(),
): Promise<void> {
  if (run.mode === 'pipeline') return;
  const at = toStoredDate(now);
  const repo = tx.em.getRepository(RunActivityEntity);
  /**
   * Wakes the run if it is marked stalled: on PostgreSQL this waits for a monitor's concurrent mark
   * and then sees it, so a stall committed just before is always followed by its "active again".
   */
  const wake = async () => {
    const woke = await repo
      .createQueryBuilder()
      .update()
      .set({ lastActivityAt: at, stalledSince: null })
      .where('run_id = :id AND stalled_since IS NOT NULL', { id: run.id })
      .execute();
    if ((woke.affected ?? 0) === 0) return false;
    tx.afterCommit(() =>
      events.publish('runStall', {
        runId: run.id,
        projectName: run.projectName,
        stalled: false,
        stalledSince: null,
        lastActivityAt: at,
        at,
      }),
    );
    return true;
  };
  if (await wake()) return;
  const touched = await repo.update({ runId: run.id }, { lastActivityAt: at });
  if ((touched.affected ?? 0) > 0) return;
  // The run's first rows. A monitor may insert (and mark) its row at the same moment: then that row
  // is woken or stamped instead.
  await repo
    .createQueryBuilder()
    .insert()
    .values({ runId: run.id, lastActivityAt: at, stalledSince: null })
    .orIgnore()
    .execute();
  if (await wake()) return;
  await repo.update({ runId: run.id }, { lastActivityAt: at });
}
