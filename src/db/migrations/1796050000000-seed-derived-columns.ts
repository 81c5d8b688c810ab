// Rows written by other tools in the seed's layout (its to_dict) carry no `step` or `avg_reward`:
// on SQLite, the database other tools write to, triggers derive them from the JSON the row does
// carry, so filters, statistics and orderings include those rows too. Atelier sets both itself.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SeedDerivedColumns1796050000000 implements MigrationInterface {
  name = 'SeedDerivedColumns1796050000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'better-sqlite3') return;
    await q.query(`UPDATE trajectories SET step = json_extract(task_input, '$.step') WHERE step IS NULL`);
    await q.query(`UPDATE training_runs SET avg_reward = json_extract(metrics, '$.avg_reward') WHERE avg_reward IS NULL AND metrics IS NOT NULL`);
    await q.query(`CREATE TRIGGER trg_trajectories_step AFTER INSERT ON trajectories WHEN NEW.step IS NULL
      BEGIN UPDATE trajectories SET step = json_extract(NEW.task_input, '$.step') WHERE id = NEW.id; END`);
    await q.query(`CREATE TRIGGER trg_training_runs_avg_reward_insert AFTER INSERT ON training_runs WHEN NEW.avg_reward IS NULL AND NEW.metrics IS NOT NULL
      BEGIN UPDATE training_runs SET avg_reward = json_extract(NEW.metrics, '$.avg_reward') WHERE id = NEW.id; END`);
    await q.query(`CREATE TRIGGER trg_training_runs_avg_reward_update AFTER UPDATE OF metrics ON training_runs WHEN NEW.metrics IS NOT NULL
      BEGIN UPDATE training_runs SET avg_reward = json_extract(NEW.metrics, '$.avg_reward') WHERE id = NEW.id; END`);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type !== 'better-sqlite3') return;
    for (const t of ['trg_training_runs_avg_reward_update', 'trg_training_runs_avg_reward_insert', 'trg_trajectories_step']) await q.query(`DROP TRIGGER IF EXISTS ${t}`);
  }
}
