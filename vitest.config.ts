// One vitest run for the whole workspace. Workspace packages resolve to their TypeScript sources
// through the "@engram/source" export condition, so tests never need a prior build.
//
// Two projects: a file that starts a whole stack (or the proof) runs in a fresh process of its own, as a
// separate machine would; every other file shares its worker's process with the files before it, which saves
// starting Node and loading the test runtime once per file (about a second each, 147 files). Which is which is
// read from the files themselves, so a new test file lands in the right one without a list to keep.
import { globSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const conditions = ['@engram/source', 'node', 'import', 'default'];
const include = ['**/test/**/*.test.ts', '**/src/**/*.test.ts'];
const exclude = ['**/node_modules/**', '**/dist/**', '.cache/**'];

/**
 * What a test file calls to start every process of Engram (testkit's stack and browser helpers, the proof), or to
 * measure its own process's memory (which other files sharing the process would distort): such files get a
 * process of their own.
 */
export const STARTS_A_STACK =
  /\b(?:(?:useBrowserStack|startTestStack|runProof)\(|process\.(?:memoryUsage|resourceUsage)\b)/;
/** Folders the search never walks into (what `exclude` below leaves out). */
const skipped = (path: string) => /(^|\/)(node_modules|dist|\.cache)(\/|$)/.test(path);
export const stackFiles = globSync(include, { exclude: skipped }).filter((path) =>
  STARTS_A_STACK.test(readFileSync(path, 'utf8')),
);

export default defineConfig({
  resolve: { conditions },
  // Node itself gets only these: with 'import' in the list, require('pg-pool') would load its ESM build.
  ssr: { resolve: { conditions: ['@engram/source', 'node'], externalConditions: ['@engram/source'] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // expect.poll waits for a condition; its default of one second is shorter than a page may take to render on
    // a CI machine running a dozen files at once (a card's pictures did, under load). A poll that passes returns
    // at once, so only a failing one waits this long.
    expect: { poll: { timeout: 10_000 } },
    globalSetup: ['packages/testkit/src/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'units', include, exclude: [...exclude, ...stackFiles], isolate: false } },
      { extends: true, test: { name: 'stacks', include: stackFiles, exclude } },
    ],
  },
});
