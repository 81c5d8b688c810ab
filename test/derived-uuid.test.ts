// The uuids Atelier derives for ART folders and ART trajectories are stored: a later Atelier must
// derive the same ones, or re-importing a folder (or retrying a log) would add its rows a second
// time. These values were made by the first implementation (SHA-256 through createHash, RFC 9562
// version 8); the function must keep giving them.
import { describe, expect, it } from 'vitest';

import { artRunUuid } from '../src/art-folders/art-folders.service';
import { derivedUuid } from '../src/trajectories/art-rows';

describe('derived uuids', () => {
  it('stay the ones stored by earlier versions', () => {
    expect(artRunUuid('support', 'agent-005')).toBe('2c0fea9f-1c4e-8062-8742-4e1e51164892');
    expect(derivedUuid('atelier-art-trajectory', '2c0fea9f-1c4e-8062-8742-4e1e51164892', 'train', 3, 1, 2)).toBe(
      '5e3ee2ac-7189-80fa-b34a-efd81cd2dbb1',
    );
    expect(derivedUuid('atelier-art-trajectory', 'r', 'vål', 0, 0, 0)).toBe('ac2da3fa-bc6e-88fb-aa55-300ac44218a9');
  });

  it('are RFC 9562 version 8, variant 10', () => {
    for (let i = 0; i < 64; i++)
      expect(derivedUuid('x', i)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
