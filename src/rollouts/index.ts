// The rollout a run's settings name (`pipeline: { rollout: { kind, … } }`); BUILTIN by default.
import type { RolloutSettings } from '../domain/pipeline-settings';
import { BuiltinRollout } from './builtin';
import { HTTP_DEFAULT_MAX_TURNS, HttpRollout } from './http';
import { MCP_DEFAULT_MAX_TURNS, McpRollout } from './mcp';
import type { Rollout, RolloutDeps } from './types';
import { WorkerRollout } from './worker';

export type { ArtTrajectoryJson, Episode, EpisodeHooks, EpisodeResult, Rollout, RolloutDeps } from './types';
export { conversationOf } from './http';
export { listMcpTools } from './mcp';
export { rolloutWorker, WorkerRollout } from './worker';

export function createRollout(settings: RolloutSettings | null, deps: RolloutDeps): Rollout {
  switch (settings?.kind ?? 'builtin') {
    case 'builtin':
      return new BuiltinRollout(deps);
    case 'http':
      return new HttpRollout(deps, settings!.url!, settings!.maxTurns ?? HTTP_DEFAULT_MAX_TURNS);
    case 'mcp':
      return new McpRollout(deps, settings!.url!, settings!.maxTurns ?? MCP_DEFAULT_MAX_TURNS);
    case 'worker':
      return new WorkerRollout(deps, settings!.entrypoint!);
    default:
      throw new Error(`rollout kind ${settings!.kind} is not available in this build`);
  }
}
