// ART's model.json: `json.dump(model.model_dump())` written by LocalBackend.register (ART 0.5.17,
// PeterWofford/ART 679b236e src/art/local/backend.py; the same file since 0.3). It carries the
// model's inference_api_key: that field is dropped here, on read, so it is never stored, shown or
// logged, and never written back.
import { ValidationError } from '../errors';

export interface ArtModel {
  name: string;
  project: string;
  baseModel: string | null;
  runId: string | null;
  /** model.json without inference_api_key (and without any other field named like a secret). */
  fields: Record<string, unknown>;
}

/** Keys never kept: ART's inference_api_key, and anything else that looks like a credential. */
const SECRET_KEY = /api_key|apikey|secret|password|token/i;

export function withoutSecrets(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET_KEY.test(k)));
}

export function readModelJson(text: string, file = 'model.json'): ArtModel {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw ValidationError.of(file, 'json', 'is not JSON (ART writes model.json with json.dump(model.model_dump()))');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw ValidationError.of(file, 'type', 'must be a JSON object (ART model.model_dump())');
  const o = parsed as Record<string, unknown>;
  for (const key of ['name', 'project'])
    if (typeof o[key] !== 'string' || (o[key] as string).length === 0)
      throw ValidationError.of(`${file}.${key}`, 'required', 'must be a non-empty string, as every ART model has');
  const fields = withoutSecrets(o);
  return {
    name: o.name as string,
    project: o.project as string,
    baseModel: typeof o.base_model === 'string' ? o.base_model : null,
    runId: typeof o.run_id === 'string' ? o.run_id : null,
    fields,
  };
}

/** model.json as ART reads it back: the stored fields (never a key), name and project the run's. */
export function writeModelJson(fields: Record<string, unknown>, name: string, project: string): string {
  return JSON.stringify({ ...withoutSecrets(fields), name, project });
}
