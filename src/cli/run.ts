// Entry of the `atelier` command (bin/atelier.mjs loads it through tsx): Ctrl-C cancels cleanly.
import { main } from './main';

const controller = new AbortController();
process.once('SIGINT', () => controller.abort(new Error('interrupted')));
process.once('SIGTERM', () => controller.abort(new Error('terminated')));
main(process.argv.slice(2), process.env, controller.signal).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (controller.signal.aborted) process.exit(130);
    console.error(`atelier: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
