// PLACEHOLDER — the pipeline scenario lands with issue 4 (the pipeline runner is being built on main).
// To fill in: run a pipeline against the simulators in test/fixtures with fixed latencies (50 ms per
// rollout, 200 ms per judge call, 100 ms per gradient step), 32 inputs × 4 rollouts × 2 epochs, and
// compare the wall time with the critical path the configured concurrency allows (target ≥ 0.9).
import type { Scenario } from '../lib/types';

export const scenario: Scenario = {
  name: 'pipeline',
  order: 5,
  title: 'Pipeline',
  measures:
    'wall time of a pipeline run against the simulators with fixed latencies (50 ms per rollout, 200 ms per judge call, 100 ms per gradient step), 32 inputs × 4 rollouts × 2 epochs, against the critical path the configured concurrency allows (target ≥ 0.9 efficiency)',
  async run() {
    return { status: 'unavailable', figures: [], checks: [], notes: ['not yet available: the pipeline lands with issue 4'] };
  },
};
