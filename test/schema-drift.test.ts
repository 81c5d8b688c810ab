// schema.graphql is the contract clients and codegen read: it must be exactly what the code prints.
// (Codegen output freshness is checked in CI by running codegen and `git diff --exit-code`.)
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { renderSchema, SCHEMA_PATH } from '../scripts/print-schema';

describe('schema.graphql', () => {
  it('equals the schema printed from the code', () => {
    let committed: string;
    try {
      committed = readFileSync(SCHEMA_PATH, 'utf8');
    } catch {
      throw new Error(`${SCHEMA_PATH} is missing: run npm run generate`);
    }
    const printed = renderSchema();
    if (committed !== printed) {
      const a = committed.split('\n');
      const b = printed.split('\n');
      const line = a.findIndex((text, i) => text !== b[i]);
      const at = line === -1 ? Math.min(a.length, b.length) : line;
      const hint = `first difference at line ${at + 1}:\n  schema.graphql: ${JSON.stringify(a[at])}\n  code prints:    ${JSON.stringify(b[at])}`;
      expect.fail(
        `schema.graphql is out of date with the code: run npm run generate (and commit the result).\n${hint}`,
      );
    }
    expect(printed.length).toBeGreaterThan(0);
  });
});
