// Start-up: read the configuration, open the database (running migrations), start the server,
// and shut down cleanly on SIGINT/SIGTERM.
import { createApp } from './app';
import { loadConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  let url: string;
  try {
    url = await app.start();
  } catch (err) {
    await app.stop();
    throw err;
  }
  const graphiql = config.http.graphiql ? `GraphiQL at ${url}/graphql` : `GraphQL at ${url}/graphql (GraphiQL off)`;
  console.log(`Atelier is up: ${graphiql}, health at ${url}/health, readiness at ${url}/ready`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    await app.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
