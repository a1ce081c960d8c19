// One vitest run for the whole workspace. Workspace packages resolve to their TypeScript sources
// through the "@engram/source" export condition, so tests never need a prior build.
import { defineConfig } from 'vitest/config';

const conditions = ['@engram/source', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  // Node itself gets only these: with 'import' in the list, require('pg-pool') would load its ESM build.
  ssr: { resolve: { conditions: ['@engram/source', 'node'], externalConditions: ['@engram/source'] } },
  test: {
    include: ['**/test/**/*.test.ts', '**/src/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', '.cache/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    globalSetup: ['packages/testkit/src/global-setup.ts'],
  },
});
