// The trainer's metric names: ART's current keys (`loss/train`, `loss/grad_norm`,
// `data/step_num_gradient_steps`, …) are stored under their own names; the keys older ART streams
// (0.3–0.5.9: `loss`, `grad_norm`, `num_gradient_steps`, …) are mapped to them, so one chart of
// `loss/train` covers runs from every backend kind.
//
// Names as current ART spells them: src/art/metrics_taxonomy.py @ 9ff532901877db8a026dc8127ff5ff297ffa3ff0
// (TRAIN_GRADIENT_STEPS_KEY, data/step_num_groups_*), and the legacy→current table ART itself keeps in
// src/art/tinker_native/backend.py (`_UPSTREAM_TRAIN_METRIC_KEYS`, OpenPipe/ART main as indexed).

/** The gradient step's loss: the `loss` column and a run's `trainingLoss` read this key. */
export const LOSS_KEY = 'loss/train';
/** The number of gradient steps of the training step (the same on every line). */
export const GRADIENT_STEPS_KEY = 'data/step_num_gradient_steps';

/** Older ART's key → its current name (the dashboard charts both spellings as one metric). */
export const LEGACY_METRIC_NAMES: Readonly<Record<string, string>> = {
  loss: 'loss/train',
  grad_norm: 'loss/grad_norm',
  entropy: 'loss/entropy',
  kl_div: 'loss/kl_div',
  kl_policy_ref: 'loss/kl_policy_ref',
  learning_rate: 'loss/learning_rate',
  num_gradient_steps: 'data/step_num_gradient_steps',
  num_groups_submitted: 'data/step_num_groups_submitted',
  num_groups_trainable: 'data/step_num_groups_trainable',
  num_trajectories: 'data/step_num_trajectories',
  num_trainable_tokens: 'data/step_trainer_tokens',
};

/**
 * One streamed line in current names. Keys that already have a `/` are ART's current names and kept;
 * legacy keys are renamed. ART maps `policy_loss` to `loss/train` too: it takes that name only when
 * the line has no `loss` (old lines carry both, and `loss` is the trainer's total), else it stays
 * `policy_loss`. Non-finite values are dropped.
 */
export function currentMetricNames(line: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  const numeric = Object.entries(line).filter(
    (e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]),
  );
  // Current names first, so a line that carries both spellings keeps the current value.
  for (const [key, value] of numeric) if (key.includes('/')) out[key] = value;
  const hasLoss = numeric.some(([k]) => k === 'loss' || k === LOSS_KEY);
  for (const [key, value] of numeric) {
    if (key.includes('/')) continue;
    const name = key === 'policy_loss' ? (hasLoss ? 'policy_loss' : LOSS_KEY) : (LEGACY_METRIC_NAMES[key] ?? key);
    if (!(name in out)) out[name] = value;
  }
  return out;
}
