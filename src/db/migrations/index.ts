import { InitialSchema1796040000000 } from './1796040000000-initial-schema';
import { Pipeline1796045000000 } from './1796045000000-pipeline';
import { SeedDerivedColumns1796050000000 } from './1796050000000-seed-derived-columns';
import { Leases1796055000000 } from './1796055000000-leases';
import { ApiKeys1796060000000 } from './1796060000000-api-keys';
import { ArtRecords1796065000000 } from './1796065000000-art-records';
import { ArtImports1796070000000 } from './1796070000000-art-imports';

/** Every migration, oldest first. */
export const migrations = [
  InitialSchema1796040000000,
  Pipeline1796045000000,
  SeedDerivedColumns1796050000000,
  Leases1796055000000,
  ApiKeys1796060000000,
  ArtRecords1796065000000,
  ArtImports1796070000000,
];
