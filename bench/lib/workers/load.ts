// Worker: the HTTP load generator (autocannon), in a process apart from the server under load.
import autocannon from 'autocannon';

import { serveWorker } from '../worker';

export interface LoadResult {
  requestsPerSecond: number;
  total: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

serveWorker({
  async run(p: { url: string; body: string; connections: number; seconds: number }): Promise<LoadResult> {
    const r = await autocannon({
      url: p.url,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: p.body,
      connections: p.connections,
      pipelining: 1,
      duration: p.seconds,
    });
    return {
      requestsPerSecond: r.requests.average,
      total: r.requests.total,
      latencyP50: r.latency.p50,
      latencyP99: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
    };
  },
});
