// One vitest run for the whole workspace. Workspace packages resolve to their TypeScript sources
// through the "@engram/source" export condition, so tests never need a prior build.
//
// Tests come in tiers named for what they start, and a file's folder says its tier (README.md, "Tests in tiers"):
// - unit: pure logic, in the test's own process (`<package>/test/unit/`);
// - service: one service or library against the real PostgreSQL, NATS and Redis (`<package>/test/service/`);
// - end-to-end: the whole stack, through the gateway's HTTP API or in Chromium (`end-to-end/`);
// - delivery: what ships, the container image's steps, the Helm chart and the local runner (`deploy/`, `helm/`).
// `npm test` runs every tier in one run and prints each one's time (TierTimes below); `--project <tier>` runs one.
import { defineConfig } from 'vitest/config';
import { LongestTiersFirst } from './packages/testkit/src/tier-order.ts';
import { TierTimes } from './packages/testkit/src/tier-times.ts';

const conditions = ['@engram/source', 'node', 'import', 'default'];
const exclude = ['**/node_modules/**', '**/dist/**', '.cache/**'];

/** Where each tier's files live. */
export const TIERS = {
  unit: ['**/test/unit/**/*.test.ts'],
  service: ['**/test/service/**/*.test.ts'],
  'end-to-end': ['end-to-end/**/*.test.ts'],
  delivery: ['deploy/**/test/**/*.test.ts', 'helm/test/**/*.test.ts'],
} as const;

/**
 * Unit files that measure their own process's memory: files that ran before them in a shared process would
 * distort what they read (a heap grown by others collects later), so each gets a process of its own.
 */
export const MEASURES_OWN_MEMORY = [
  'packages/anki/test/unit/from-engram.test.ts',
  'packages/anki/test/unit/write-package.test.ts',
  'packages/kit/test/unit/storage-streaming.test.ts',
];

/**
 * How long a service or end-to-end test may run before it counts as hung: their steps each wait for their own
 * condition (a background job's end waits up to testkit's BACKGROUND_JOB_WAIT_MS), so this only stops a hang.
 */
const HUNG_TEST_MS = 300_000;

export default defineConfig({
  resolve: { conditions },
  // Node itself gets only these: with 'import' in the list, require('pg-pool') would load its ESM build.
  ssr: { resolve: { conditions: ['@engram/source', 'node'], externalConditions: ['@engram/source'] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // expect.poll waits for a condition; its default of one second is shorter than a page may take to render on
    // a CI machine running a dozen files at once (a card's pictures did, under load), and a device that readies a
    // learner's cards and pictures for offline practice after a reload took more than 15 s with three CPU burners
    // beside the suite. A poll that passes returns at once, so only a failing one waits this long; the tests give
    // no shorter time of their own.
    expect: { poll: { timeout: 30_000 } },
    globalSetup: ['packages/testkit/src/global-setup.ts'],
    // Two workers for two cores, measured: the suite with one took 2,770 s of a CI run, with two 1,344 s
    // (bench: `pnpm exec vitest run --maxWorkers=N`); an end-to-end file leaves about a third of the machine idle
    // (it waits on Chromium and the network), which the other worker fills. vitest's default is one fewer than
    // the cores: one worker, every file in turn.
    maxWorkers: 2,
    sequence: { sequencer: LongestTiersFirst },
    // The JSON report is what .ci/run's closing line (scripts/test-summary.mjs) is read from.
    reporters: ['default', 'json', new TierTimes()],
    outputFile: { json: '.cache/test-results.json' },
    projects: [
      // Unit and service files share their worker's process with the files before them, which saves starting
      // Node and loading the test runtime once per file (about a second each).
      {
        extends: true,
        test: { name: 'unit', include: [...TIERS.unit], exclude: [...exclude, ...MEASURES_OWN_MEMORY], isolate: false },
      },
      { extends: true, test: { name: 'unit:own-process', include: MEASURES_OWN_MEMORY, exclude } },
      {
        extends: true,
        test: { name: 'service', include: [...TIERS.service], exclude, isolate: false, testTimeout: HUNG_TEST_MS },
      },
      // End-to-end files share their worker's process too, and with it one stack and one Chromium for every file
      // that uses the default settings (testkit/src/shared-stack.ts); a file that kills processes or changes
      // settings starts a stack of its own, and stops it after its tests.
      // A scenario there is tens of steps, each waiting for its own condition (a poll, a Playwright action), so
      // the test's own limit is only there to stop a hang: one limit for all, long enough that a slow machine is
      // not a failure (a 40-step scenario of shared decks took 62 s beside three CPU burners, past the 60 s that
      // was the limit then).
      {
        extends: true,
        test: {
          name: 'end-to-end',
          include: [...TIERS['end-to-end']],
          exclude,
          isolate: false,
          testTimeout: HUNG_TEST_MS,
        },
      },
      // The delivery files run in a fresh process each, as a separate machine would.
      { extends: true, test: { name: 'delivery', include: [...TIERS.delivery], exclude } },
    ],
  },
});
