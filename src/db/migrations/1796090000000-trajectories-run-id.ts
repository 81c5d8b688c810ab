// A run's trajectories in id order (the keyset of trajectories.jsonl and ART export): no other index
// gives that order, so each page of 500 scanned and sorted the whole run (quadratic: minutes on a
// run of 200,000). QueryRunner API only: runs on SQLite and PostgreSQL.
import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class TrajectoriesRunId1796090000000 implements MigrationInterface {
  name = 'TrajectoriesRunId1796090000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'trajectories',
      new TableIndex({ name: 'IDX_trajectories_run_id', columnNames: ['run_id', 'id'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('trajectories', 'IDX_trajectories_run_id');
  }
}
