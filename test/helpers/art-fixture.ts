// Groups made by ART 0.5.17's own pydantic classes (test/fixtures/art/generate_trajectories.py at
// PeterWofford/ART 679b236e): TrajectoryGroup.model_dump(mode="json") of tool-calling and multi-part trajectories.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;
export interface ArtGroup {
  trajectories: Json[];
  exceptions: Json[];
  metadata: Json;
  metrics: Json;
  logs: string[];
}

const here = dirname(fileURLToPath(import.meta.url));
export const ART_FIXTURE = JSON.parse(readFileSync(join(here, '../fixtures/art/trajectory-groups.json'), 'utf8')) as {
  art_commit: string;
  groups: ArtGroup[];
};
