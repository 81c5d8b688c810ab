// After a trained step: delete the checkpoints the run's retention policy does not keep (ART's
// Model.delete_checkpoints keeps the latest and the best by a metric; the policy keeps the `keepLast`
// latest and the `keepBest` best, never one an evaluation is using), marked on the run's checkpoint
// rows first (under the run's lock, so no evaluation can start on one being deleted), then deleted on
// the backend (unmarked again if that fails). A backend that cannot delete (legacy `art run`) deletes
// nothing, so nothing is marked.
import type { TrainableModel, TrainingBackend } from '../../backends';
import { AbortedError } from '../../providers/http';
import type { StageContext } from './context';

export async function retain(ctx: StageContext, backend: TrainingBackend, model: TrainableModel): Promise<void> {
  const policy = ctx.settings.retention;
  if (!policy || !backend.deleteCheckpoints) return;
  // Marked first, under the run's lock, never a step an evaluation uses (pending or running).
  const plan = await ctx.deps.checkpoints.reserveRetention(
    ctx.runId,
    policy,
    (keep) =>
      `retention: not among the ${policy.keepLast} latest or the ${policy.keepBest} best by ${policy.metric} (kept steps ${keep.join(', ')})`,
    ctx.guard('training'),
  );
  if (plan.doomed.length === 0) return;
  try {
    await backend.deleteCheckpoints(model, plan.keep, ctx.signal);
  } catch (err) {
    // Stopped mid-call: the marks stay (the backend keeps only `keep`, so the next delete call removes them).
    if (err instanceof AbortedError || ctx.signal.aborted) throw err;
    // Housekeeping: a failed delete never fails the run; the next trained step tries again.
    ctx.deps.logger.warn(`run ${ctx.runId}: deleting checkpoints failed: ${ctx.deps.redact(String(err))}`);
    await ctx.deps.checkpoints.unmarkDeleted(
      ctx.runId,
      plan.doomed.map((c) => c.step),
      ctx.guard('training'),
    );
    return;
  }
  ctx.touch();
}
