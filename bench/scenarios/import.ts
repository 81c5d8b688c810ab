// Import (a hook, issue 24 item 4): the bulk door — recordTrajectoryGroups taking ART's JSON, and the
// import endpoint — against recordTrajectories and the raw per-call insert on a database grown to
// 1,000,000 rows. It reports "not measured" until the server has the mutation; whoever builds the
// bulk door fills measure() in, with the storage scenario's per-call raw baseline (storage.ts) and
// the target ≥ 0.7× the raw per-call insert at 1,000,000 rows, and ≥ 1× recordTrajectories.
import { getSchema } from '../../src/graphql/index';
import type { Scenario, ScenarioResult } from '../lib/types';

const MUTATION = 'recordTrajectoryGroups';

export const scenario: Scenario = {
  name: 'import',
  order: 9,
  title: 'Import',
  measures: `trajectories/s through the bulk door (${MUTATION}, ART's JSON) against recordTrajectories and a raw insert per call in its own transaction, on a database grown to 1,000,000 rows`,
  async run(): Promise<ScenarioResult> {
    const present = Boolean(getSchema().getMutationType()?.getFields()[MUTATION]);
    return {
      status: 'unavailable',
      figures: [],
      checks: [],
      notes: [
        present
          ? `The server has ${MUTATION}, but this scenario does not measure it yet (bench/scenarios/import.ts).`
          : `The server has no ${MUTATION} mutation yet (issue 24, item 4): nothing to measure.`,
      ],
    };
  },
};
