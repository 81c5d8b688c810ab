// A key Atelier only learns at run time — the inference key the ART backend hands out when it
// prepares a model — is never stored or shown, even when the inference server echoes it back in an
// error. Before, such an error was stored in the rollout's trajectory word for word.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startArtBackendSim, type ArtBackendSim } from './fixtures/art-backend-sim';
import { startOpenAISim, type OpenAISim } from './fixtures/openai-sim';
import { pipelineConfig, startSims, type Sims } from './helpers/pipeline';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { waitFor } from './helpers/subscriptions';
import { CreatePipelineRun, PipelineRunDetails, StepTrajectories } from './operations';

const INFERENCE_KEY = 'inference-only-secret-7c3f9a2b';

let sims: Sims;
let inference: OpenAISim;
let art: ArtBackendSim;
beforeAll(async () => {
  sims = await startSims();
  inference = await startOpenAISim({ apiKey: INFERENCE_KEY });
  art = await startArtBackendSim({ inferenceUrl: inference.url, inferenceApiKey: INFERENCE_KEY });
});
afterAll(async () => {
  await art?.close();
  await inference?.close();
  await sims?.close();
});
const s = useTestServer(() => ({
  pipeline: pipelineConfig(sims, { artBackends: [{ name: 'default', url: art.url }] }),
}));

describe('a key learned at run time', () => {
  it('is redacted from every stored rollout error, and appears nowhere in the database', async () => {
    inference.faults.failNext(2, 400, { kind: 'rollout', message: `the key ${INFERENCE_KEY} may not use this model` });
    const res = await s.gql(CreatePipelineRun, {
      input: {
        modelName: 'Qwen/Qwen2.5-1.5B-Instruct',
        projectName: 'echo',
        taskDescription: 'Answer briefly',
        numExamples: 2,
        rolloutsPerGroup: 3,
        numEpochs: 1,
        pipeline: { groupsPerStep: 2, maxConcurrentRollouts: 1 },
      },
    });
    const id = expectResult(res.createTrainingRun, 'CreateTrainingRunPayload').run.id;
    await waitFor(
      async () => ['COMPLETED', 'FAILED'].includes((await s.gql(PipelineRunDetails, { id })).run!.status),
      30_000,
      'the run to end',
    );

    const trajectories = (await s.gql(StepTrajectories, { runId: id, step: 0, first: 100 })).trajectories.edges.map(
      (e) => e.node,
    );
    const errors = trajectories.map((t) => t.error).filter(Boolean);
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toMatch(/the key \[redacted\] may not use this model/);
    expect(JSON.stringify(trajectories)).not.toContain(INFERENCE_KEY);
    // The SQLite file and its write-ahead log hold no trace of it either.
    for (const file of readdirSync(s.dir).filter((f) => f.startsWith('atelier.sqlite'))) {
      expect(readFileSync(join(s.dir, file)).includes(INFERENCE_KEY), file).toBe(false);
    }
  }, 60_000);
});
