// The API's conventions as clients rely on them (issue #12): errors that say everything at once,
// NotFound and BAD_USER_INPUT where other fields give them, cursors that say why they are refused,
// validation messages in Atelier's own words, and nodes(ids:) for Relay clients.
import { describe, expect, it } from 'vitest';
import { CreatePipelineRun } from './operations';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';

const bare = useTestServer();

describe('MissingSettingError', () => {
  it('names every missing setting at once, and says a run may name its own models', async () => {
    const res = await bare.gql(CreatePipelineRun, { input: { modelName: 'm', projectName: 'p', taskDescription: 't' } });
    const err = expectResult(res.createTrainingRun, 'MissingSettingError');
    expect(err.settings).toEqual(['ART_BACKEND_URL', 'OPENAI_BASE_URL', 'GENERATOR_MODEL', 'JUDGE_MODEL']);
    expect(err.setting).toBe('ART_BACKEND_URL');
    for (const name of err.settings) expect(err.message).toContain(name);
    expect(err.message).toMatch(/pipeline\.generatorModel/);
    expect(err.message).toMatch(/pipeline\.judgeModel/);

    // A run that names its own models needs only the server's backend and provider.
    const own = await bare.gql(CreatePipelineRun, {
      input: { modelName: 'm', projectName: 'p', taskDescription: 't', pipeline: { generatorModel: 'g', judgeModel: 'j' } },
    });
    const ownErr = expectResult(own.createTrainingRun, 'MissingSettingError');
    expect(ownErr.settings).toEqual(['ART_BACKEND_URL', 'OPENAI_BASE_URL']);
    expect(ownErr.message).not.toMatch(/generatorModel|judgeModel/);
  });
});
