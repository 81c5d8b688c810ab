// One ART step file decoded into rows: read (Parquet, JSONL or YAML), checked by ART's rules and
// built into the rows its groups make. Pure CPU work, no database: the import's decode thread runs
// it, and so does the event loop when the thread is not there.
import { readTrajectoryFile } from '../art-format/trajectory-files';
import { ValidationError } from '../errors';
import { MAX_TRAJECTORIES_PER_CALL } from '../trajectories/limits';
import { prepareGroups, type PreparedGroups } from '../trajectories/prepare-groups';

export interface StepFile {
  bytes: Uint8Array;
  format: 'parquet' | 'jsonl' | 'yaml';
  /** The file's path in its model folder: errors name it. */
  path: string;
  step: number;
  split: string;
  /** The run the rows are for: their uuids derive from it. */
  runUuid: string;
}

/** A step file's groups as rows, or the ValidationError that names what is wrong with it. */
export async function decodeStepFile(job: StepFile): Promise<PreparedGroups> {
  const groups = await readTrajectoryFile(job.bytes, job.format, job.path);
  const total = groups.reduce((n, g) => n + g.trajectories.length, 0);
  if (total > MAX_TRAJECTORIES_PER_CALL)
    throw ValidationError.of(
      job.path,
      'max',
      `holds ${total} trajectories; one step's file may hold at most ${MAX_TRAJECTORIES_PER_CALL}`,
    );
  return prepareGroups(job.step, job.split, groups, { build: { runUuid: job.runUuid } });
}
