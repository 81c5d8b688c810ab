// U+0000 in a string argument (issue #11). PostgreSQL cannot store NUL in text or take it as a query
// parameter, so a NUL in a transition's reason or a filter once answered a masked 500 there, while
// SQLite stored it. Now every String and ID argument refuses it, on both databases alike, with a
// ValidationError naming the field and rule no_nul, and nothing is changed.
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createRun, recordTrajectories, trajectory } from './helpers/builders';
import { postgresTableChecksums, tableChecksums } from './helpers/db-checksum';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { useTestServer, type ServerOptions, type TestServer } from './helpers/server';
import { viaSse, viaWs } from './helpers/transports';

const NUL = 'a\u0000b';

interface Issue {
  field: string;
  rule: string;
  message: string;
}

/** The issues of a refusal, whether it came as a typed ValidationError (mutations) or as an error with BAD_USER_INPUT (queries, subscriptions). */
function issuesOf(
  result:
    { data?: unknown; errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> } | undefined,
  what: string,
): Issue[] {
  expect(result, what).toBeDefined();
  if (result!.errors?.length) {
    const error = result!.errors[0];
    expect(error.extensions?.code, `${what}: ${JSON.stringify(error)}`).toBe('BAD_USER_INPUT');
    return error.extensions!.issues as Issue[];
  }
  const payload = Object.values((result!.data ?? {}) as Record<string, { __typename: string; issues: Issue[] }>)[0];
  expect(payload?.__typename, `${what}: ${JSON.stringify(result)}`).toBe('ValidationError');
  return payload.issues;
}

function suite(options: () => ServerOptions, checksum: (s: TestServer) => Promise<unknown>) {
  const s = useTestServer(options);

  it('refuses NUL in every kind of string argument with no_nul, changing nothing', async () => {
    const run = await createRun(s, { projectName: 'nul-project' });
    await recordTrajectories(s, run.id, [trajectory(0, 0.5)]);
    const before = await checksum(s);

    const V = '... on ValidationError { issues { field rule message } }';
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      [
        'transitionRun reason',
        `mutation($id: ID!, $r: String) { transitionRun(runId: $id, to: FAILED, reason: $r) { __typename ${V} } }`,
        { id: run.id, r: NUL },
        'reason',
      ],
      [
        'cancelTrainingRun reason',
        `mutation($id: ID!, $r: String) { cancelTrainingRun(id: $id, reason: $r) { __typename ${V} } }`,
        { id: run.id, r: NUL },
        'reason',
      ],
      [
        'runs filter projectName',
        `query($p: String) { runs(filter: { projectName: $p }) { totalCount } }`,
        { p: NUL },
        'filter.projectName',
      ],
      [
        'runs filter modelName',
        `query($p: String) { runs(filter: { modelName: $p }) { totalCount } }`,
        { p: NUL },
        'filter.modelName',
      ],
      [
        'runs filter taskDescriptionContains',
        `query($p: String) { runs(filter: { taskDescriptionContains: $p }) { totalCount } }`,
        { p: NUL },
        'filter.taskDescriptionContains',
      ],
      [
        'run(uuid:)',
        `query($u: String) { run(uuid: $u) { id } }`,
        { u: `00000000-0000-4000-8000-00000000000${NUL}` },
        'uuid',
      ],
      [
        'createApiKey name',
        `mutation($n: String!) { createApiKey(name: $n, scope: READ) { __typename ${V} } }`,
        { n: NUL },
        'name',
      ],
      ['revokeApiKey id', `mutation($n: ID!) { revokeApiKey(id: $n) { __typename ${V} } }`, { n: NUL }, 'id'],
      [
        'createTrainingRun projectName',
        `mutation($i: CreateTrainingRunInput!) { createTrainingRun(input: $i) { __typename ${V} } }`,
        { i: { mode: 'TRACKED', modelName: 'm', projectName: NUL, taskDescription: 't' } },
        'input.projectName',
      ],
      [
        'recordTrajectories message content',
        `mutation($id: ID!, $t: [TrajectoryInput!]!) { recordTrajectories(runId: $id, trajectories: $t) { __typename ${V} } }`,
        {
          id: run.id,
          t: [
            trajectory(1, 0.1),
            trajectory(1, 0.2, {
              messages: [
                { role: 'user', content: 'fine' },
                { role: 'assistant', content: NUL },
              ],
            }),
          ],
        },
        'trajectories.1.messages.1.content',
      ],
      [
        'testTrainedModel inputText',
        `mutation($id: ID!, $t: String!) { testTrainedModel(runId: $id, inputText: $t) { __typename ${V} } }`,
        { id: run.id, t: NUL },
        'inputText',
      ],
      ['node id', `query($id: ID!) { node(id: $id) { id } }`, { id: NUL }, 'id'],
    ];
    for (const [what, query, variables, field] of cases) {
      const res = await s.request(query, variables);
      expect(issuesOf(res, what), what).toContainEqual({
        field,
        rule: 'no_nul',
        message: 'must not contain the NUL character (U+0000)',
      });
    }

    // Subscriptions too, over both transports.
    const sub = 'subscription($p: String) { runStatusChanged(projectName: $p) { eventId } }';
    for (const outcome of [await viaWs(s.url, sub, { p: NUL }), await viaSse(s.url, sub, { p: NUL })]) {
      expect(issuesOf(outcome.result, 'runStatusChanged projectName')).toContainEqual(
        expect.objectContaining({ field: 'projectName', rule: 'no_nul' }),
      );
    }

    expect(await checksum(s)).toEqual(before);
    // The same strings without NUL work (the run is still there to act on).
    const ok = await s.request(
      `mutation($id: ID!) { transitionRun(runId: $id, to: FAILED, reason: "a b") { __typename } }`,
      { id: run.id },
    );
    expect(ok.data).toEqual({ transitionRun: { __typename: 'TransitionRunPayload' } });
    // JSON values keep NUL: stored as JSON text, where it is the escape \u0000, on either database.
    const withJson = await createRun(s, { config: { note: NUL } });
    expect(withJson.config).toEqual({ note: NUL });
  });
}

describe('NUL in string arguments on SQLite', () =>
  suite(
    () => ({}),
    async (s) => tableChecksums(join(s.dir, 'atelier.sqlite')),
  ));

describe.skipIf(!postgresUrl)(postgresSuiteTitle('NUL in string arguments on PostgreSQL'), () => {
  let db: FreshPostgresDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
  });
  afterAll(() => db?.drop());
  suite(
    () => ({ databaseUrl: db.url }),
    () => postgresTableChecksums(db.url),
  );
});
