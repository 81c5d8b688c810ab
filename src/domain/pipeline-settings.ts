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
}

export const PIPELINE_DEFAULTS: PipelineSettings = {
  groupsPerStep: 2,
  rubric: null,
  judgeModel: null,
  generatorModel: null,
  temperature: 0.7,
  maxConcurrentRollouts: 16,
  maxConcurrentJudgeCalls: 8,
  backend: null,
};

export class MissingSettingError extends AtelierError {
  readonly code = 'MISSING_SETTING';
  constructor(readonly setting: string) {
    super(`pipeline runs need the server setting ${setting}; set it in the environment and restart Atelier (or create a TRACKED run)`);
    this.name = 'MissingSettingError';
  }
}

/** The run's settings, with defaults for what it did not set. */
export function pipelineSettingsOf(config: Record<string, unknown>): PipelineSettings {
  const stored = (config.pipeline ?? {}) as Partial<PipelineSettings>;
  return { ...PIPELINE_DEFAULTS, ...Object.fromEntries(Object.entries(stored).filter(([, v]) => v !== null && v !== undefined)) } as PipelineSettings;
}

/** Throws MissingSettingError naming the first server setting a run with these settings would need. */
export function checkServerSettings(server: PipelineConfig, run: Partial<PipelineSettings>): void {
  if (server.artBackends.length === 0) throw new MissingSettingError('ART_BACKEND_URL');
  if (!server.openaiBaseUrl) throw new MissingSettingError('OPENAI_BASE_URL');
  if (!run.generatorModel && !server.generatorModel) throw new MissingSettingError('GENERATOR_MODEL');
  if (!run.judgeModel && !server.judgeModel) throw new MissingSettingError('JUDGE_MODEL');
}

/** The backend a run trains on: its own choice, else the first configured. */
export function backendOf(server: PipelineConfig, run: Partial<PipelineSettings>): ArtBackendConfig {
  if (!run.backend) return server.artBackends[0];
  const found = server.artBackends.find((b) => b.name === run.backend);
  if (!found) {
    throw ValidationError.of('input.pipeline.backend', 'unknown_backend', `no ART backend is named ${run.backend}; configured: ${server.artBackends.map((b) => b.name).join(', ')}`);
  }
  return found;
}
