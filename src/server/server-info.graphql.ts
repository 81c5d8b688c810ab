// Query.server: this server's version and whether it is a simulation, so every client (the
// dashboard first) can label simulated data.
import { readFileSync } from 'node:fs';

import { builder } from '../graphql/builder';

let version: string | undefined;
function packageVersion(): string {
  try {
    // Two levels below the repository root both here (src/server/) and in the bundle (dist/server/).
    version ??= String(
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version ?? 'unknown',
    );
  } catch {
    version = 'unknown';
  }
  return version;
}

const ServerInfoRef = builder.objectRef<{ simulated: boolean }>('ServerInfo').implement({
  description: 'This Atelier server.',
  fields: (t) => ({
    simulated: t.exposeBoolean('simulated', {
      description:
        'True when the model provider and the ART backend are simulators (`npm run demo`, ATELIER_SIMULATED=1): nothing here is real training.',
    }),
    version: t.string({ description: "Atelier's version.", resolve: () => packageVersion() }),
  }),
});

builder.queryFields((t) => ({
  server: t.field({
    type: ServerInfoRef,
    description: 'This server: its version, and whether its runs are simulated.',
    resolve: (_root, _args, ctx) => ({ simulated: ctx.services.config.simulated }),
  }),
}));
