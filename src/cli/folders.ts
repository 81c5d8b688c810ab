// Finds ART model folders under a path and lists what of them to ship: `.art/`, one project folder
// (`<project>/models/<name>/`) or one model folder. Which files mean what is the server's business
// (src/art-format/); the client only knows where ART keeps its model folders and skips the bulk
// (adapter weights, logs) that the server never reads.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface LocalFile {
  path: string;
  /** Absolute; null for a checkpoint directory (shipped as its name only). */
  abs: string | null;
  size: number;
  sha256: string;
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/** The model folders PATH holds, or an error saying what was expected. */
export function modelFolders(path: string): string[] {
  if (!isDir(path))
    throw new Error(`${path} is not a folder: expected an .art folder, a project folder or a model folder`);
  if (existsSync(join(path, 'model.json'))) return [path];
  const inModels = (project: string) =>
    isDir(join(project, 'models'))
      ? readdirSync(join(project, 'models'))
          .map((n) => join(project, 'models', n))
          .filter((m) => existsSync(join(m, 'model.json')))
      : [];
  const asProject = inModels(path);
  if (asProject.length) return asProject.sort();
  const asArt = readdirSync(path)
    .map((n) => join(path, n))
    .filter(isDir)
    .flatMap(inModels);
  if (asArt.length) return asArt.sort();
  throw new Error(
    `${path} holds no ART model: expected an .art folder (<project>/models/<name>/model.json), a project folder (models/<name>/model.json) or a model folder (model.json)`,
  );
}

export function sha256File(abs: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(abs)
      .on('data', (c) => h.update(c))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}

const EMPTY_SHA = createHash('sha256').digest('hex');

/**
 * Hashes of files already read, by absolute path, with the stat they were read at: a watcher keeps
 * one, so a pass reads only the files that changed (not every trajectory file of a long run again).
 */
export type HashCache = Map<string, { stamp: string; sha256: string }>;

/** model.json, history.jsonl, every file under trajectories/, and each checkpoints/<step> directory. */
export async function folderFiles(folder: string, cache?: HashCache): Promise<LocalFile[]> {
  const out: LocalFile[] = [];
  const add = async (abs: string) => {
    const st = statSync(abs);
    const stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    const known = cache?.get(abs);
    const sha256 = known && known.stamp === stamp ? known.sha256 : await sha256File(abs);
    cache?.set(abs, { stamp, sha256 });
    out.push({ path: relative(folder, abs).split(sep).join('/'), abs, size: st.size, sha256 });
  };
  for (const name of ['model.json', 'history.jsonl']) if (existsSync(join(folder, name))) await add(join(folder, name));
  const walk = async (dir: string) => {
    for (const n of readdirSync(dir).sort()) {
      const p = join(dir, n);
      if (isDir(p)) await walk(p);
      else if (statSync(p).isFile()) await add(p);
    }
  };
  if (isDir(join(folder, 'trajectories'))) await walk(join(folder, 'trajectories'));
  if (isDir(join(folder, 'checkpoints')))
    for (const n of readdirSync(join(folder, 'checkpoints')).sort())
      if (isDir(join(folder, 'checkpoints', n)))
        out.push({ path: `checkpoints/${n}`, abs: null, size: 0, sha256: EMPTY_SHA });
  return out;
}
