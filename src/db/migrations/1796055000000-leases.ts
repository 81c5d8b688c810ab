// Several instances and several ART backends: which backend a pipeline run trains on, and which
// instance drives it until when (a lease, renewed while it works, taken over once it expires).
import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class Leases1796055000000 implements MigrationInterface {
  name = 'Leases1796055000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('training_runs', [
      new TableColumn({ name: 'backend', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'lease_owner', type: 'varchar', length: '128', isNullable: true }),
      new TableColumn({ name: 'lease_expires_at', type: 'varchar', length: '32', isNullable: true }),
    ]);
    await q.createIndex(
      'training_runs',
      new TableIndex({ name: 'IDX_training_runs_backend_status', columnNames: ['backend', 'status', 'id'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('training_runs', 'IDX_training_runs_backend_status');
    for (const c of ['lease_expires_at', 'lease_owner', 'backend']) await q.dropColumn('training_runs', c);
  }
}
