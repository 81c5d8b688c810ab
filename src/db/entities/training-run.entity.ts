// The `training_runs` table, in the seed's layout (snake_case, ISO-8601 text dates, JSON as text)
// so that the seed's TrainingRun.from_row reads Atelier's rows and Atelier reads rows from its to_dict.
import { EntitySchema } from 'typeorm';

export interface TrainingRunRow {
  id: number;
  uuid: string;
  status: string;
  modelName: string;
  projectName: string;
  trainedModelName: string | null;
  taskDescription: string;
  numExamples: number;
  rolloutsPerGroup: number;
  learningRate: number;
  numEpochs: number;
  maxSteps: number | null;
  systemPrompt: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  /** TrainingMetrics as JSON text with the seed's snake_case keys. */
  metrics: string | null;
  error: string | null;
  /** JSON object as text; the seed writes NULL for an empty config. */
  config: string | null;
  /** Not in the seed: metrics.avg_reward copied out so runs can be filtered and ordered by it through an index. */
  avgReward: number | null;
  /** Not in the seed: 'tracked' (a script reports) or 'pipeline' (Atelier drives it). */
  mode: string;
  /** Not in the seed: the step a pipeline run is working on. */
  currentStep: number | null;
  /** Not in the seed: the named ART backend a pipeline run trains on. */
  backend: string | null;
  /** Not in the seed: the instance driving the run, and until when its lease holds. */
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  /** Not in the seed: the run's name (null: its trainedModelName stands for it), markdown notes, and group. */
  name: string | null;
  notes: string | null;
  groupName: string | null;
}

export const TrainingRunEntity = new EntitySchema<TrainingRunRow>({
  name: 'TrainingRun',
  tableName: 'training_runs',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    uuid: { type: 'varchar', length: 36, unique: true },
    status: { type: 'varchar', length: 16 },
    modelName: { name: 'model_name', type: 'varchar', length: 200 },
    projectName: { name: 'project_name', type: 'varchar', length: 200 },
    trainedModelName: { name: 'trained_model_name', type: 'varchar', length: 200, nullable: true },
    taskDescription: { name: 'task_description', type: 'text' },
    numExamples: { name: 'num_examples', type: 'integer' },
    rolloutsPerGroup: { name: 'rollouts_per_group', type: 'integer' },
    learningRate: { name: 'learning_rate', type: 'double precision' },
    numEpochs: { name: 'num_epochs', type: 'integer' },
    maxSteps: { name: 'max_steps', type: 'integer', nullable: true },
    systemPrompt: { name: 'system_prompt', type: 'text', nullable: true },
    createdAt: { name: 'created_at', type: 'varchar', length: 32 },
    startedAt: { name: 'started_at', type: 'varchar', length: 32, nullable: true },
    completedAt: { name: 'completed_at', type: 'varchar', length: 32, nullable: true },
    metrics: { type: 'text', nullable: true },
    error: { type: 'text', nullable: true },
    config: { type: 'text', nullable: true },
    avgReward: { name: 'avg_reward', type: 'double precision', nullable: true },
    mode: { type: 'varchar', length: 16, default: 'tracked' },
    currentStep: { name: 'current_step', type: 'integer', nullable: true },
    backend: { type: 'varchar', length: 64, nullable: true },
    leaseOwner: { name: 'lease_owner', type: 'varchar', length: 128, nullable: true },
    leaseExpiresAt: { name: 'lease_expires_at', type: 'varchar', length: 32, nullable: true },
    name: { type: 'varchar', length: 200, nullable: true },
    notes: { type: 'text', nullable: true },
    groupName: { name: 'group_name', type: 'varchar', length: 200, nullable: true },
  },
  indices: [
    { name: 'IDX_training_runs_created', columns: ['createdAt', 'id'] },
    { name: 'IDX_training_runs_avg_reward', columns: ['avgReward', 'id'] },
    { name: 'IDX_training_runs_status', columns: ['status', 'createdAt'] },
    { name: 'IDX_training_runs_project', columns: ['projectName', 'createdAt'] },
    { name: 'IDX_training_runs_model', columns: ['modelName', 'createdAt'] },
    { name: 'IDX_training_runs_mode_status', columns: ['mode', 'status', 'id'] },
    { name: 'IDX_training_runs_backend_status', columns: ['backend', 'status', 'id'] },
    { name: 'IDX_training_runs_group', columns: ['groupName', 'createdAt'] },
    // SQLite only, made by migration 1796094000000-run-search-index (why there); the schema builder
    // leaves it alone on both databases.
    {
      name: 'IDX_training_runs_search',
      columns: [
        'status',
        'createdAt',
        'projectName',
        'groupName',
        'modelName',
        'mode',
        'learningRate',
        'numExamples',
        'rolloutsPerGroup',
        'numEpochs',
        'maxSteps',
        'avgReward',
        'name',
        'trainedModelName',
        'notes',
        'taskDescription',
        'config',
      ],
      synchronize: false,
    },
  ],
});
