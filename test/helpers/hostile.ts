// A deterministic generator of hostile requests for the fuzz suite. Every case is built so that it
// must be refused (or, for reads, can change nothing): mutations always carry at least one broken
// field, target a run whose state machine forbids the change, or name a run that does not exist.
// Cases cover wrong types, NaN/Infinity, negative and enormous numbers, multi-megabyte strings,
// deep JSON, invalid UTF-8 and control characters, forged cursors and ids, SQL-looking text,
// malformed bodies and HTTP, and broken WebSocket frames and messages.
import { prng } from '../../src/domain/prng';

/** Case choices from the domain's seeded PRNG: the same cases for the same seed on every machine. */
export function rng(seed: number) {
  const next = prng(seed);
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof rng>;

export interface Seeded {
  keys: { admin: string; writer: string; reader: string };
  /** A PENDING run with trajectories and a metric point at step 0. */
  liveRun: string;
  liveRunUuid: string;
  /** A CANCELLED run: every transition from it is illegal. */
  finalRun: string;
  trajectoryId: string;
  runsCursor: string;
  existingTrajectoryUuid: string;
}

/** Marks a JSON value to be written as a raw token (1e999, NaN…) instead of JSON.stringify's output. */
export class Raw {
  constructor(readonly text: string) {}
}

/** JSON with Raw tokens spliced in: how to send Infinity, NaN or a 400-digit number in a body. */
export function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v) => (v instanceof Raw ? `\u0000RAW${raws.push(v.text) - 1}\u0000` : v));
  return text.replace(/"\\u0000RAW(\d+)\\u0000"/g, (_m, i) => raws[Number(i)]);
}

export interface HttpCase {
  kind: 'http';
  name: string;
  method: 'GET' | 'POST' | 'OPTIONS' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The operation would write if it were not refused. */
  mutation: boolean;
  /** For SQL probes: the answer must show no rows. */
  expectNoRows?: boolean;
  /** Valid apart from its credentials. */
  refusedByKeyOnly?: boolean;
}
export interface RawCase {
  kind: 'raw';
  name: string;
  bytes: Buffer[];
}
export interface WsCase {
  kind: 'ws';
  name: string;
  messages: Array<string | Buffer>;
}
export interface WsFrameCase {
  kind: 'wsframe';
  name: string;
  frames: Buffer;
}
export type Case = HttpCase | RawCase | WsCase | WsFrameCase;

const BIG = (n: number, ch = 'x') => ch.repeat(n);
const SQL = [
  "'; DROP TABLE training_runs; --",
  "' OR '1'='1",
  '" OR ""="',
  '1; DELETE FROM api_keys',
  "x') UNION SELECT secret_hash, key_id FROM api_keys --",
  '%',
  '_',
  '\\',
  "Robert'); DROP TABLE trajectories;--",
];

