// The direction of dependencies in src/ (README, "Source map"): a folder imports only folders below
// it, never one above. The shared top-level modules (errors, config, logger, and the request context
// every resolver receives) may be imported from anywhere; the composition root (main, app, services)
// imports everything and nothing imports it but the server wiring.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

import { describe, expect, it } from 'vitest';

/** Lowest first. A folder may import folders earlier in this list (and itself). */
const LAYERS = [
  'domain',
  'db',
  'art-format',
  'events',
  'providers',
  'backends',
  'rollouts',
  'graphql',
  'datasets',
  'runs',
  'trajectories',
  'metrics',
  'checkpoints',
  'evaluations',
  'art-folders',
  'auth',
  'security',
  'pipeline',
  'server',
  'cli',
];
const SHARED = new Set(['errors', 'config', 'logger', 'context']);
const ROOT = new Set(['main', 'app', 'services']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The folder (or top-level module, as "module:name") a path under src/ belongs to. */
function home(path: string): string {
  const parts = relative('src', path).split(sep);
  // An import of a folder itself (its index.ts) belongs to that folder.
  const folder = parts.length > 1 || (existsSync(path) && statSync(path).isDirectory());
  return folder ? parts[0] : `module:${parts[0].replace(/\.ts$/, '')}`;
}

function imports(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)].map((m) =>
    normalize(join(dirname(path), m[1])),
  );
}

describe('source layout', () => {
  it('imports only downwards: no folder imports one above it', () => {
    const upward: string[] = [];
    for (const file of files('src')) {
      const from = home(file);
      for (const target of imports(file)) {
        const to = home(target);
        if (to === from || (to.startsWith('module:') && SHARED.has(to.slice(7)))) continue;
        if (from.startsWith('module:')) continue; // main, app, services, context: the wiring
        if (to.startsWith('module:') && ROOT.has(to.slice(7)) && from === 'server') continue;
        const a = LAYERS.indexOf(from);
        const b = LAYERS.indexOf(to);
        if (a < 0 || b < 0 || b > a) upward.push(`${relative('src', file)} → ${relative('src', target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps runs/ free of pipeline/, security/ and auth/', () => {
    const offending = files('src/runs').flatMap((f) =>
      imports(f)
        .filter((t) => /^src\/(pipeline|security|auth)\//.test(t))
        .map((t) => `${f} → ${t}`),
    );
    expect(offending).toEqual([]);
  });
});
