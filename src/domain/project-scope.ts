// Which projects a caller may see and touch: the one check behind every door (docs/SECURITY.md,
// "Keys scoped to projects"). An API key made with `projects` reaches those projects' runs only; a
// key without, or open access, reaches every project. The viewer carries its scope
// (`viewer.projects`, src/auth/viewer.ts), and every door asks it the same questions:
//
//   - a read of one thing (a run, or anything of a run: trajectories, metrics, a node):
//     `scope.visible(run)` → the run or null, `scope.assertVisible(run, id)` → the run or
//     NotFoundError. Another project's run looks exactly like a run that does not exist, so
//     existence never leaks. (The request's loaders already apply it: ctx.loaders.runById and
//     trajectoryById answer null outside the scope, and services.runs.get(id, ctx.loaders.runById)
//     answers NotFound.)
//   - a list: `scope.projectNames` (null: no restriction) goes into the SQL filter (RunFilter.projectNames,
//     the replay of status events), and live events pass `scope.allows(event.projectName)`.
//   - a write into an existing run: the WriteGuard's `projects` (runs/write-guard.ts: `{ projects }`,
//     or `trackingGuard(projects)` for the tracking API), checked on the locked row in the write's own
//     transaction → NotFoundError.
//   - a write that names a project (a new run, an import): `scope.assertMayUse(name, field)` →
//     ValidationError naming the field, rule `project_scope`.
//
// A door added later (an import endpoint, an export route, datasets, evaluations) takes the viewer's
// scope and calls the same methods; nothing else decides. test/auth.test.ts fails on a new root field
// until a scoped key is sent through it.
import { NotFoundError, ValidationError } from '../errors';

export class ProjectScope {
  /** Every project: keys made without projects, and open access. */
  static readonly ALL = new ProjectScope(null);
  /** No project: a caller that is not authenticated (it can run nothing anyway). */
  static readonly NONE = new ProjectScope([]);

  private readonly names: ReadonlySet<string> | null;

  private constructor(projects: readonly string[] | null) {
    this.names = projects === null ? null : new Set(projects);
  }

  /** The scope of a key's stored projects: null (or absent) is every project. */
  static of(projects: readonly string[] | null | undefined): ProjectScope {
    return projects == null ? ProjectScope.ALL : new ProjectScope(projects);
  }

  /** The projects allowed, sorted; null when every project is. */
  get projectNames(): string[] | null {
    return this.names === null ? null : [...this.names].sort();
  }

  get unrestricted(): boolean {
    return this.names === null;
  }

  /** Identifies the scope (caches of per-scope loaders are keyed by it). */
  get key(): string {
    return this.names === null ? '*' : JSON.stringify(this.projectNames);
  }

  /** The one check: may the caller reach this project? */
  allows(projectName: string): boolean {
    return this.names === null || this.names.has(projectName);
  }

  /** Whether every project this scope allows, `other` allows too (a scoped admin makes keys only within its own). */
  within(other: ProjectScope): boolean {
    if (other.names === null) return true;
    if (this.names === null) return false;
    for (const name of this.names) if (!other.names.has(name)) return false;
    return true;
  }

  /** The thing when its project is allowed, else null: outside the scope reads like absent. */
  visible<T extends { projectName: string }>(thing: T | null | undefined): T | null {
    return thing != null && this.allows(thing.projectName) ? thing : null;
  }

  /** The thing, or the NotFoundError an unknown one gets (never a Forbidden that would confirm it exists). */
  assertVisible<T extends { projectName: string }>(thing: T | null | undefined, entity: string, id: string): T {
    const seen = this.visible(thing);
    if (!seen) throw new NotFoundError(entity, id);
    return seen;
  }

  /** A write naming a project (a new run) must stay inside the scope: ValidationError on `field` otherwise. */
  assertMayUse(projectName: string, field: string): void {
    if (this.allows(projectName)) return;
    throw ValidationError.of(
      field,
      'project_scope',
      `must be one of the projects this key may use: ${this.describe()}`,
    );
  }

  /** For messages: the allowed projects, quoted. */
  describe(): string {
    return this.names === null ? 'every project' : this.projectNames!.map((n) => JSON.stringify(n)).join(', ');
  }
}
