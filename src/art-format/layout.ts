// Where ART keeps what in a model folder (`.art/<project>/models/<name>/`), as ART's
// utils/output_dirs.py names it (PeterWofford/ART 679b236e, ART 0.5.17): model.json, history.jsonl,
// trajectories/<split>/<step:04d>.parquet (0.5.x), .jsonl (0.4.x) or .yaml (0.3.x), checkpoints/<step:04d>/.
export type ArtFile =
  | { kind: 'model'; path: string }
  | { kind: 'history'; path: string }
  | { kind: 'trajectories'; path: string; split: string; step: number; format: 'parquet' | 'jsonl' | 'yaml' }
  | { kind: 'checkpoint'; path: string; step: number };

const SPLIT = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** What a path relative to a model folder is to ART, or null when ART does not write it. */
export function artFileOf(path: string): ArtFile | null {
  if (path === 'model.json') return { kind: 'model', path };
  if (path === 'history.jsonl') return { kind: 'history', path };
  let m = /^trajectories\/([^/]+)\/(\d{4,9})\.(parquet|jsonl|yaml)$/.exec(path);
  if (m && SPLIT.test(m[1]))
    return {
      kind: 'trajectories',
      path,
      split: m[1],
      step: Number(m[2]),
      format: m[3] as 'parquet' | 'jsonl' | 'yaml',
    };
  m = /^checkpoints\/(\d{4,9})$/.exec(path);
  if (m) return { kind: 'checkpoint', path, step: Number(m[1]) };
  return null;
}

/** ART's file name of a step: at least four digits (`f"{step:04d}"`). */
export function stepName(step: number): string {
  return String(step).padStart(4, '0');
}

/** What a model folder must hold for Atelier to call it ART's, for error messages. */
export const EXPECTED_LAYOUT =
  'an ART model folder (.art/<project>/models/<name>/) holding model.json and at least one of history.jsonl, ' +
  'trajectories/<split>/<step>.parquet|.jsonl|.yaml or checkpoints/<step>/';
