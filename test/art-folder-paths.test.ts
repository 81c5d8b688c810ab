// `atelier import PATH` takes what the README says it takes: an .art folder, one project folder
// (<project>/models/…) or one model folder, each giving the same run with the same rows; and the
// server named by --url as well as by ATELIER_URL.
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { artRunUuid } from '../src/art-folders/art-folders.service';
import { cli, FIXTURES, snapshot } from './helpers/art-folders';
import { startServer, type TestServer } from './helpers/server';

const ART = join(FIXTURES, 'art-0.5/.art');
const UUID = artRunUuid('support', 'agent-005');

describe('atelier import PATH', () => {
  const servers: TestServer[] = [];
  beforeAll(async () => {
    servers.push(...(await Promise.all([startServer(), startServer(), startServer()])));
  });
  afterAll(async () => Promise.all(servers.map((s) => s.stop())));

  it('an .art folder, a project folder and a model folder give the same run with the same rows; --url names the server', async () => {
    const [viaArt, viaProject, viaModel] = servers;
    const paths = [ART, join(ART, 'support'), join(ART, 'support/models/agent-005')];
    const results = [
      await cli(['import', paths[0]], { ATELIER_URL: viaArt.url }),
      // --url wins over ATELIER_URL (which points nowhere here)
      await cli(['import', paths[1], '--url', viaProject.url], { ATELIER_URL: 'http://127.0.0.1:9' }),
      await cli(['import', paths[2], '--url', viaModel.url]),
    ];
    for (const r of results) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`run ${UUID} (new)`);
    }
    const rows = await snapshot(viaArt.app, UUID);
    expect(rows.trajectories).toHaveLength(33);
    expect(await snapshot(viaProject.app, UUID)).toEqual(rows);
    expect(await snapshot(viaModel.app, UUID)).toEqual(rows);
  });
});
