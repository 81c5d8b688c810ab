// What the dashboard reads that the schema lacked: whether this server is a simulation
// (Query.server, so every client can label simulated data) and a run's total step count
// (TrainingRun.totalSteps, the "of N" of "step 3 of N" without waiting for a runProgress event).
import { readFileSync } from 'node:fs';
import { totalSteps } from '../domain/dataset';
import { builder } from '../graphql/builder';
import { pipelineSettingsOf } from '../pipeline/settings';
import { TrainingRunRef } from '../runs/runs.graphql';

let version: string | undefined;
function packageVersion(): string {
  try {
    version ??= String(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version ?? 'unknown');
  } catch {
    version = 'unknown';
  }
  return version;
}

const ServerInfoRef = builder.objectRef<{ simulated: boolean }>('ServerInfo').implement({
  description: 'This Atelier server.',
  fields: (t) => ({
    simulated: t.exposeBoolean('simulated', {
      description: 'True when the model provider and the ART backend are simulators (`npm run demo`, ATELIER_SIMULATED=1): nothing here is real training.',
    }),
    version: t.string({ description: "Atelier's version.", resolve: () => packageVersion() }),
  }),
});

builder.queryFields((t) => ({
  server: t.field({
    type: ServerInfoRef,
    description: 'This server: its version, and whether its runs are simulated.',
    resolve: (_root, _args, ctx) => ({ simulated: ctx.services.config.simulated }),
  }),
}));

builder.objectFields(TrainingRunRef, (t) => ({
  totalSteps: t.int({
    nullable: true,
    description:
      "Training steps the run will take: for a pipeline run ART's dataset iteration over numExamples inputs (groupsPerStep a step, numEpochs epochs, capped by maxSteps); for a tracked run maxSteps, if set.",
    resolve: (run) =>
      run.mode === 'pipeline' ? totalSteps(run.numExamples, pipelineSettingsOf(run.config).groupsPerStep, run.numEpochs, run.maxSteps) : run.maxSteps,
  }),
}));
