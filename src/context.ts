// The per-request context: the app's services and fresh dataloaders, so that a page of rows
// resolves its related rows with one query per level, never one per row.
// The rule: dataloaders batch through the services' batch reads (getMany, transitionsOf,
// taskInputsOf), like every other read; Services exposes no repo, so no resolver can reach one.
// The loaders of runs and trajectories apply the viewer's ProjectScope (domain/project-scope.ts): a
// run of a project the key does not reach, and its trajectories, load as null, like absent ones.
import DataLoader from 'dataloader';

import type { Viewer } from './auth/viewer';
import type { RunActivityRow, RunSummaryRow, TrajectoryGroupRow } from './db/entities';
import { ProjectScope } from './domain/project-scope';
import type { StatusTransition, TaskInput, TrainingRun } from './runs/run.model';
import type { Services } from './services';
import type { Trajectory } from './trajectories/trajectory.model';

export interface Loaders {
  runById: DataLoader<number, TrainingRun | null>;
  trajectoryById: DataLoader<number, Trajectory | null>;
  statusHistoryByRunId: DataLoader<number, StatusTransition[]>;
  taskInputsByRunId: DataLoader<number, TaskInput[]>;
  /** A trajectory's ART JSON, where it was recorded as ART data (null: a seed-shaped row); parsed once per request. */
  artByTrajectoryId: DataLoader<number, Record<string, unknown> | null>;
  trajectoryGroupById: DataLoader<number, TrajectoryGroupRow | null>;
  tagsByRunId: DataLoader<number, string[]>;
  summariesByRunId: DataLoader<number, RunSummaryRow[]>;
  costsByRunId: DataLoader<number, Array<{ name: string; total: number; steps: number }>>;
  /** When a TRACKED run's rows last arrived and whether it is stalled (null: no rows yet). */
  activityByRunId: DataLoader<number, RunActivityRow | null>;
}

export type { Viewer };

export interface Context {
  services: Services;
  loaders: Loaders;
  viewer: Viewer;
}

function byKey<K, V>(keys: readonly K[], rows: V[], key: (row: V) => K): (V | null)[] {
  const map = new Map(rows.map((r) => [key(r), r]));
  return keys.map((k) => map.get(k) ?? null);
}

function groupBy<K, V>(keys: readonly K[], rows: V[], key: (row: V) => K): V[][] {
  const map = new Map<K, V[]>(keys.map((k) => [k, []]));
  for (const r of rows) map.get(key(r))?.push(r);
  return keys.map((k) => map.get(k) ?? []);
}

/** Each key once: a loader that does not cache hands its batch function every load, repeats included. */
const unique = <K>(keys: readonly K[]): K[] => [...new Set(keys)];

export function createLoaders(s: Services, options: { cache?: boolean; projects?: ProjectScope } = {}): Loaders {
  const cache = options.cache ?? true;
  const scope = options.projects ?? ProjectScope.ALL;
  const runById = new DataLoader<number, TrainingRun | null>(
    async (ids) => byKey(ids, await s.runs.getMany(unique(ids)), (r) => r.id).map((run) => scope.visible(run)),
    { cache },
  );
  /** Trajectories whose run the scope reaches (an unrestricted scope asks nothing more). */
  const reachable = async (trajectories: Trajectory[]): Promise<Trajectory[]> => {
    if (scope.unrestricted) return trajectories;
    const runs = await runById.loadMany(unique(trajectories.map((t) => t.runId)));
    const visible = new Set(runs.flatMap((r) => (r && !(r instanceof Error) ? [r.id] : [])));
    return trajectories.filter((t) => visible.has(t.runId));
  };
  return {
    runById,
    trajectoryById: new DataLoader(
      async (ids) => byKey(ids, await reachable(await s.trajectories.getMany(unique(ids))), (r) => r.id),
      { cache },
    ),
    statusHistoryByRunId: new DataLoader(
      async (ids) => groupBy(ids, await s.runs.transitionsOf(unique(ids)), (r) => r.runId),
      { cache },
    ),
    taskInputsByRunId: new DataLoader(
      async (ids) => groupBy(ids, await s.runs.taskInputsOf(unique(ids)), (r) => r.runId),
      { cache },
    ),
    artByTrajectoryId: new DataLoader(
      async (ids) => {
        const art = await s.trajectories.artOf(unique(ids));
        return ids.map((id) => {
          const text = art.get(id);
          return text === undefined ? null : (JSON.parse(text) as Record<string, unknown>);
        });
      },
      { cache },
    ),
    tagsByRunId: new DataLoader(
      async (ids) =>
        groupBy(ids, await s.runs.tagsOf(unique(ids)), (r) => r.runId).map((rows) => rows.map((r) => r.tag)),
      { cache },
    ),
    summariesByRunId: new DataLoader(
      async (ids) => groupBy(ids, await s.runs.summariesOf(unique(ids)), (r) => r.runId),
      { cache },
    ),
    costsByRunId: new DataLoader(async (ids) => groupBy(ids, await s.runs.costsOf(unique(ids)), (r) => r.runId), {
      cache,
    }),
    trajectoryGroupById: new DataLoader(
      async (ids) => {
        const groups = await s.trajectories.groupsOf(unique(ids));
        return ids.map((id) => groups.get(id) ?? null);
      },
      { cache },
    ),
    activityByRunId: new DataLoader(async (ids) => byKey(ids, await s.runs.activityOf(unique(ids)), (r) => r.runId), {
      cache,
    }),
  };
}

export function createContext(services: Services, viewer: Viewer): Context {
  return { services, viewer, loaders: createLoaders(services, { projects: viewer.projects }) };
}

/** Per app, per project scope (keys are few, and so are their distinct scopes). */
const liveLoaders = new WeakMap<Services, Map<string, Loaders>>();

/**
 * A subscription's context lives as long as the subscription: each event must read current rows,
 * not cached ones. Every subscriber of an event resolves it in the same tick, so the loaders for
 * events are shared by all subscriptions of the app and cache nothing: an event delivered to 5,000
 * subscribers reads its run once per batch instead of once per subscriber, and still as stored now.
 * Subscribers share loaders only with those of the same project scope.
 */
export function freshLoaders(ctx: Context): void {
  let byScope = liveLoaders.get(ctx.services);
  if (!byScope) liveLoaders.set(ctx.services, (byScope = new Map()));
  const projects = ctx.viewer.projects;
  let loaders = byScope.get(projects.key);
  if (!loaders) byScope.set(projects.key, (loaders = createLoaders(ctx.services, { cache: false, projects })));
  ctx.loaders = loaders;
}
