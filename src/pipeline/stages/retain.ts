// After a trained step: delete the checkpoints the run's retention policy does not keep (ART's
// Model.delete_checkpoints keeps the latest and the best by a metric; the policy keeps the `keepLast`
// latest and the `keepBest` best), on the backend first, then marked on the run's checkpoint rows.
// A backend that cannot delete (legacy `art run`) deletes nothing, so nothing is marked.
import type { TrainableModel, TrainingBackend } from '../../backends';
import { AbortedError } from '../../providers/http';
import type { StageContext } from './context';

export async function retain(
  ctx: StageContext,
  backend: TrainingBackend,
  model: TrainableModel,
  inUse: number[] = [],
): Promise<void> {
  const policy = ctx.settings.retention;
  if (!policy || !backend.deleteCheckpoints) return;
  const plan = await ctx.deps.checkpoints.retentionPlan(ctx.runId, policy, inUse);
  if (plan.doomed.length === 0) return;
  try {
    await backend.deleteCheckpoints(model, plan.keep, ctx.signal);
  } catch (err) {
    if (err instanceof AbortedError || ctx.signal.aborted) throw err;
    // Housekeeping: a failed delete never fails the run; the next trained step tries again.
    ctx.deps.logger.warn(`run ${ctx.runId}: deleting checkpoints failed: ${ctx.deps.redact(String(err))}`);
    return;
  }
  await ctx.deps.checkpoints.markDeleted(
    ctx.runId,
    plan.doomed.map((c) => c.step),
    `retention: not among the ${policy.keepLast} latest or the ${policy.keepBest} best by ${policy.metric} (kept steps ${plan.keep.join(', ')})`,
    ctx.guard('training'),
  );
  ctx.touch();
}
