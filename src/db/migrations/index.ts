import { InitialSchema1796040000000 } from './0001-initial-schema';
import { ApiKeys1796060000000 } from './1796060000000-api-keys';

/** Every migration, oldest first. */
export const migrations = [InitialSchema1796040000000, ApiKeys1796060000000];
