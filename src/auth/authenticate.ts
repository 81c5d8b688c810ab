// The one authentication seam both transports call: HTTP and SSE with the request's Authorization
// header, graphql-ws with its connectionParams. A presented key is always checked, even when keys
// are not required; without one, the viewer is open or anonymous depending on the policy.
import type { ApiKeysService } from './api-keys.service';
import type { Viewer } from './viewer';

export interface Credentials {
  /** The Authorization header (HTTP and SSE). */
  authorization?: string | null;
  /** graphql-ws connectionParams: { Authorization: 'Bearer <key>' } or { apiKey: '<key>' }. */
  connectionParams?: Readonly<Record<string, unknown>> | null;
  /** The client's address, for rate limits when no key is used. */
  address?: string | null;
}

export type Authenticate = (credentials: Credentials) => Promise<Viewer>;

/** The key presented, '' when the credentials are there but malformed, or null when there are none. */
export function presentedKey(credentials: Credentials): string | null {
  const params = credentials.connectionParams;
  let header = credentials.authorization ?? null;
  if (params && typeof params === 'object') {
    const fromParams = params.Authorization ?? params.authorization ?? null;
    if (typeof params.apiKey === 'string') return params.apiKey.trim();
    if (fromParams != null) header = typeof fromParams === 'string' ? fromParams : '';
  }
  if (header == null || header.trim() === '') return null;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : '';
}

export function createAuthenticator(keys: ApiKeysService, keysRequired: () => Promise<boolean>): Authenticate {
  return async (credentials) => {
    const address = credentials.address ?? 'unknown';
    const token = presentedKey(credentials);
    if (token === '') return { kind: 'anonymous', address, problem: 'credentials must be "Authorization: Bearer <API key>"' };
    if (token != null) {
      const result = await keys.verify(token);
      return result.ok ? { kind: 'key', key: result.key, address } : { kind: 'anonymous', address, problem: result.problem };
    }
    if (await keysRequired()) return { kind: 'anonymous', address, problem: 'an API key is required: send "Authorization: Bearer <API key>"' };
    return { kind: 'open', address };
  };
}
