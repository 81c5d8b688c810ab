// The insert recording uses inside its write transaction (trajectories.repo insertTrajectories): on
// SQLite it writes through the driver's connection, so it must stay inside the transaction: its rows
// commit with it, vanish when it rolls back, and the ids it returns are the stored rows' ids.
import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { TrajectoryEntity } from '../src/db/entities';
import { insertTrajectories, type NewTrajectoryRow } from '../src/trajectories/trajectories.repo';
import { createRun } from './helpers/builders';
import { useTestServer } from './helpers/server';

const s = useTestServer();

function rows(runId: number, n: number): NewTrajectoryRow[] {
  // Only the columns every version of the entity has; others the entity may add are stored as NULL.
  return Array.from(
    { length: n },
    (_, i) =>
      ({
        uuid: randomUUID(),
        runId,
        taskInput: JSON.stringify({ step: i, input_text: `input ${i}`, context: null }),
        messages: JSON.stringify([{ role: 'user', content: `message ${i}` }]),
        reward: i % 2 ? null : i / 10,
        metadata: '{}',
        createdAt: new Date().toISOString(),
        step: i,
      }) as NewTrajectoryRow,
  );
}

describe('insertTrajectories', () => {
  it('returns the ids of the stored rows, ascending, and they commit with the transaction', async () => {
    const run = await createRun(s);
    const batch = rows(run.databaseId, 5);
    const ids = await s.app.db.writes.run((tx) => insertTrajectories(tx.em, s.app.db.kind, batch));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const stored = await s.app.db.reader.getRepository(TrajectoryEntity).findBy({ runId: run.databaseId });
    expect(stored.map((r) => r.id).sort((a, b) => a - b)).toEqual(ids);
    for (const r of batch)
      expect(stored.find((x) => x.uuid === r.uuid)).toMatchObject({ ...r, id: expect.any(Number) });
  });

  it('rolls back with the transaction', async () => {
    const run = await createRun(s);
    const batch = rows(run.databaseId, 3);
    await expect(
      s.app.db.writes.run(async (tx) => {
        await insertTrajectories(tx.em, s.app.db.kind, batch);
        throw new Error('something later in the transaction failed');
      }),
    ).rejects.toThrow('something later');
    expect(await s.app.db.reader.getRepository(TrajectoryEntity).countBy({ runId: run.databaseId })).toBe(0);
    // The connection is usable afterwards, and no transaction was left open.
    const ids = await s.app.db.writes.run((tx) => insertTrajectories(tx.em, s.app.db.kind, batch));
    expect(ids).toHaveLength(3);
  });
});
