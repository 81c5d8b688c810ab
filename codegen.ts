// GraphQL Code Generator: typed documents from schema.graphql for the tests and for tooling that
// talks to Atelier. Regenerate with `npm run generate`; CI fails when the output is stale.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['test/**/*.ts', '!test/gql/**'],
  ignoreNoDocuments: true,
  generates: {
    'test/gql/': {
      preset: 'client',
      config: {
        scalars: { DateTime: 'string', JSON: 'unknown' },
        enumsAsTypes: true,
        useTypeImports: true,
      },
      presetConfig: { fragmentMasking: false },
    },
    // Apollo Client's InMemoryCache({ possibleTypes }): which types implement each interface and union.
    'test/gql/possible-types.ts': { plugins: ['fragment-matcher'] },
  },
};

export default config;
