// The one authentication seam both transports call: HTTP and SSE with the request's Authorization
// header, graphql-ws with its connectionParams or, when the connection carried none, the subscribe
// message's `extensions.headers` (where GraphiQL puts its Headers tab). A presented key is always
// checked, even when keys are not required; without one, the viewer is open or anonymous depending
// on the policy.
import type { ApiKeysService } from './api-keys.service';
import { anonymousViewer, keyViewer, openViewer, type Viewer } from './viewer';

export interface Credentials {
  /** The Authorization header (HTTP and SSE). */
  authorization?: string | null;
  /** graphql-ws connectionParams: { Authorization: 'Bearer <key>' } or { apiKey: '<key>' }. */
  connectionParams?: Readonly<Record<string, unknown>> | null;
  /**
   * graphql-ws: the subscribe message's `extensions.headers`, as GraphiQL sends its Headers tab
   * (a browser cannot set headers on a WebSocket). Consulted per operation, only when the
   * connection itself carried no credentials.
   */
  operationHeaders?: unknown;
  /** The client's address, for rate limits when no key is used. */
  address?: string | null;
}

export type Authenticate = (credentials: Credentials) => Promise<Viewer>;

/** The key in an Authorization value: '' when malformed, null when absent or blank. */
function bearerKey(header: string | null): string | null {
  if (header == null || header.trim() === '') return null;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : '';
}

/** The Authorization entry of a headers object, by any letter case ('' when it is not a string). */
function authorizationIn(headers: unknown): string | null {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return null;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'authorization') return typeof value === 'string' ? value : '';
  }
  return null;
}

/** The key presented, '' when the credentials are there but malformed, or null when there are none. */
export function presentedKey(credentials: Credentials): string | null {
  const params = credentials.connectionParams;
  let header = credentials.authorization ?? null;
  if (params && typeof params === 'object') {
    const fromParams = params.Authorization ?? params.authorization ?? null;
    if (typeof params.apiKey === 'string') return params.apiKey.trim();
    if (fromParams != null) header = typeof fromParams === 'string' ? fromParams : '';
  }
  const key = bearerKey(header);
  // Credentials of the request or connection win; the operation's own headers only fill their absence.
  return key !== null ? key : bearerKey(authorizationIn(credentials.operationHeaders));
}

export function createAuthenticator(keys: ApiKeysService, keysRequired: () => Promise<boolean>): Authenticate {
  return async (credentials) => {
    const address = credentials.address ?? 'unknown';
    const token = presentedKey(credentials);
    if (token === '') return anonymousViewer(address, 'credentials must be "Authorization: Bearer <API key>"');
    if (token != null) {
      const result = await keys.verify(token);
      return result.ok ? keyViewer(result.key, address) : anonymousViewer(address, result.problem);
    }
    if (await keysRequired())
      return anonymousViewer(address, 'an API key is required: send "Authorization: Bearer <API key>"');
    return openViewer(address);
  };
}
