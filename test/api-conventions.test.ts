// The API's conventions as clients rely on them (issue #12): errors that say everything at once,
// NotFound and BAD_USER_INPUT where other fields give them, cursors that say why they are refused,
// validation messages in Atelier's own words, and nodes(ids:) for Relay clients.
import { describe, expect, it } from 'vitest';
import { CreatePipelineRun, GetNode, ListRuns, ListTrajectories } from './operations';
import { createRun, recordTrajectories, trajectory } from './helpers/builders';
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

describe('lookups that name something that is not there', () => {
  const gid = (text: string) => Buffer.from(text).toString('base64url');

  it('trajectories(runId:) of an unknown run is NotFound, not an empty connection', async () => {
    const res = await bare.request(ListTrajectories, { runId: gid('TrainingRun:987654') });
    expect(res.data).toBeNull();
    expect(res.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' }, path: ['trajectories'] });
    expect(res.errors?.[0].message).toMatch(/TrainingRun 987654 was not found/);
  });

  it('node(id:) with an unknown type is BAD_USER_INPUT, like other bad ids', async () => {
    for (const id of [gid('Nonsense:1'), gid('ApiKey:1'), 'not-an-id']) {
      const res = await bare.request(GetNode, { id });
      expect(res.errors?.[0], id).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    }
    const unknown = await bare.request(GetNode, { id: gid('Nonsense:1') });
    expect(unknown.errors?.[0].message).toMatch(/TrainingRun or a Trajectory/);
    // A well-formed id of a known type that matches nothing is null, as Relay expects.
    expect((await bare.gql(GetNode, { id: gid('TrainingRun:987654') })).node).toBeNull();
  });

  it('a cursor from another ordering always says so, whatever its sort value looks like', async () => {
    const run = await createRun(bare);
    await recordTrajectories(bare, run.id, [trajectory(0, 0.5), trajectory(0, 0.7), trajectory(0, null)]);
    const byTime = (await bare.gql(ListTrajectories, { runId: run.id, first: 1 })).trajectories.pageInfo.endCursor!;
    const byReward = (await bare.gql(ListTrajectories, { runId: run.id, first: 1, orderBy: { field: 'REWARD', direction: 'DESC' } })).trajectories.pageInfo.endCursor!;
    const runsCursor = (await bare.gql(ListRuns, { first: 1 })).runs.pageInfo.endCursor!;
    const cases: Array<[string, Parameters<typeof bare.request>[1]]> = [
      ['a createdAt cursor under REWARD', { runId: run.id, after: byTime, orderBy: { field: 'REWARD', direction: 'DESC' } }],
      ['a reward cursor under createdAt', { runId: run.id, after: byReward }],
      ['a reward cursor under the other direction', { runId: run.id, after: byReward, orderBy: { field: 'REWARD', direction: 'ASC' } }],
      ['a runs cursor on trajectories', { runId: run.id, after: runsCursor }],
      ['a createdAt cursor under REWARD, backwards', { runId: run.id, before: byTime, last: 1, orderBy: { field: 'REWARD', direction: 'ASC' } }],
    ];
    for (const [what, variables] of cases) {
      const res = await bare.request(ListTrajectories, variables as never);
      expect(res.errors?.[0], what).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', issues: [{ rule: 'invalid_cursor' }] } });
      expect(res.errors?.[0].message, what).toMatch(/belongs to a different ordering/);
    }
    // A cursor of the same ordering under another filter says that instead.
    const filtered = await bare.request(ListTrajectories, { runId: run.id, after: byTime, filter: { step: 0 } });
    expect(filtered.errors?.[0].message).toMatch(/belongs to a different filter/);
    // Garbage is still garbage.
    const forged = await bare.request(ListTrajectories, { runId: run.id, after: 'eyJ4IjoxfQ' });
    expect(forged.errors?.[0].message).toMatch(/is not one Atelier issued/);
  });
});
