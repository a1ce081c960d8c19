// One vitest run for the whole workspace. Workspace packages resolve to their TypeScript sources
// through the "@engram/source" export condition, so tests never need a prior build.
//
// Three projects:
// - units: files that start no stack share their worker's process with the files before them, which saves
//   starting Node and loading the test runtime once per file (about a second each).
// - end-to-end: files that use the worker's shared stack and Chromium (useBrowserStack() with the default
//   settings, sharedTestStack(): testkit/src/shared-stack.ts) share their worker's process too, and with it one
//   stack, started once per worker instead of once per file.
// - stacks: a file that starts a stack of its own (it kills processes or changes a service's settings), or the
//   proof, runs in a fresh process of its own, as a separate machine would.
// Which is which is read from the files themselves, so a new test file lands in the right one without a list to
// keep.
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
/** What a test file calls to use its worker's shared stack and Chromium. */
export const SHARES_A_STACK = /\b(?:useBrowserStack|sharedTestStack)\(/;
const testFiles = globSync(include, { exclude: skipped }).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
export const sharedStackFiles = testFiles.filter(({ text }) => SHARES_A_STACK.test(text)).map(({ path }) => path);
export const stackFiles = testFiles
  .filter(({ path, text }) => STARTS_A_STACK.test(text) && !sharedStackFiles.includes(path))
  .map(({ path }) => path);

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
      {
        extends: true,
        test: { name: 'units', include, exclude: [...exclude, ...stackFiles, ...sharedStackFiles], isolate: false },
      },
      { extends: true, test: { name: 'end-to-end', include: sharedStackFiles, exclude, isolate: false } },
      { extends: true, test: { name: 'stacks', include: stackFiles, exclude } },
    ],
  },
});
