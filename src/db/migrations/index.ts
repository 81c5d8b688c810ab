import { InitialSchema1796040000000 } from './0001-initial-schema';

/** Every migration, oldest first. */
export const migrations = [InitialSchema1796040000000];
