// A pipeline run's own settings (stored in its config under `pipeline`) and the server-wide ones
// it needs. A run that lacks a required server setting is refused when it is created.
import type { ArtBackendConfig, PipelineConfig } from '../config';
import { AtelierError, ValidationError } from '../errors';

export interface PipelineSettings {
  groupsPerStep: number;
  /** RULER's grading rubric; null: RULER's own default (applied where the judge request is built). */
  rubric: string | null;
  judgeModel: string | null;
  generatorModel: string | null;
  temperature: number;
  maxConcurrentRollouts: number;
  maxConcurrentJudgeCalls: number;
  /** The named ART backend; null: the first configured. */
  backend: string | null;
  /** Where the run's inputs came from when the user gave them (`scenarios`, `dataset:<uuid>`); null: generated. */
  scenarioSource: string | null;
  /** The kind of rollout and its settings; null: the built-in single turn. */
  rollout: RolloutSettings | null;
  /** Which checkpoints to keep after each trained step (ART's delete_checkpoints, generalized); null: keep all. */
  retention: RetentionPolicy | null;
  /** Validate on the run's VAL scenarios every this many steps (and before the first); null: never. */
  evalEvery: number | null;
}

/** How a step's episodes are played (src/rollouts/): one file per kind. */
export interface RolloutSettings {
  kind: 'builtin' | 'http' | 'mcp' | 'worker';
  /** The environment's base URL (http: POST {url}/reset, /step, /close; mcp: the Streamable HTTP endpoint). */
  url?: string | null;
  /** Assistant turns an episode may take before it is stopped as never done. */
  maxTurns?: number | null;
  /** worker: `pkg.module:rollout`. */
  entrypoint?: string | null;
}

/** ART keeps the latest checkpoint and the best by a metric; Atelier keeps the `keepLast` latest and the `keepBest` best. */
export interface RetentionPolicy {
  keepLast: number;
  keepBest: number;
  metric: string;
}

export const RETENTION_DEFAULT_METRIC = 'val/reward';

export const PIPELINE_DEFAULTS: PipelineSettings = {
  groupsPerStep: 2,
  rubric: null,
  judgeModel: null,
  generatorModel: null,
  temperature: 0.7,
  maxConcurrentRollouts: 16,
  maxConcurrentJudgeCalls: 8,
  backend: null,
  scenarioSource: null,
  rollout: null,
  retention: null,
  evalEvery: null,
};

export class MissingSettingError extends AtelierError {
  readonly code = 'MISSING_SETTING';
  /** The first missing setting, kept for clients that read one name. */
  readonly setting: string;
  /** Every setting missing, so one answer says everything to set. */
  constructor(readonly settings: string[]) {
    super(missingMessage(settings));
    this.setting = settings[0];
    this.name = 'MissingSettingError';
  }
}

const RUN_OWN: Record<string, string> = { GENERATOR_MODEL: 'generatorModel', JUDGE_MODEL: 'judgeModel' };

function missingMessage(settings: string[]): string {
  const list =
    settings.length === 1 ? settings[0] : `${settings.slice(0, -1).join(', ')} and ${settings[settings.length - 1]}`;
  const own = settings.filter((s) => s in RUN_OWN).map((s) => `pipeline.${RUN_OWN[s]}`);
  const hint = own.length ? `; a run may name its own model instead (${own.join(', ')})` : '';
  return `pipeline runs need the server setting${settings.length === 1 ? '' : 's'} ${list}: set ${settings.length === 1 ? 'it' : 'them'} in the environment and restart Atelier, or create a TRACKED run${hint}`;
}

/** The run's settings, with defaults for what it did not set. */
export function pipelineSettingsOf(config: Record<string, unknown>): PipelineSettings {
  const stored = (config.pipeline ?? {}) as Partial<PipelineSettings>;
  return {
    ...PIPELINE_DEFAULTS,
    ...Object.fromEntries(Object.entries(stored).filter(([, v]) => v !== null && v !== undefined)),
  } as PipelineSettings;
}

/** Throws MissingSettingError naming every server setting a run with these settings would need and lacks. */
export function checkServerSettings(server: PipelineConfig, run: Partial<PipelineSettings>): void {
  const missing = [
    server.artBackends.length === 0 && 'ART_BACKEND_URL',
    !server.openaiBaseUrl && 'OPENAI_BASE_URL',
    !run.generatorModel && !server.generatorModel && 'GENERATOR_MODEL',
    !run.judgeModel && !server.judgeModel && 'JUDGE_MODEL',
  ].filter((s): s is string => typeof s === 'string');
  if (missing.length > 0) throw new MissingSettingError(missing);
}

/** A rollout's settings, checked for its kind (each kind's required fields named); `backendKind`: the run's backend's. */
export function checkRolloutSettings(rollout: RolloutSettings | null | undefined, backendKind?: string): void {
  if (!rollout) return;
  if ((rollout.kind === 'http' || rollout.kind === 'mcp') && !rollout.url)
    throw ValidationError.of(
      'input.pipeline.rollout.url',
      'required',
      `a ${rollout.kind.toUpperCase()} rollout needs the url of its environment`,
    );
  if (rollout.kind === 'worker' && !rollout.entrypoint)
    throw ValidationError.of(
      'input.pipeline.rollout.entrypoint',
      'required',
      'a WORKER rollout needs its entrypoint (pkg.module:rollout)',
    );
  if (rollout.kind === 'worker' && !rollout.url && backendKind !== undefined && backendKind !== 'worker')
    throw ValidationError.of(
      'input.pipeline.rollout.url',
      'required',
      `a WORKER rollout runs on an Atelier worker: the run's backend is ${backendKind}, so give the url of a worker that runs the rollouts (atelier-worker --rollouts-only)`,
    );
}

/** The backend a run trains on: its own choice, else the first configured. */
export function backendOf(server: PipelineConfig, run: Partial<PipelineSettings>): ArtBackendConfig {
  if (!run.backend) return server.artBackends[0];
  const found = server.artBackends.find((b) => b.name === run.backend);
  if (!found) {
    throw ValidationError.of(
      'input.pipeline.backend',
      'unknown_backend',
      `no ART backend is named ${run.backend}; configured: ${server.artBackends.map((b) => b.name).join(', ')}`,
    );
  }
  return found;
}
