// The API's conventions as clients rely on them (issue #12): errors that say everything at once,
// NotFound and BAD_USER_INPUT where other fields give them, cursors that say why they are refused,
// validation messages in Atelier's own words, and nodes(ids:) for Relay clients.
import { describe, expect, it } from 'vitest';

import { createRun, recordTrajectories, trajectory } from './helpers/builders';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { CreatePipelineRun, GetNode, GetNodes, ListRuns, ListTrajectories } from './operations';

const bare = useTestServer();

describe('MissingSettingError', () => {
  it('names every missing setting at once, and says a run may name its own models', async () => {
    const res = await bare.gql(CreatePipelineRun, {
      input: { modelName: 'm', projectName: 'p', taskDescription: 't' },
    });
    const err = expectResult(res.createTrainingRun, 'MissingSettingError');
    expect(err.settings).toEqual(['ART_BACKEND_URL', 'OPENAI_BASE_URL', 'GENERATOR_MODEL', 'JUDGE_MODEL']);
    expect(err.setting).toBe('ART_BACKEND_URL');
    for (const name of err.settings) expect(err.message).toContain(name);
    expect(err.message).toMatch(/pipeline\.generatorModel/);
    expect(err.message).toMatch(/pipeline\.judgeModel/);

    // A run that names its own models needs only the server's backend and provider.
    const own = await bare.gql(CreatePipelineRun, {
      input: {
        modelName: 'm',
        projectName: 'p',
        taskDescription: 't',
        pipeline: { generatorModel: 'g', judgeModel: 'j' },
      },
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
    const byReward = (
      await bare.gql(ListTrajectories, { runId: run.id, first: 1, orderBy: { field: 'REWARD', direction: 'DESC' } })
    ).trajectories.pageInfo.endCursor!;
    const runsCursor = (await bare.gql(ListRuns, { first: 1 })).runs.pageInfo.endCursor!;
    const cases: Array<[string, Parameters<typeof bare.request>[1]]> = [
      [
        'a createdAt cursor under REWARD',
        { runId: run.id, after: byTime, orderBy: { field: 'REWARD', direction: 'DESC' } },
      ],
      ['a reward cursor under createdAt', { runId: run.id, after: byReward }],
      [
        'a reward cursor under the other direction',
        { runId: run.id, after: byReward, orderBy: { field: 'REWARD', direction: 'ASC' } },
      ],
      ['a runs cursor on trajectories', { runId: run.id, after: runsCursor }],
      [
        'a createdAt cursor under REWARD, backwards',
        { runId: run.id, before: byTime, last: 1, orderBy: { field: 'REWARD', direction: 'ASC' } },
      ],
    ];
    for (const [what, variables] of cases) {
      const res = await bare.request(ListTrajectories, variables as never);
      expect(res.errors?.[0], what).toMatchObject({
        extensions: { code: 'BAD_USER_INPUT', issues: [{ rule: 'invalid_cursor' }] },
      });
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

describe('validation messages', () => {
  // zod's own phrasing, which no message may show: "Too big: expected string to have <=200 characters", "Invalid input", …
  const ZOD_DEFAULT = /^(Too (big|small)|Invalid|Expected|Unrecognized)|expected (string|number|array) to/;

  async function issuesOf(query: string, variables: Record<string, unknown>) {
    const res = await bare.request<
      Record<string, { __typename?: string; issues?: Array<{ field: string; rule: string; message: string }> }>,
      Record<string, unknown>
    >(query, variables);
    if (res.errors?.length)
      return (res.errors[0].extensions as { issues: Array<{ field: string; rule: string; message: string }> }).issues;
    const payload = Object.values(res.data ?? {})[0];
    expect(payload?.__typename, JSON.stringify(res)).toBe('ValidationError');
    return payload!.issues!;
  }

  const create = `mutation($input: CreateTrainingRunInput!) { createTrainingRun(input: $input) { __typename ... on ValidationError { issues { field rule message } } } }`;
  const tracked = { mode: 'TRACKED', modelName: 'm', projectName: 'p', taskDescription: 't' };

  it('speak in Atelier words across inputs, arguments and filters', async () => {
    const run = await createRun(bare);
    const long = (n: number) => 'x'.repeat(n);
    const cases: Array<[string, string, Record<string, unknown>, string, string]> = [
      [
        'createTrainingRun numExamples 0',
        create,
        { input: { ...tracked, numExamples: 0 } },
        'input.numExamples',
        'must be at least 1',
      ],
      [
        'createTrainingRun rolloutsPerGroup 129',
        create,
        { input: { ...tracked, rolloutsPerGroup: 129 } },
        'input.rolloutsPerGroup',
        'must be at most 128',
      ],
      ['createTrainingRun uuid', create, { input: { ...tracked, uuid: 'not-a-uuid' } }, 'input.uuid', 'must be a UUID'],
      [
        'createTrainingRun projectName 201',
        create,
        { input: { ...tracked, projectName: long(201) } },
        'input.projectName',
        'must be at most 200 characters',
      ],
      [
        'pipeline.temperature 3',
        create,
        { input: { ...tracked, mode: 'PIPELINE', pipeline: { temperature: 3 } } },
        'input.pipeline.temperature',
        'must be at most 2',
      ],
      [
        'pipeline.backend',
        create,
        { input: { ...tracked, mode: 'PIPELINE', pipeline: { backend: 'no spaces!' } } },
        'input.pipeline.backend',
        'must be 1–64 letters, digits, _ or -',
      ],
      [
        'runs filter projectName 201',
        `query($p: String) { runs(filter: { projectName: $p }) { totalCount } }`,
        { p: long(201) },
        'filter.projectName',
        'must be at most 200 characters',
      ],
      [
        'runs filter status list',
        `query($s: [TrainingStatus!]) { runs(filter: { status: $s }) { totalCount } }`,
        { s: Array(9).fill('PENDING') },
        'filter.status',
        'must have at most 8 items',
      ],
      [
        'metricHistory maxPoints 0',
        `query($id: ID!) { run(id: $id) { metricHistory(maxPoints: 0) { step } } }`,
        { id: run.id },
        'maxPoints',
        'must be at least 1',
      ],
      [
        'inputBatch step -1',
        `query($id: ID!) { run(id: $id) { inputBatch(step: -1) { step } } }`,
        { id: run.id },
        'step',
        'must be at least 0',
      ],
      [
        'trajectory filter step -1',
        `query($id: ID!) { trajectories(runId: $id, filter: { step: -1 }) { totalCount } }`,
        { id: run.id },
        'filter.step',
        'must be at least 0',
      ],
      [
        'recordTrajectories taskInput.step -1',
        `mutation($id: ID!, $t: [TrajectoryInput!]!) { recordTrajectories(runId: $id, trajectories: $t) { __typename ... on ValidationError { issues { field rule message } } } }`,
        { id: run.id, t: [{ ...trajectory(0, 1), taskInput: { step: -1, inputText: 'x' } }] },
        'trajectories.0.taskInput.step',
        'must be at least 0',
      ],
      [
        'recordMetrics values list 101',
        `mutation($id: ID!, $p: [MetricPointInput!]!) { recordMetrics(runId: $id, points: $p) { __typename ... on ValidationError { issues { field rule message } } } }`,
        {
          id: run.id,
          p: [{ step: 0, epoch: 0, values: Array.from({ length: 101 }, (_, i) => ({ name: `v${i}`, value: 1 })) }],
        },
        'points.0.values',
        'must have at most 100 items',
      ],
      [
        'testTrainedModel empty input',
        `mutation($id: ID!) { testTrainedModel(runId: $id, inputText: "") { __typename ... on ValidationError { issues { field rule message } } } }`,
        { id: run.id },
        'inputText',
        'must not be empty',
      ],
      [
        'createApiKey name 101',
        `mutation($n: String!) { createApiKey(name: $n, scope: READ) { __typename ... on ValidationError { issues { field rule message } } } }`,
        { n: long(101) },
        'name',
        'must be at most 100 characters',
      ],
    ];
    for (const [what, query, variables, field, message] of cases) {
      const issues = await issuesOf(query, variables);
      expect(issues, what).toContainEqual(expect.objectContaining({ field, message }));
      for (const issue of issues) expect(issue.message, what).not.toMatch(ZOD_DEFAULT);
    }
  });
});

describe('nodes(ids:)', () => {
  const gid = (text: string) => Buffer.from(text).toString('base64url');

  it('returns each node in the order asked, null for ids that match nothing', async () => {
    const run = await createRun(bare);
    const [uuid] = (await recordTrajectories(bare, run.id, [trajectory(0, 0.5)])).uuids;
    const trajectoryId = (await bare.gql(ListTrajectories, { runId: run.id })).trajectories.edges[0].node.id;
    const res = await bare.gql(GetNodes, { ids: [trajectoryId, gid('TrainingRun:987654'), run.id, run.id] });
    expect(res.nodes).toEqual([
      { __typename: 'Trajectory', id: trajectoryId, uuid },
      null,
      { __typename: 'TrainingRun', id: run.id, uuid: run.uuid },
      { __typename: 'TrainingRun', id: run.id, uuid: run.uuid },
    ]);
  });

  it('refuses malformed ids, ids of unknown types and too many ids with BAD_USER_INPUT naming the position', async () => {
    const run = await createRun(bare);
    const malformed = await bare.request(GetNodes, { ids: [run.id, 'garbage'] });
    expect(malformed.errors?.[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', issues: [{ field: 'ids.1', rule: 'global_id' }] },
    });
    const unknownType = await bare.request(GetNodes, { ids: [gid('Nonsense:3')] });
    expect(unknownType.errors?.[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', issues: [{ field: 'ids.0', rule: 'global_id' }] },
    });
    const tooMany = await bare.request(GetNodes, { ids: Array(101).fill(run.id) });
    expect(tooMany.errors?.[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', issues: [{ field: 'ids', message: 'must have at most 100 items' }] },
    });
  });
});
