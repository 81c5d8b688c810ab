// Who is asking, as every resolver and plugin sees it, and which projects it may reach
// (`projects`, the ProjectScope every door checks: src/domain/project-scope.ts).
import { ProjectScope } from '../domain/project-scope';
import type { ApiKey } from './api-keys.service';
import type { Scope } from './scopes';

export type Viewer =
  /** Keys are not required (loopback with no key ever made, or AUTH=open) and none was presented. */
  | { kind: 'open'; address: string; projects: ProjectScope }
  /** A valid key. */
  | { kind: 'key'; key: ApiKey; address: string; projects: ProjectScope }
  /** Keys are required and none valid was presented, or a presented key is not valid. */
  | { kind: 'anonymous'; problem: string; address: string; projects: ProjectScope };

export const openViewer = (address: string): Viewer => ({ kind: 'open', address, projects: ProjectScope.ALL });

export const keyViewer = (key: ApiKey, address: string): Viewer => ({
  kind: 'key',
  key,
  address,
  projects: ProjectScope.of(key.projects),
});

export const anonymousViewer = (address: string, problem: string): Viewer => ({
  kind: 'anonymous',
  address,
  problem,
  projects: ProjectScope.NONE,
});

/** What the viewer may do: null when it may do nothing. */
export function viewerScope(viewer: Viewer): Scope | null {
  if (viewer.kind === 'open') return 'admin';
  if (viewer.kind === 'key') return viewer.key.scope;
  return null;
}

/** What rate limits count against: the key, or the client's address when no key is used. */
export function rateLimitSubject(viewer: Viewer): string {
  return viewer.kind === 'key' ? `key:${viewer.key.keyId}` : `address:${viewer.address}`;
}
