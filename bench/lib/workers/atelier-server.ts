// Worker: one real Atelier server (createApp, as main.ts starts it) on a given SQLite file, in a
// process of its own so its CPU and resident memory are its own.
import { createApp, type App } from '../../../src/app';
import { makeConfig, parseDatabaseUrl, type LimitsConfig } from '../../../src/config';
import type { TopicName } from '../../../src/events/topics';
import { residentBytes } from '../machine';
import { serveWorker } from '../worker';

let app: App | null = null;

serveWorker({
  /** A SQLite file (databasePath) or any DATABASE_URL (databaseUrl). `limits` overrides defaults a scenario must set for itself (say, subscriptions per client address for a crowd). */
  async start(p: { databasePath?: string; databaseUrl?: string; limits?: Partial<LimitsConfig> }) {
    app = await createApp(
      makeConfig({
        port: 0,
        host: '127.0.0.1',
        logLevel: 'error',
        database: parseDatabaseUrl(p.databaseUrl ?? `sqlite:${p.databasePath}`),
        limits: p.limits,
      }),
    );
    return { url: await app.start(0), pid: process.pid };
  },
  listeners(p: { topic: TopicName }) {
    return app!.events.listenerCount(p.topic);
  },
  /** Collects garbage (when started with --expose-gc) and reports memory as the process sees it. */
  memory() {
    for (let i = 0; i < 3; i++) globalThis.gc?.();
    const m = process.memoryUsage();
    return {
      gc: typeof globalThis.gc === 'function',
      rss: residentBytes(),
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
    };
  },
  async close() {
    await app?.stop();
  },
});
