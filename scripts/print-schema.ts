// Prints the code-first schema, sorted, to schema.graphql. With --check, fails instead of writing
// when the file differs from the code (CI and a test use this to catch drift).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { printSchema } from 'graphql';

import { getSortedSchema } from '../src/graphql/index';

export const SCHEMA_PATH = fileURLToPath(new URL('../schema.graphql', import.meta.url));

export function renderSchema(): string {
  return `${printSchema(getSortedSchema())}\n`;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const text = renderSchema();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(SCHEMA_PATH, 'utf8');
    } catch {}
    if (current !== text) {
      console.error('schema.graphql is out of date: run `npm run generate` and commit the result.');
      process.exit(1);
    }
    console.log('schema.graphql is up to date');
  } else {
    writeFileSync(SCHEMA_PATH, text);
    console.log(`wrote ${SCHEMA_PATH}`);
  }
}
