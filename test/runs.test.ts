// Training runs through the public API: creation and its validation, lookup, the status state
// machine, deletion, and listing with filters, orderings and keyset pages.
import { describe, expect, it } from 'vitest';

import { advanceTo, createRun, recordTrajectories, trajectory, transition } from './helpers/builders';
import { expectResult } from './helpers/results';
import { useTestServer } from './helpers/server';
import { CreateRun, DeleteRun, GetNode, GetRun, ListRuns, RecordMetrics, TransitionRun } from './operations';

const s = useTestServer();

describe('createTrainingRun', () => {
  it('creates a PENDING run with the seed defaults and one creation transition', async () => {
    const run = await createRun(s, { config: { team: 'rl', nested: { a: [1, 2] } } });
    expect(run).toMatchObject({
      status: 'PENDING',
      numExamples: 100,
      rolloutsPerGroup: 4,
      learningRate: 1e-5,
      numEpochs: 1,
      maxSteps: null,
      trainedModelName: null,
      startedAt: null,
      completedAt: null,
      metrics: null,
      error: null,
      config: { team: 'rl', nested: { a: [1, 2] } },
    });
    expect(run.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const got = await s.gql(GetRun, { id: run.id });
    expect(got.run?.statusHistory).toEqual([expect.objectContaining({ from: null, to: 'PENDING', reason: null })]);
    expect((await s.gql(GetRun, { uuid: run.uuid })).run?.id).toBe(run.id);
    const node = await s.gql(GetNode, { id: run.id });
    expect(node.node).toMatchObject({ __typename: 'TrainingRun', id: run.id, uuid: run.uuid });
  });

  it.each([
    ['modelName', { modelName: '' }, 'input.modelName'],
    ['blank projectName', { projectName: '   ' }, 'input.projectName'],
    ['long projectName', { projectName: 'x'.repeat(201) }, 'input.projectName'],
    ['numExamples 0', { numExamples: 0 }, 'input.numExamples'],
    ['numExamples huge', { numExamples: 10_000_000 }, 'input.numExamples'],
    ['rolloutsPerGroup negative', { rolloutsPerGroup: -1 }, 'input.rolloutsPerGroup'],
    ['numEpochs 0', { numEpochs: 0 }, 'input.numEpochs'],
    ['learningRate 0', { learningRate: 0 }, 'input.learningRate'],
    ['learningRate > 1', { learningRate: 1.5 }, 'input.learningRate'],
    ['maxSteps 0', { maxSteps: 0 }, 'input.maxSteps'],
    ['config not an object', { config: [1, 2] }, 'input.config'],
    ['config too big', { config: { blob: 'x'.repeat(70_000) } }, 'input.config'],
    ['config too deep', { config: JSON.parse('{"a":'.repeat(20) + '1' + '}'.repeat(20)) }, 'input.config'],
    ['uuid malformed', { uuid: 'not-a-uuid' }, 'input.uuid'],
    ['control characters', { taskDescription: 'bad\u0000text' }, 'input.taskDescription'],
  ])('refuses %s with a ValidationError naming the field, storing nothing', async (_name, input, field) => {
    const before = (await s.gql(ListRuns, {})).runs.totalCount;
    const res = await s.gql(CreateRun, {
      input: { mode: 'TRACKED', modelName: 'm', projectName: 'p', taskDescription: 't', ...input },
    });
    const { issues } = expectResult(res.createTrainingRun, 'ValidationError');
    expect(issues.map((i) => i.field)).toContain(field);
    expect(issues.every((i) => i.rule.length > 0 && i.message.length > 0)).toBe(true);
    expect((await s.gql(ListRuns, {})).runs.totalCount).toBe(before);
  });

  it('refuses a uuid that is taken with a ConflictError', async () => {
    const run = await createRun(s);
    const res = await s.gql(CreateRun, {
      input: { mode: 'TRACKED', modelName: 'm', projectName: 'p', taskDescription: 't', uuid: run.uuid },
    });
    expectResult(res.createTrainingRun, 'ConflictError');
  });

  it('answers wrong GraphQL types with an error, not a crash', async () => {
    const res = await s.request(
      'mutation { createTrainingRun(input: {modelName: 1, projectName: "p", taskDescription: "t"}) { __typename } }',
    );
    expect(res.errors?.[0].message).toMatch(/String/);
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
  });
});

describe('lookups', () => {
  it('returns null for a run that does not exist, and a clear error for a malformed id', async () => {
    expect((await s.gql(GetRun, { uuid: '00000000-0000-4000-8000-000000000000' })).run).toBeNull();
    expect((await s.gql(GetRun, { id: Buffer.from('TrainingRun:999999').toString('base64url') })).run).toBeNull();
    const bad = await s.request(GetRun, { id: 'garbage!!' });
    expect(bad.errors?.[0].message).toMatch(/not a valid TrainingRun id/);
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const both = await s.request(GetRun, { id: 'x', uuid: 'y' });
    expect(both.errors?.[0].message).toMatch(/exactly one of id or uuid/);
    const node = await s.request(GetNode, { id: 'Zm9vOmJhcg' });
    expect(node.errors?.length ?? 0).toBeGreaterThan(0);
  });
});

describe('transitionRun', () => {
  it('walks the whole lifecycle, looping back to COLLECTING, and stamps startedAt and completedAt', async () => {
    const run = await createRun(s);
    const generating = await transition(s, run.id, 'GENERATING');
    expect(generating.startedAt).not.toBeNull();
    for (const to of ['COLLECTING', 'SCORING', 'TRAINING', 'COLLECTING', 'SCORING', 'TRAINING'] as const)
      await transition(s, run.id, to);
    const done = await transition(s, run.id, 'COMPLETED', 'all steps trained');
    expect(done.status).toBe('COMPLETED');
    expect(done.completedAt).not.toBeNull();
    expect(done.startedAt).toBe(generating.startedAt);
    const history = (await s.gql(GetRun, { id: run.id })).run!.statusHistory;
    expect(history.map((h) => `${h.from}>${h.to}`)).toEqual([
      'null>PENDING',
      'PENDING>GENERATING',
      'GENERATING>COLLECTING',
      'COLLECTING>SCORING',
      'SCORING>TRAINING',
      'TRAINING>COLLECTING',
      'COLLECTING>SCORING',
      'SCORING>TRAINING',
      'TRAINING>COMPLETED',
    ]);
    const ids = history.map((h) => Number(h.eventId));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(history.at(-1)!.reason).toBe('all steps trained');
  });

  it('refuses an illegal transition with a typed error and changes nothing', async () => {
    // A TRACKED run may skip stages forward (art-records.test.ts), never go back.
    const run = await createRun(s);
    await transition(s, run.id, 'SCORING');
    const res = await s.gql(TransitionRun, { runId: run.id, to: 'GENERATING' });
    expect(res.transitionRun).toMatchObject({
      __typename: 'IllegalTransitionError',
      from: 'SCORING',
      to: 'GENERATING',
    });
    const after = (await s.gql(GetRun, { id: run.id })).run!;
    expect(after.status).toBe('SCORING');
    expect(after.statusHistory).toHaveLength(2);
  });

  it('requires a reason for FAILED and stores it as the error; final states are final', async () => {
    const run = await createRun(s);
    await transition(s, run.id, 'GENERATING');
    const noReason = await s.gql(TransitionRun, { runId: run.id, to: 'FAILED' });
    expectResult(noReason.transitionRun, 'ValidationError');
    const failed = await transition(s, run.id, 'FAILED', 'backend out of memory');
    expect(failed).toMatchObject({ status: 'FAILED', error: 'backend out of memory' });
    expect(failed.completedAt).not.toBeNull();
    for (const to of ['COLLECTING', 'CANCELLED', 'FAILED', 'PENDING'] as const) {
      const res = await s.gql(TransitionRun, { runId: run.id, to, reason: 'again' });
      expectResult(res.transitionRun, 'IllegalTransitionError');
    }
  });

  it('can cancel from any non-final state', async () => {
    for (const at of ['PENDING', 'GENERATING', 'COLLECTING', 'SCORING', 'TRAINING'] as const) {
      const run = await createRun(s);
      if (at !== 'PENDING') await advanceTo(s, run.id, at);
      expect((await transition(s, run.id, 'CANCELLED')).status).toBe('CANCELLED');
    }
  });

  it('answers NotFoundError for a run that does not exist', async () => {
    const res = await s.gql(TransitionRun, {
      runId: Buffer.from('TrainingRun:424242').toString('base64url'),
      to: 'GENERATING',
    });
    expectResult(res.transitionRun, 'NotFoundError');
  });
});

describe('deleteTrainingRun', () => {
  it('refuses an active run and deletes a finished one with its trajectories and history', async () => {
    const run = await createRun(s);
    await recordTrajectories(s, run.id, [trajectory(0, 0.5), trajectory(0, 0.7)]);
    await s.gql(RecordMetrics, { runId: run.id, points: [{ step: 0, epoch: 0, trainingLoss: 0.1 }] });
    const refused = await s.gql(DeleteRun, { id: run.id });
    expectResult(refused.deleteTrainingRun, 'ConflictError');
    expect((await s.gql(GetRun, { id: run.id })).run).not.toBeNull();

    await transition(s, run.id, 'CANCELLED');
    const res = await s.gql(DeleteRun, { id: run.id });
    expect(res.deleteTrainingRun).toMatchObject({
      __typename: 'DeleteTrainingRunPayload',
      deletedRunId: run.id,
      uuid: run.uuid,
    });
    expect((await s.gql(GetRun, { id: run.id })).run).toBeNull();
    const reader = s.app.db.reader;
    for (const table of ['trajectories', 'metric_points', 'status_transitions', 'task_inputs']) {
      const [{ n }] = await reader.query(`SELECT COUNT(*) AS n FROM ${table} WHERE run_id = ?`, [run.databaseId]);
      expect(Number(n)).toBe(0);
    }
    expectResult((await s.gql(DeleteRun, { id: run.id })).deleteTrainingRun, 'NotFoundError');
  });
});