/** JSON nested `depth` deep, as raw text (building it as an object would overflow our own stack). */
function deepJson(depth: number, rnd: Rng): Raw {
  return rnd.chance(0.5)
    ? new Raw('['.repeat(depth) + ']'.repeat(depth))
    : new Raw('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
}

function b64(text: string) {
  return Buffer.from(text).toString('base64url');
}

/** Ids that look right but name nothing, ids for the wrong type, and ids that are not ids. */
function forgedIds(rnd: Rng): string[] {
  const big = 1_000_000 + rnd.int(1_000_000_000);
  return [
    b64(`TrainingRun:${big}`),
    b64(`Trajectory:${big}`),
    b64('TrainingRun:0'),
    b64('TrainingRun:-1'),
    b64('TrainingRun:99999999999999999999'),
    b64('TrainingRun:1 OR 1=1'),
    b64("TrainingRun:1'; DROP TABLE training_runs; --"),
    b64('ApiKey:1'),
    'not-an-id',
    '',
    BIG(10_000, 'A'),
    '\u0000',
    '%00',
    ...SQL,
  ];
}

function forgedCursors(rnd: Rng, s: Seeded): string[] {
  const valid = s.runsCursor;
  const decoded = Buffer.from(valid, 'base64url').toString();
  return [
    valid.slice(0, -3),
    `${valid}AA`,
    b64(decoded.replace(/"i":\d+/, '"i":-5')),
    b64(decoded.replace(/"i":\d+/, '"i":1e999')),
    b64(decoded.replace(/"q":"[^"]*"/, '"q":"forged"')),
    b64(decoded.replace(/"v":[^,]*/, `"v":${JSON.stringify(BIG(100))}`)),
    b64(JSON.stringify({ o: 'runs:createdAt:desc', q: 'x', v: "' OR 1=1 --", i: 1 })),
    b64('{"o":'.repeat(2000)),
    b64('null'),
    b64('[]'),
    b64(String(rnd.next())),
    '!!!!',
    BIG(50_000, 'Z'),
  ];
}

const RUN_FIELDS = `__typename ... on CreateTrainingRunPayload { run { id } } ... on Error { message } ... on ValidationError { issues { field rule } }`;

function validRunInput(rnd: Rng) {
  return {
    modelName: rnd.pick(['Qwen/Qwen2.5-1.5B-Instruct', SQL[0], 'm']),
    projectName: rnd.pick(['fuzz', SQL[1], 'p']),
    taskDescription: rnd.pick(['t', SQL[4], 'Answer politely']),
  };
}

/** At least one of these makes createTrainingRun invalid. */
function runInvalidators(rnd: Rng, s: Seeded): Array<[string, unknown]> {
  return [
    ['modelName', rnd.pick(['', '   ', BIG(201), 123, true, null, { a: 1 }, ['a'], 'a\u0000b', '\ud800x'])],
    ['modelName', BIG(1_500_000 + rnd.int(500_000))],
    ['projectName', rnd.pick([BIG(201), '\u0001', 4.5, [], '\t\n'])],
    ['taskDescription', rnd.pick([BIG(20_001), 'bell\u0007', 'lone \udc00 surrogate', 1, { x: 1 }])],
    ['taskDescription', BIG(3_000_000)],
    [
      'numExamples',
      rnd.pick([
        0,
        -1,
        -2147483648,
        100_001,
        2 ** 31,
        2 ** 53 + 1,
        1.5,
        '10',
        new Raw('1e999'),
        new Raw('-1e999'),
        new Raw('NaN'),
      ]),
    ],
    ['rolloutsPerGroup', rnd.pick([0, -4, 129, 1e9, '4', new Raw('Infinity')])],
    [
      'learningRate',
      rnd.pick([
        0,
        -1e-5,
        1.5,
        1e308,
        -1e308,
        'NaN',
        'Infinity',
        new Raw('1e999'),
        new Raw('-1e999'),
        true,
        new Raw('1' + '0'.repeat(400)),
      ]),
    ],
    ['numEpochs', rnd.pick([0, -1, 1001, 2 ** 40])],
    ['maxSteps', rnd.pick([0, -1, 10_000_001, 2 ** 31])],
    ['systemPrompt', rnd.pick([BIG(20_001), 7])],
    ['uuid', rnd.pick(['not-a-uuid', s.liveRunUuid, SQL[2], BIG(40), '00000000-0000-0000-0000-00000000000g'])],
    [
      'config',
      rnd.pick([
        [1, 2],
        'str',
        5,
        deepJson(17 + rnd.int(50), rnd),
        { blob: BIG(70_000) },
        { openai: { apiKey: 'k' } },
        { n: new Raw('1e999') },
        { headers: ['sk-' + BIG(30, 'a')] },
      ]),
    ],
    ['config', deepJson(10_000 + rnd.int(200_000), rnd)],
    ['bogusField', 1],
  ];
}

function messageInvalidators(rnd: Rng): Array<(t: Record<string, unknown>) => void> {
  return [
    (t) =>
      (t.messages as unknown[]).push({ role: rnd.pick(['narrator', '', 'SYSTEM', 'user ', SQL[0]]), content: 'x' }),
    (t) => (t.messages as unknown[]).push({ role: 'user', content: BIG(1_000_001) }),
    (t) => (t.messages as unknown[]).push({ role: 'user', content: rnd.pick([null, 5, { a: 1 }]) }),
    (t) => (t.uuid = rnd.pick(['bad', SQL[1], BIG(37), 5])),
    (t) => ((t.taskInput as Record<string, unknown>).step = rnd.pick([-1, 2 ** 31, 1.5, 'zero', new Raw('1e999')])),
    (t) => ((t.taskInput as Record<string, unknown>).inputText = rnd.pick([BIG(100_001), null, 7])),
    (t) =>
      ((t.taskInput as Record<string, unknown>).context = rnd.pick([
        [1],
        'ctx',
        deepJson(17 + rnd.int(100), rnd),
        { big: BIG(70_000) },
      ])),
    (t) => (t.metadata = rnd.pick([[1], 'meta', 5, deepJson(5_000, rnd), { n: new Raw('1e999') }])),
    (t) => (t.reward = rnd.pick(['high', new Raw('1e999'), new Raw('-1e999'), new Raw('NaN'), [1], { r: 1 }, true])),
    (t) => (t.messages = Array.from({ length: 1001 }, () => ({ role: 'user', content: '' }))),
    (t) => (t.extra = 'field'),
  ];
}

function gqlBody(query: string, variables?: unknown, operationName?: string): string {
  return toJson({ query, variables, ...(operationName ? { operationName } : {}) });
}

function post(
  name: string,
  body: string | Buffer,
  key: string | null,
  mutation: boolean,
  extra: Partial<HttpCase> = {},
): HttpCase {
  return {
    kind: 'http',
    name,
    method: 'POST',
    path: '/graphql',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body,
    mutation,
    ...extra,
  };
}

/** GraphQL-level cases: operations with broken arguments, sent as HTTP POSTs with a write or admin key. */
function graphqlCases(rnd: Rng, s: Seeded, n: number): HttpCase[] {
  const out: HttpCase[] = [];
  const makers: Array<() => HttpCase> = [
    // createTrainingRun with one to three broken fields, as variables or literals.
    () => {
      const input: Record<string, unknown> = validRunInput(rnd);
      const broken = runInvalidators(rnd, s);
      for (let i = 0; i <= rnd.int(3); i++) {
        const [field, value] = rnd.pick(broken);
        input[field] = value;
      }
      return post(
        'createTrainingRun(broken input)',
        gqlBody(`mutation($input: CreateTrainingRunInput!) { createTrainingRun(input: $input) { ${RUN_FIELDS} } }`, {
          input,
        }),
        s.keys.writer,
        true,
      );
    },
    () => {
      const literal = rnd.pick([
        'learningRate: 1e999',
        `learningRate: 1${'0'.repeat(400)}`,
        'learningRate: NaN',
        'learningRate: Infinity',
        'numExamples: -1',
        'numExamples: 99999999999999999999',
        'rolloutsPerGroup: "4"',
        'config: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: {a: 1}}}}}}}}}}}}}}}}}}',
        'config: {n: 1e999}',
        'config: [1, 2]',
        'modelName: null',
        'uuid: "not-a-uuid"',
        `taskDescription: "${'\\u0000'}"`,
      ]);
      return post(
        'createTrainingRun(literal)',
        gqlBody(
          `mutation { createTrainingRun(input: {modelName: "m", projectName: "p", taskDescription: "t", ${literal}}) { ${RUN_FIELDS} } }`,
        ),
        s.keys.writer,
        true,
      );
    },
    // transitionRun: only a final run (every transition illegal) or runs that do not exist.
    () => {
      const runId = rnd.chance(0.5) ? s.finalRun : rnd.pick(forgedIds(rnd));
      const to = rnd.pick([
        'GENERATING',
        'COMPLETED',
        'FAILED',
        'CANCELLED',
        'PENDING',
        'EXPLODED',
        1,
        null,
        'pending',
      ]);
      const reason = rnd.pick([null, SQL[rnd.int(SQL.length)], BIG(10_001), '\u0000', 5]);
      return post(
        'transitionRun',
        gqlBody(
          'mutation($runId: ID!, $to: TrainingStatus!, $reason: String) { transitionRun(runId: $runId, to: $to, reason: $reason) { __typename ... on Error { message } } }',
          { runId, to, reason },
        ),
        s.keys.writer,
        true,
      );
    },
    // deleteTrainingRun: only the live run (not final: refused) or runs that do not exist.
    () => {
      const id = rnd.chance(0.4) ? s.liveRun : rnd.pick(forgedIds(rnd));
      return post(
        'deleteTrainingRun',
        gqlBody('mutation($id: ID!) { deleteTrainingRun(id: $id) { __typename ... on Error { message } } }', { id }),
        s.keys.writer,
        true,
      );
    },
    // recordTrajectories: a batch with at least one broken trajectory, or a run that does not exist.
    () => {
      const count = rnd.chance(0.05) ? 1001 : 1 + rnd.int(5);
      const trajectories = Array.from({ length: count }, () => ({
        uuid: crypto.randomUUID(),
        taskInput: { step: rnd.int(3), inputText: rnd.pick(['in', SQL[0]]) },
        messages: [{ role: 'user', content: rnd.pick(['hi', SQL[3], '💥']) }],
        reward: rnd.next(),
      })) as Record<string, unknown>[];
      let runId = s.liveRun;
      if (count <= 1000) {
        if (rnd.chance(0.2)) runId = rnd.pick(forgedIds(rnd));
        else rnd.pick(messageInvalidators(rnd))(trajectories[rnd.int(trajectories.length)]);
        if (rnd.chance(0.1)) trajectories.push({ ...trajectories[0], uuid: s.existingTrajectoryUuid, reward: 42 });
      }
      return post(
        'recordTrajectories',
        gqlBody(
          'mutation($runId: ID!, $t: [TrajectoryInput!]!) { recordTrajectories(runId: $runId, trajectories: $t) { __typename ... on Error { message } } }',
          { runId, t: trajectories },
        ),
        s.keys.writer,
        true,
      );
    },
    () => {
      const literal = rnd.pick(['reward: 1e999', `reward: -1${'0'.repeat(400)}`, 'reward: NaN', 'reward: "1"']);
      return post(
        'recordTrajectories(literal)',
        gqlBody(
          `mutation { recordTrajectories(runId: "${s.liveRun}", trajectories: [{taskInput: {step: 0, inputText: "x"}, messages: [], ${literal}}]) { __typename ... on Error { message } } }`,
        ),
        s.keys.writer,
        true,
      );
    },
    // recordMetrics: always at least one broken point, a step already recorded, or a missing run.
    () => {
      const points: Record<string, unknown>[] = [{ step: 10 + rnd.int(1000), epoch: 0, trainingLoss: rnd.next() }];
      const breakers: Array<() => void> = [
        () => points.push({ step: -1 - rnd.int(10), epoch: 0 }),
        () => points.push({ step: 5, epoch: -1 }),
        () => points.push({ step: 0, epoch: 0, trainingLoss: 9 }), // step 0 is already recorded, with another loss
        () => points.push({ ...points[0] }), // the same step twice
        () =>
          points.push({ step: 2000, epoch: 0, trainingLoss: rnd.pick([new Raw('1e999'), new Raw('NaN'), 'low', [1]]) }),
        () =>
          points.push({
            step: 2001,
            epoch: 0,
            // Any characters but control ones, 1–200 of them (ART's names): these break that rule.
            values: [{ name: rnd.pick(['', BIG(201), 'a\nb', 'tab\there', '\u0000']), value: 1 }],
          }),
        () =>
          points.push({
            step: 2002,
            epoch: 0,
            values: [
              { name: 'a', value: 1 },
              { name: 'a', value: 2 },
            ],
          }),
        () => points.push({ step: 2003, epoch: 0, values: [{ name: 'a', value: new Raw('-1e999') }] }),
        () => points.push(...Array.from({ length: 1001 }, (_, i) => ({ step: 3000 + i, epoch: 0 }))),
        () => points.push({ step: 2 ** 31, epoch: 0 }),
      ];
      rnd.pick(breakers)();
      const runId = rnd.chance(0.15) ? rnd.pick(forgedIds(rnd)) : s.liveRun;
      return post(
        'recordMetrics',
        gqlBody(
          'mutation($runId: ID!, $p: [MetricPointInput!]!) { recordMetrics(runId: $runId, points: $p) { __typename ... on Error { message } } }',
          { runId, p: points },
        ),
        s.keys.writer,
        true,
      );
    },
    // Key management with an admin key: never a valid new key, never an existing key's id or name.
    () => {
      // Every one of these names is invalid, so no scope makes a key.
      const name = rnd.pick(['', ' lead', 'a\nb', BIG(101), 'x\u0000', SQL[0], 5, null]);
      const scope = rnd.pick(['READ', 'ROOT', 'read', 1, null]);
      return post(
        'createApiKey',
        gqlBody(
          'mutation($n: String!, $s: ApiKeyScope!) { createApiKey(name: $n, scope: $s) { __typename ... on Error { message } } }',
          { n: name, s: scope },
        ),
        s.keys.admin,
        true,
      );
    },
    () => {
      const id = rnd.pick([
        'ffffffffffffffff',
        `nobody-${rnd.int(1e9)}`,
        '',
        BIG(201),
        SQL[0],
        SQL[3],
        b64('ApiKey:1'),
        7,
      ]);
      return post(
        'revokeApiKey',
        gqlBody('mutation($id: ID!) { revokeApiKey(id: $id) { __typename ... on Error { message } } }', { id }),
        s.keys.admin,
        true,
      );
    },
    // Mutations a reader or nobody may not run, and mutations with keys that are not keys.
    () => {
      const key = rnd.pick([
        s.keys.reader,
        null,
        'atl_0123456789abcdef_' + BIG(43, 'A'),
        s.keys.writer.slice(0, -1) + 'x',
        `${s.keys.writer} trailing`,
      ]);
      // Valid input: only the key refuses it, so this case must never travel with another key (see wsCases).
      return post(
        'createTrainingRun(unauthorised)',
        gqlBody(`mutation($input: CreateTrainingRunInput!) { createTrainingRun(input: $input) { ${RUN_FIELDS} } }`, {
          input: validRunInput(rnd),
        }),
        key,
        true,
        { refusedByKeyOnly: true },
      );
    },
    // Reads with forged ids and cursors, broken pages and SQL-looking filters.
    () => {
      const id = rnd.pick(forgedIds(rnd));
      return post(
        'run(forged id)',
        gqlBody(
          'query($id: ID) { run(id: $id) { id status trajectories(first: 1) { totalCount } } node: node(id: "x") { id } }',
          { id },
        ),
        s.keys.reader,
        false,
      );
    },
    () => {
      const after = rnd.pick(forgedCursors(rnd, s));
      const first = rnd.pick([1, 5, -1, 101, 1e9, 0, 2 ** 31, '5', null]);
      return post(
        'runs(forged cursor)',
        gqlBody(
          'query($first: Int, $after: String) { runs(first: $first, after: $after) { totalCount edges { cursor } } }',
          { first, after },
        ),
        s.keys.reader,
        false,
      );
    },
    () => {
      const before = rnd.pick(forgedCursors(rnd, s));
      return post(
        'trajectories(forged cursor)',
        gqlBody(
          'query($runId: ID!, $before: String, $last: Int) { trajectories(runId: $runId, before: $before, last: $last) { totalCount edges { node { id } } } }',
          { runId: rnd.pick([s.liveRun, ...forgedIds(rnd)]), before, last: rnd.pick([1, -5, 1000]) },
        ),
        s.keys.reader,
        false,
      );
    },
    () => {
      const text = rnd.pick(SQL);
      const field = rnd.pick(['projectName', 'modelName', 'taskDescriptionContains']);
      // No seeded run holds any of these characters: every one must match nothing (% and _ included).
      return post(
        'runs(SQL filter)',
        gqlBody(`query($f: TrainingRunFilter) { runs(filter: $f) { totalCount edges { node { id } } } }`, {
          f: { [field]: `${text}${rnd.chance(0.5) ? ' --' : ''}` },
        }),
        s.keys.reader,
        false,
        {
          expectNoRows: true,
        },
      );
    },
    () => {
      const filter = rnd.pick([
        { createdAfter: 'not-a-date' },
        { createdBefore: '2026-02-31T00:00:00Z' },
        { avgReward: { min: 1, max: 0 } },
        { avgReward: { min: new Raw('1e999') } },
        { status: ['EXPLODED'] },
        { status: Array.from({ length: 9 }, () => 'PENDING') },
        { projectName: BIG(201) },
        { unknown: 1 },
      ]);
      return post(
        'runs(broken filter)',
        gqlBody('query($f: TrainingRunFilter) { runs(filter: $f) { totalCount } }', { f: filter }),
        s.keys.reader,
        false,
      );
    },
    () => {
      const maxPoints = rnd.pick([0, -1, 10_001, 1e9, 'all', new Raw('1e999')]);
      const step = rnd.pick([-1, 2 ** 31, 'one']);
      return post(
        'run(metricHistory/inputBatch)',
        gqlBody(
          'query($id: ID!, $m: Int, $s: Int!) { run(id: $id) { metricHistory(maxPoints: $m) { step } inputBatch(step: $s) { step } } }',
          { id: s.liveRun, m: maxPoints, s: step },
        ),
        s.keys.reader,
        false,
      );
    },
    () =>
      post(
        'run(uuid: SQL)',
        gqlBody('query($u: String) { run(uuid: $u) { id } }', { u: rnd.pick([...SQL, BIG(37), '']) }),
        s.keys.reader,
        false,
      ),
    // Syntax and shape garbage.
    () => {
      const query = rnd.pick([
        '{',
        '}',
        'query {',
        '{ runs(first: 1) { totalCount }',
        '{ runs(first: "1) { totalCount } }',
        '{ runs(first: 1) { totalCount } } garbage',
        'mutation { createTrainingRun }',
        'subscription { runStatusChanged { eventId } }',
        '{ __schema { types { name fields { name type { name ofType { name ofType { name } } } } } } }',
        'fragment A on Query { ...B } fragment B on Query { ...A } { ...A }',
        '{ ...Missing }',
        'query A { __typename } query A { __typename }',
        `{ ${Array.from({ length: 50 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
        `{ runs(first: 1) { ${'edges { node { trajectories(first: 1) { '.repeat(8)} totalCount ${'} } } '.repeat(8)} } }`,
        '{'.repeat(3000),
        `{ runs(first: 1) { totalCount ${'@skip(if: false) '.repeat(60)} } }`,
        `query(${Array.from({ length: 300 }, (_, i) => `$v${i}: Int`).join(', ')}) { __typename }`,
        '{ runs(filter: {projectName: "\\u0000"}) { totalCount } }',
        '{ run(id: "\\ud800") { id } }',
        `{ runs(first: 1) { totalCount } }${' '.repeat(100_000)}`,
        '# only a comment',
        '',
        '\u0000\u0001\u0002',
        '{ runs(first: 100) { edges { node { trajectories(first: 100) { edges { node { messages { content } metadata taskInput { context } } } } } } } }',
      ]);
      return post(
        'syntax',
        gqlBody(query, undefined, rnd.chance(0.1) ? rnd.pick(['Missing', '', BIG(500)]) : undefined),
        s.keys.writer,
        query.startsWith('mutation'),
      );
    },
  ];
  for (let i = 0; i < n; i++) out.push(rnd.pick(makers)());
  return out;
}

/** HTTP-level garbage: bodies, content types, headers, methods and paths. */
function httpCases(rnd: Rng, s: Seeded, n: number): HttpCase[] {
  const key = s.keys.writer;
  const mutation = `mutation { createTrainingRun(input: {modelName: "m", projectName: "p", taskDescription: "t", numExamples: -1}) { __typename } }`;
  const bodies: Array<() => HttpCase> = [
    () => post('truncated JSON', gqlBody('{ __typename }').slice(0, 1 + rnd.int(15)), key, false),
    () => post('NaN in JSON', '{"query":"query($x: Float) { __typename }","variables":{"x":NaN}}', key, false),
    () => post('single quotes', "{'query':'{ __typename }'}", key, false),
    () =>
      post(
        'not an object',
        rnd.pick(['[]', 'null', '"{ __typename }"', '42', 'true', '[{"query":"{ __typename }"}]']),
        key,
        false,
      ),
    () => post('query not a string', toJson({ query: rnd.pick([5, null, [], { a: 1 }, true]) }), key, false),
    () =>
      post(
        'variables not an object',
        toJson({ query: 'query($n: Int) { __typename }', variables: rnd.pick(['x', 5, [1], true]) }),
        key,
        false,
      ),
    () =>
      post(
        'extensions garbage',
        toJson({
          query: '{ __typename }',
          extensions: rnd.pick(['x', 5, { persistedQuery: { sha256Hash: 'abc', version: 1 } }]),
        }),
        key,
        false,
      ),
    () =>
      post(
        'duplicate keys',
        '{"query":"{ __typename }","query":"mutation { deleteTrainingRun(id: \\"x\\") { __typename } }"}',
        key,
        true,
      ),
    () =>
      post('BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(gqlBody('{ __typename }'))]), key, false),
    () =>
      post(
        'invalid UTF-8 in a string',
        Buffer.concat([
          Buffer.from('{"query":"mutation { createTrainingRun(input: {modelName: \\"'),
          Buffer.from(
            rnd.pick([[0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]]),
          ),
          Buffer.from('\\", projectName: \\"p\\", taskDescription: \\"\\u0000\\"}) { __typename } }"}'),
        ]),
        key,
        true,
      ),
    () =>
      post(
        'invalid UTF-8 everywhere',
        Buffer.from(Array.from({ length: 64 + rnd.int(512) }, () => rnd.int(256))),
        key,
        false,
      ),
    () =>
      post(
        'control characters',
        gqlBody(
          `mutation { createTrainingRun(input: {modelName: "m\\u0000", projectName: "\\u001b[2J", taskDescription: "\\u0007"}) { __typename } }`,
        ),
        key,
        true,
      ),
    () =>
      post(
        'deeply nested body',
        `{"query":"{ __typename }","variables":{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`,
        key,
        false,
      ),
    () =>
      post(
        'huge number',
        `{"query":"query($n: Int) { runs(first: $n) { totalCount } }","variables":{"n":1${'0'.repeat(5000)}}}`,
        key,
        false,
      ),
    () =>
      post(
        'over the body limit',
        `{"query":"{ __typename }","variables":{"pad":"${BIG(17 * 1024 * 1024)}"}}`,
        key,
        false,
      ),
    () => ({ ...post('no content type', gqlBody(mutation), key, true), headers: { authorization: `Bearer ${key}` } }),
    () => ({
      ...post('wrong content type', gqlBody(mutation), key, true),
      headers: {
        'content-type': rnd.pick([
          'text/plain',
          'application/xml',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=z',
          'application/json; charset=utf-16',
          'application/graphql',
        ]),
        authorization: `Bearer ${key}`,
      },
    }),
    () => ({
      ...post('form post', `query=${encodeURIComponent(mutation)}`, key, true),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    () =>
      post('authorization garbage', gqlBody(mutation), null, true, {
        headers: {
          'content-type': 'application/json',
          authorization: rnd.pick([
            'Bearer',
            'Bearer ',
            'Basic Zm9vOmJhcg==',
            `Bearer ${BIG(7000, 'a')}`,
            `Token ${key}`,
            `Bearer ${key}${key}`,
            'Bearer atl__',
            `Bearer ${SQL[0]}`,
          ]),
        },
      }),
    () => ({
      kind: 'http',
      name: 'mutation over GET',
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent(mutation)}`,
      headers: { authorization: `Bearer ${key}` },
      mutation: true,
    }),
    () => ({
      kind: 'http',
      name: 'GET garbage',
      method: 'GET',
      path: rnd.pick([
        '/graphql?query=%7B',
        '/graphql?variables=notjson&query=%7B__typename%7D',
        `/graphql?query=${encodeURIComponent('{ __typename }')}&extensions=%7B`,
        '/graphql?query=',
        '/graphql/../../etc/passwd',
        '/%00',
        '/nope',
        '/health?x=%ff',
        `/graphql?query=${BIG(6000, 'a')}`,
      ]),
      headers: {},
      mutation: false,
    }),
    () => ({
      kind: 'http',
      name: 'other methods',
      method: rnd.pick(['PUT', 'OPTIONS'] as const),
      path: '/graphql',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: gqlBody(mutation),
      mutation: true,
    }),
    () =>
      post(
        'SSE subscription with broken arguments',
        gqlBody(
          'subscription($id: ID, $after: String) { runStatusChanged(runId: $id, afterEventId: $after) { eventId } }',
          { id: rnd.pick(forgedIds(rnd)), after: rnd.pick(['abc', '-1', BIG(100, '9'), SQL[0]]) },
        ),
        s.keys.reader,
        false,
        {
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            authorization: `Bearer ${s.keys.reader}`,
          },
        },
      ),
  ];
  return Array.from({ length: n }, () => rnd.pick(bodies)());
}

/** Bytes Node's HTTP parser must refuse without trouble. */
function rawCases(rnd: Rng, n: number): RawCase[] {
  const makers: Array<() => RawCase> = [
    () => ({
      kind: 'raw',
      name: 'garbage request line',
      bytes: [
        Buffer.from(
          rnd.pick(['GARBAGE\r\n\r\n', 'GET\r\n\r\n', '\u0000\u0001\u0002\r\n\r\n', 'POST /graphql HTTP/9.9\r\n\r\n']),
        ),
      ],
    }),
    () => ({
      kind: 'raw',
      name: 'header without colon',
      bytes: [Buffer.from('POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nbroken header\r\n\r\n')],
    }),
    () => ({
      kind: 'raw',
      name: 'huge header',
      bytes: [Buffer.from(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${BIG(20_000)}\r\n\r\n`)],
    }),
    () => ({
      kind: 'raw',
      name: 'smuggling',
      bytes: [
        Buffer.from(
          'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /health HTTP/1.1\r\n\r\n',
        ),
      ],
    }),
    () => ({
      kind: 'raw',
      name: 'bad content-length',
      bytes: [
        Buffer.from(
          `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${rnd.pick(['-1', 'abc', '1, 2', '99999999999999999999'])}\r\n\r\n{}`,
        ),
      ],
    }),
    () => ({
      kind: 'raw',
      name: 'bad chunks',
      bytes: [
        Buffer.from(
          'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
        ),
      ],
    }),
    () => ({
      kind: 'raw',
      name: 'truncated body',
      bytes: [
        Buffer.from(
          'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"mutation { deleteTr',
        ),
      ],
    }),
    () => ({
      kind: 'raw',
      name: 'partial headers',
      bytes: [Buffer.from('POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty')],
    }),
    () => ({
      kind: 'raw',
      name: 'invalid header bytes',
      bytes: [
        Buffer.concat([
          Buffer.from('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer '),
          Buffer.from([0x00, 0xff, 0x7f]),
          Buffer.from('\r\n\r\n'),
        ]),
      ],
    }),
    () => ({
      kind: 'raw',
      name: 'pipelined',
      bytes: [Buffer.from('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(50))],
    }),
  ];
  return Array.from({ length: n }, () => rnd.pick(makers)());
}

/** graphql-ws message-level garbage, sent over a proper WebSocket. */
function wsCases(rnd: Rng, s: Seeded, n: number): WsCase[] {
  const init = (key: string | null = s.keys.writer) =>
    JSON.stringify({ type: 'connection_init', payload: key ? { Authorization: `Bearer ${key}` } : {} });
  const sub = (payload: unknown, id: unknown = '1') => toJson({ id, type: 'subscribe', payload });
  const makers: Array<() => WsCase> = [
    () => ({
      kind: 'ws',
      name: 'not JSON',
      messages: [init(), rnd.pick(['{', 'null', '[]', '"x"', BIG(1000, '{'), '\u0000'])],
    }),
    () => ({ kind: 'ws', name: 'subscribe before init', messages: [sub({ query: '{ __typename }' })] }),
    () => ({ kind: 'ws', name: 'init twice', messages: [init(), init()] }),
    () => ({
      kind: 'ws',
      name: 'unknown type',
      messages: [init(), JSON.stringify({ type: rnd.pick(['start', 'stop', 'connection_terminate', '', 5]) })],
    }),
    () => ({
      kind: 'ws',
      name: 'init payload garbage',
      messages: [
        toJson({
          type: 'connection_init',
          payload: rnd.pick([
            5,
            'x',
            [1],
            { Authorization: 5 },
            { Authorization: `Bearer ${BIG(5000)}` },
            { apiKey: ['a'] },
            deepJson(5000, rnd),
          ]),
        }),
        sub({ query: '{ viewer { scope } }' }),
      ],
    }),
    () => ({
      kind: 'ws',
      name: 'subscribe payload garbage',
      messages: [
        init(),
        sub(
          rnd.pick([
            null,
            5,
            { query: 5 },
            { query: null },
            { query: '{' },
            { query: '{ __typename }', variables: 'x' },
            { query: '{ __typename }', variables: [1] },
            { query: '{ __typename }', operationName: 5 },
            {},
          ]),
        ),
      ],
    }),
    () => ({
      kind: 'ws',
      name: 'bad ids',
      messages: [
        init(),
        sub({ query: '{ __typename }' }, rnd.pick([5, null, '', BIG(10_000), { a: 1 }])),
        sub({ query: '{ __typename }' }, '1'),
        sub({ query: '{ __typename }' }, '1'),
      ],
    }),
    () => ({
      kind: 'ws',
      name: 'complete unknown id',
      messages: [init(), JSON.stringify({ id: 'nope', type: 'complete' })],
    }),
    () => ({
      kind: 'ws',
      name: 'binary',
      messages: [init(), Buffer.from(Array.from({ length: 100 }, () => rnd.int(256)))],
    }),
    () => ({
      kind: 'ws',
      name: 'broken mutations over ws',
      messages: [
        init(),
        ...graphqlCases(rnd, s, 4)
          .filter((c) => !c.refusedByKeyOnly && typeof c.body === 'string' && c.body.length < 5_000_000)
          .map((c, i) => `{"id":"m${i}","type":"subscribe","payload":${c.body}}`),
      ],
    }),
    () => ({
      kind: 'ws',
      name: 'unauthenticated subscription',
      messages: [
        init(rnd.pick([null, 'atl_0123456789abcdef_' + BIG(43, 'B'), s.keys.reader + 'x'])),
        sub({ query: 'subscription { runStatusChanged { eventId } }' }),
        sub({ query: `mutation { deleteTrainingRun(id: "${s.liveRun}") { __typename } }` }, '2'),
      ],
    }),
    () => ({
      kind: 'ws',
      name: 'subscription with forged arguments',
      messages: [
        init(s.keys.reader),
        sub({
          query: 'subscription($id: ID!) { metricsRecorded(runId: $id) { points { step } } }',
          variables: { id: rnd.pick(forgedIds(rnd)) },
        }),
      ],
    }),
    () => ({
      kind: 'ws',
      name: 'over the message limit',
      messages: [init(), sub({ query: '{ __typename }', variables: { pad: BIG(17 * 1024 * 1024) } })],
    }),
  ];
  return Array.from({ length: n }, () => rnd.pick(makers)());
}

function frame(
  opcode: number,
  payload: Buffer,
  { mask = true, fin = true, declaredLength }: { mask?: boolean; fin?: boolean; declaredLength?: bigint } = {},
): Buffer {
  const len = declaredLength ?? BigInt(payload.length);
  const head: number[] = [(fin ? 0x80 : 0) | opcode];
  const maskBit = mask ? 0x80 : 0;
  if (len < 126n) head.push(maskBit | Number(len));
  else if (len < 65536n) head.push(maskBit | 126, Number(len >> 8n) & 0xff, Number(len) & 0xff);
  else {
    head.push(maskBit | 127);
    for (let i = 7; i >= 0; i--) head.push(Number((len >> BigInt(i * 8)) & 0xffn));
  }
  if (!mask) return Buffer.concat([Buffer.from(head), payload]);
  const key = Buffer.from([1, 2, 3, 4]);
  const body = Buffer.from(payload.map((b, i) => b ^ key[i % 4]));
  return Buffer.concat([Buffer.from(head), key, body]);
}

/** Frame-level garbage after a real upgrade: truncated, oversized, unmasked, invalid opcodes and UTF-8. */
function wsFrameCases(rnd: Rng, n: number): WsFrameCase[] {
  const text = (s: string) => Buffer.from(s);
  const makers: Array<() => WsFrameCase> = [
    () => ({ kind: 'wsframe', name: 'truncated header', frames: Buffer.from([0x81]) }),
    () => ({
      kind: 'wsframe',
      name: 'truncated payload',
      frames: frame(1, text('{"type":"connection_init"}')).subarray(0, 8 + rnd.int(10)),
    }),
    () => ({ kind: 'wsframe', name: 'absurd length', frames: frame(1, text('{}'), { declaredLength: 2n ** 62n }) }),
    () => ({
      kind: 'wsframe',
      name: 'unmasked',
      frames: frame(1, text('{"type":"connection_init"}'), { mask: false }),
    }),
    () => ({
      kind: 'wsframe',
      name: 'reserved opcode',
      frames: frame(rnd.pick([3, 4, 5, 6, 7, 11, 12, 15]), text('x')),
    }),
    () => ({ kind: 'wsframe', name: 'invalid UTF-8 text', frames: frame(1, Buffer.from([0x7b, 0xff, 0xfe, 0x7d])) }),
    () => ({ kind: 'wsframe', name: 'fragmented control frame', frames: frame(9, text('ping'), { fin: false }) }),
    () => ({ kind: 'wsframe', name: 'continuation without start', frames: frame(0, text('{}')) }),
    () => ({ kind: 'wsframe', name: 'oversized control frame', frames: frame(9, Buffer.alloc(200)) }),
    () => ({ kind: 'wsframe', name: 'bad close code', frames: frame(8, Buffer.from([0x03, 0xe7])) }),
    () => ({
      kind: 'wsframe',
      name: 'random bytes',
      frames: Buffer.from(Array.from({ length: 1 + rnd.int(200) }, () => rnd.int(256))),
    }),
  ];
  return Array.from({ length: n }, () => rnd.pick(makers)());
}

export interface Plan {
  graphql: number;
  http: number;
  raw: number;
  ws: number;
  wsframe: number;
}

/** The whole suite of cases, shuffled so that kinds interleave. */
export function generateCases(seed: number, seeded: Seeded, plan: Plan): Case[] {
  const rnd = rng(seed);
  const cases: Case[] = [
    ...graphqlCases(rnd, seeded, plan.graphql),
    ...httpCases(rnd, seeded, plan.http),
    ...rawCases(rnd, plan.raw),
    ...wsCases(rnd, seeded, plan.ws),
    ...wsFrameCases(rnd, plan.wsframe),
  ];
  for (let i = cases.length - 1; i > 0; i--) {
    const j = rnd.int(i + 1);
    [cases[i], cases[j]] = [cases[j], cases[i]];
  }
  return cases;
}
