// recordTrajectoryGroups' bulk door: the groups as one JSON text (`groupsJson`, what
// `json.dumps([g.model_dump(mode="json") for g in groups])` gives), over real HTTP into a real
// database. The same groups sent as `groups` and as `groupsJson` store the same rows; a retry is a
// no-op whichever door it comes through; replace works; every bad text gets a ValidationError naming
// the field and the rule, stores nothing, and the server keeps serving. On SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ART_FIXTURE } from './helpers/art-fixture';
import { createRun } from './helpers/builders';
import {
  createPostgresDatabase,
  postgresSuiteTitle,
  postgresUrl,
  type FreshPostgresDatabase,
} from './helpers/postgres';
import { expectResult } from './helpers/results';
import { useTestServer, type ServerOptions, type TestServer } from './helpers/server';
import { ArtTrajectories, RecordTrajectoryGroupsJson } from './operations';

type Extra = { split?: string; replace?: boolean };

async function viaJson(s: TestServer, runId: string, step: number, text: string, extra: Extra = {}) {
  return (await s.gql(RecordTrajectoryGroupsJson, { runId, step, groupsJson: text, ...extra })).recordTrajectoryGroups;
}

async function viaGroups(s: TestServer, runId: string, step: number, groups: unknown[], extra: Extra = {}) {
  return (await s.gql(RecordTrajectoryGroupsJson, { runId, step, groups: groups as never, ...extra }))
    .recordTrajectoryGroups;
}

/** What a run stores, read back over GraphQL, without the identities (they derive from the run). */
async function stored(s: TestServer, runId: string) {
  const { run } = await s.gql(ArtTrajectories, { id: runId, first: 100 });
  return {
    total: run!.metrics?.totalTrajectories ?? 0,
    count: run!.trajectories.totalCount,
    nodes: run!.trajectories.edges.map(({ node: { uuid: _uuid, ...rest } }) => rest),
  };
}

const dumps = (groups: unknown[]) => JSON.stringify(groups);

/** A valid group of `n` trajectories, to build bad texts around. */
const group = (n = 1) => ({ trajectories: Array.from({ length: n }, (_, i) => ({ reward: i })) });

