import { InitialSchema1796040000000 } from './1796040000000-initial-schema';
import { Pipeline1796045000000 } from './1796045000000-pipeline';
import { SeedDerivedColumns1796050000000 } from './1796050000000-seed-derived-columns';
import { Leases1796055000000 } from './1796055000000-leases';
import { ApiKeys1796060000000 } from './1796060000000-api-keys';
import { ApiKeyActiveNames1796062000000 } from './1796062000000-api-key-active-names';
import { KeyProjects1796063000000 } from './1796063000000-key-projects';
import { ArtRecords1796065000000 } from './1796065000000-art-records';
import { Datasets1796070000000 } from './1796070000000-datasets';
import { ArtImports1796072000000 } from './1796072000000-art-imports';
import { RunIdentity1796075000000 } from './1796075000000-run-identity';
import { RunActivity1796080000000 } from './1796080000000-run-activity';
import { Evaluations1796085000000 } from './1796085000000-evaluations';
import { TrajectoriesRunId1796090000000 } from './1796090000000-trajectories-run-id';
import { RunSearchIndex1796094000000 } from './1796094000000-run-search-index';

/** Every migration, oldest first. */
export const migrations = [
  InitialSchema1796040000000,
  Pipeline1796045000000,
  SeedDerivedColumns1796050000000,
  Leases1796055000000,
  ApiKeys1796060000000,
  ApiKeyActiveNames1796062000000,
  KeyProjects1796063000000,
  ArtRecords1796065000000,
  Datasets1796070000000,
  ArtImports1796072000000,
  RunIdentity1796075000000,
  RunActivity1796080000000,
  Evaluations1796085000000,
  TrajectoriesRunId1796090000000,
  RunSearchIndex1796094000000,
];
