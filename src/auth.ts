// Who is asking: the one authentication seam both transports call (HTTP/SSE with the request's
// headers, graphql-ws with its connectionParams). Atelier runs open for now; API keys plug in here.
import type { Viewer } from './context';

export interface Credentials {
  /** The Authorization header (HTTP and SSE). */
  authorization?: string | null;
  /** graphql-ws connectionParams. */
  connectionParams?: Readonly<Record<string, unknown>> | null;
}

export type Authenticate = (credentials: Credentials) => Promise<Viewer>;

export const openAccess: Authenticate = async () => ({ kind: 'anonymous' });
