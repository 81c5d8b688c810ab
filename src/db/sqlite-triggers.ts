// Rows written by other tools in the seed's layout (its to_dict) carry no `step` or `avg_reward`:
// on SQLite, the database other tools write to, triggers derive them from the JSON the row does
// carry, so filters, statistics and orderings include those rows too (Atelier sets both itself).
// They are (re)created after every start's migrations, because SQLite migrations that alter a table
// rebuild it, and a rebuilt table has lost its triggers.
import type { DataSource } from 'typeorm';

const TRIGGERS = [
  `CREATE TRIGGER IF NOT EXISTS trg_trajectories_step AFTER INSERT ON trajectories WHEN NEW.step IS NULL
    BEGIN UPDATE trajectories SET step = json_extract(NEW.task_input, '$.step') WHERE id = NEW.id; END`,
  `CREATE TRIGGER IF NOT EXISTS trg_training_runs_avg_reward_insert AFTER INSERT ON training_runs WHEN NEW.avg_reward IS NULL AND NEW.metrics IS NOT NULL
    BEGIN UPDATE training_runs SET avg_reward = json_extract(NEW.metrics, '$.avg_reward') WHERE id = NEW.id; END`,
  `CREATE TRIGGER IF NOT EXISTS trg_training_runs_avg_reward_update AFTER UPDATE OF metrics ON training_runs WHEN NEW.metrics IS NOT NULL
    BEGIN UPDATE training_runs SET avg_reward = json_extract(NEW.metrics, '$.avg_reward') WHERE id = NEW.id; END`,
];

export async function ensureSqliteTriggers(writer: DataSource): Promise<void> {
  for (const sql of TRIGGERS) await writer.query(sql);
}