function suite(options: () => ServerOptions) {
  const s = useTestServer(options);

  it('stores the same rows as `groups` does, key for key, and a retry through either door is a no-op', async () => {
    const viaInputs = await createRun(s);
    const viaText = await createRun(s);
    const a = expectResult(await viaGroups(s, viaInputs.id, 3, ART_FIXTURE.groups), 'RecordTrajectoryGroupsPayload');
    const b = expectResult(await viaJson(s, viaText.id, 3, dumps(ART_FIXTURE.groups)), 'RecordTrajectoryGroupsPayload');
    expect(b).toMatchObject({ recorded: 4, duplicates: 0, replaced: 0 });
    expect(a).toMatchObject({ recorded: 4, duplicates: 0, replaced: 0 });

    const fromInputs = await stored(s, viaInputs.id);
    const fromText = await stored(s, viaText.id);
    expect(fromText).toEqual(fromInputs);
    expect(fromText.count).toBe(4);
    const sent = ART_FIXTURE.groups.flatMap((g) => g.trajectories);
    expect(fromText.nodes.map((n) => JSON.stringify(n.art))).toEqual(sent.map((t) => JSON.stringify(t)));
    expect(fromText.nodes[2].group!.exceptions).toEqual(ART_FIXTURE.groups[1].exceptions);

    const again = expectResult(
      await viaJson(s, viaText.id, 3, dumps(ART_FIXTURE.groups)),
      'RecordTrajectoryGroupsPayload',
    );
    expect(again).toMatchObject({ recorded: 0, duplicates: 4, replaced: 0 });
    expect(again.uuids).toEqual(b.uuids);
    // The other door sees the same identities: the same groups as inputs are a retry too.
    const across = expectResult(await viaGroups(s, viaText.id, 3, ART_FIXTURE.groups), 'RecordTrajectoryGroupsPayload');
    expect(across).toMatchObject({ recorded: 0, duplicates: 4 });
    expect(await stored(s, viaText.id)).toEqual(fromText);
  });

  it('takes indexes, splits and replace as `groups` does; other content is a conflict named by groupsJson', async () => {
    const run = await createRun(s);
    const groups = structuredClone(ART_FIXTURE.groups);
    expectResult(await viaJson(s, run.id, 2, dumps(groups), { split: 'val' }), 'RecordTrajectoryGroupsPayload');
    const more = expectResult(
      await viaJson(s, run.id, 2, dumps([{ ...groups[0], index: 7 }]), { split: 'val' }),
      'RecordTrajectoryGroupsPayload',
    );
    expect(more.recorded).toBe(2);
    const before = await stored(s, run.id);
    expect(before.nodes.map((n) => [n.split, n.group?.index])).toEqual([
      ['val', 0],
      ['val', 0],
      ['val', 1],
      ['val', 1],
      ['val', 7],
      ['val', 7],
    ]);

    groups[1].trajectories[1].reward = 0.5;
    const conflict = expectResult(await viaJson(s, run.id, 2, dumps(groups), { split: 'val' }), 'ConflictError');
    expect(conflict.message).toMatch(/groupsJson\.1\.trajectories\.1/);
    expect(await stored(s, run.id)).toEqual(before);

    const replaced = expectResult(
      await viaJson(s, run.id, 2, dumps([groups[1]]), { split: 'val', replace: true }),
      'RecordTrajectoryGroupsPayload',
    );
    expect(replaced).toMatchObject({ recorded: 2, replaced: 6 });
    const after = await stored(s, run.id);
    expect(after.nodes.map((n) => n.reward)).toEqual([0.25, 0.5]);
    expect(after.total).toBe(2);
    const same = expectResult(
      await viaJson(s, run.id, 2, dumps([groups[1]]), { split: 'val', replace: true }),
      'RecordTrajectoryGroupsPayload',
    );
    expect(same).toMatchObject({ recorded: 0, replaced: 0, duplicates: 2 });
  });

  const deep = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
  const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const BAD: Array<[string, string, Array<[string, string]>]> = [
    ['invalid JSON', '[{"trajectories": [', [['groupsJson', 'json']]],
    ['an empty text', '', [['groupsJson', 'json']]],
    ['not a list', '{"trajectories": []}', [['groupsJson', 'invalid_type']]],
    ['a group that is not an object', '[1]', [['groupsJson.0', 'invalid_type']]],
    [
      'a field TrajectoryGroupInput does not have',
      dumps([{ ...group(), score: 1 }]),
      [['groupsJson.0.score', 'unrecognized_keys']],
    ],
    ['no trajectories', dumps([{ logs: [] }]), [['groupsJson.0.trajectories', 'required']]],
    [
      'trajectories that are not a list',
      dumps([{ trajectories: 'x' }]),
      [['groupsJson.0.trajectories', 'invalid_type']],
    ],
    ['a fractional index', dumps([{ ...group(), index: 1.5 }]), [['groupsJson.0.index', 'invalid_type']]],
    ['a text index', dumps([{ ...group(), index: '1' }]), [['groupsJson.0.index', 'invalid_type']]],
    ['a negative index', dumps([{ ...group(), index: -1 }]), [['groupsJson.0.index', 'too_small']]],
    ['an index past 1,000,000', dumps([{ ...group(), index: 1_000_001 }]), [['groupsJson.0.index', 'too_big']]],
    [
      'a twice-given index',
      dumps([
        { ...group(), index: 4 },
        { ...group(), index: 4 },
      ]),
      [['groupsJson.1.index', 'unique']],
    ],
    ['logs that are not a list', dumps([{ ...group(), logs: 'x' }]), [['groupsJson.0.logs', 'invalid_type']]],
    ['10,001 logs', dumps([{ ...group(), logs: Array(10_001).fill('') }]), [['groupsJson.0.logs', 'too_big']]],
    [
      '10,001 exceptions',
      dumps([{ ...group(), exceptions: Array(10_001).fill({}) }]),
      [['groupsJson.0.exceptions', 'too_big']],
    ],
    ['a log that is not text', dumps([{ ...group(), logs: [1] }]), [['groupsJson.0.logs.0', 'type']]],
    [
      'a bad reward and a bad role',
      dumps([
        group(),
        { trajectories: [{ reward: 1 }, { reward: 'high', messages_and_choices: [{ role: 'robot' }] }] },
      ]),
      [
        ['groupsJson.1.trajectories.1.reward', 'type'],
        ['groupsJson.1.trajectories.1.messages_and_choices.0.role', 'enum'],
      ],
    ],
    [
      'a trajectory that is not an object',
      dumps([{ trajectories: ['just text'] }]),
      [['groupsJson.0.trajectories.0', 'type']],
    ],
    ['nested metadata', dumps([{ ...group(), metadata: { a: { b: 1 } } }]), [['groupsJson.0.metadata.a', 'type']]],
    [
      'an escaped NUL',
      dumps([{ trajectories: [{ logs: ['a\u0000b'] }] }]),
      [['groupsJson.0.trajectories.0.logs.0', 'no_nul']],
    ],
    [
      'lists nested 100,000 deep',
      `[{"trajectories": [{"extra": ${deep(100_000)}}]}]`,
      [['groupsJson.0.trajectories.0.extra' + '.0'.repeat(63), 'max_depth']],
    ],
    [
      'objects nested 50,000 deep',
      `[{"trajectories": [{"tools": null, "future": ${deepObject(50_000)}}]}]`,
      [['groupsJson.0.trajectories.0.future' + '.a'.repeat(63), 'max_depth']],
    ],
    ['1,001 trajectories in one group', dumps([group(1001)]), [['groupsJson.0.trajectories', 'too_big']]],
    ['1,001 trajectories across groups', dumps([group(500), group(501)]), [['groupsJson', 'max']]],
    ['1,001 groups', dumps(Array.from({ length: 1001 }, () => group(0))), [['groupsJson', 'too_big']]],
  ];

  it.each(BAD)(
    'refuses %s with the field and rule named, storing nothing, and keeps serving',
    async (_what, text, want) => {
      const run = await createRun(s);
      const err = expectResult(await viaJson(s, run.id, 0, text), 'ValidationError');
      expect(err.issues.map((i) => [i.field, i.rule])).toEqual(expect.arrayContaining(want));
      for (const issue of err.issues) expect(issue.message.length).toBeGreaterThan(0);
      expect(await stored(s, run.id)).toMatchObject({ count: 0, total: 0 });
      // The server still serves, and the same run takes a good text.
      expect(
        expectResult(await viaJson(s, run.id, 0, dumps([group(2)])), 'RecordTrajectoryGroupsPayload').recorded,
      ).toBe(2);
    },
  );

  it('bounds nesting the same way through `groups`: 100,000 levels are a max_depth error, not a crash', async () => {
    const run = await createRun(s);
    // The body written by hand: JSON.stringify of the value itself would overflow this side's stack.
    const query = `mutation($runId: ID!, $groups: [TrajectoryGroupInput!]) {
      recordTrajectoryGroups(runId: $runId, step: 0, groups: $groups) { __typename ... on ValidationError { issues { field rule } } }
    }`;
    const body = `{"query": ${JSON.stringify(query)}, "variables": {"runId": ${JSON.stringify(run.id)}, "groups": [{"trajectories": [{"extra": ${deep(100_000)}}]}]}}`;
    const res = await fetch(s.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const answer = (await res.json()) as {
      data: { recordTrajectoryGroups: { __typename: string; issues: Array<{ field: string; rule: string }> } };
    };
    expect(answer.data.recordTrajectoryGroups).toEqual({
      __typename: 'ValidationError',
      issues: [{ field: 'groups.0.trajectories.0.extra' + '.0'.repeat(63), rule: 'max_depth' }],
    });
    expect(await stored(s, run.id)).toMatchObject({ count: 0, total: 0 });
  });

  it('asks for exactly one of groups and groupsJson', async () => {
    const run = await createRun(s);
    const both = await s.gql(RecordTrajectoryGroupsJson, {
      runId: run.id,
      step: 0,
      groups: [group()] as never,
      groupsJson: dumps([group()]),
    });
    expect(expectResult(both.recordTrajectoryGroups, 'ValidationError').issues.map((i) => [i.field, i.rule])).toEqual([
      ['groupsJson', 'exclusive'],
    ]);
    const neither = await s.gql(RecordTrajectoryGroupsJson, { runId: run.id, step: 0 });
    expect(
      expectResult(neither.recordTrajectoryGroups, 'ValidationError').issues.map((i) => [i.field, i.rule]),
    ).toEqual([['groups', 'required']]);
    const nulls = await s.gql(RecordTrajectoryGroupsJson, { runId: run.id, step: 0, groups: null, groupsJson: null });
    expect(expectResult(nulls.recordTrajectoryGroups, 'ValidationError').issues[0].field).toBe('groups');
    expect(await stored(s, run.id)).toMatchObject({ count: 0, total: 0 });
  });
}

describe('recordTrajectoryGroups(groupsJson) on SQLite', () => suite(() => ({})));

describe.skipIf(!postgresUrl)(postgresSuiteTitle('recordTrajectoryGroups(groupsJson) on PostgreSQL'), () => {
  let db: FreshPostgresDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
  });
  afterAll(() => db?.drop());
  suite(() => ({ databaseUrl: db.url }));
});
