// Manage Atelier's API keys from a shell: `npm run keys -- create --name ci --scope write`,
// `npm run keys -- list`, `npm run keys -- revoke <id|name>`. See src/auth/keys-cli.ts.
import { runKeysCli } from '../src/auth/keys-cli';

runKeysCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
