// One stack and one Chromium for every end-to-end file a test worker runs with the default settings (the
// end-to-end tier of vitest.config.ts shares its worker's process between files). Starting Engram (a database,
// every migration, six processes, then Chromium) for each file cost seconds a file, and a gap in which the
// worker did nothing else; files tell their data apart by fresh users and organizations, as they always have. A
// file that kills processes or changes settings starts a stack of its own (startTestStack), and says why.
//
// The shared stack outlives every file: vitest ends the worker with SIGTERM (then SIGKILL half a second later),
// so its processes are killed at once when the worker goes, and its database is dropped with the run's
// (global-setup.ts drops every database of the run).
import type { Browser } from 'playwright-core';
import { launchBrowser } from './chromium.ts';
import { startTestStack, type TestStack } from './stack.ts';

/**
 * The support address the shared stack's gateway shows (SUPPORT_EMAIL), as a real installation configures
 * one: the files that check where it appears read it from here.
 */
export const SHARED_SUPPORT_EMAIL = 'help@engram.test';

let stack: Promise<TestStack> | undefined;
let browser: Promise<Browser> | undefined;
let running: TestStack | undefined;

/** Kills the shared stack's processes now (the worker is ending: there is no time to stop them in turn). */
function killShared() {
  for (const pid of Object.values(running?.pids() ?? {})) {
    try {
      if (pid !== undefined) process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

let watching = false;
function killWithWorker() {
  if (watching) return;
  watching = true;
  process.once('exit', killShared);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      killShared();
      process.exit(1);
    });
  }
}

/**
 * The worker's stack with the default settings, started by the first file that asks. Its `stop()` does
 * nothing: the files after this one use it too.
 */
export function sharedTestStack(): Promise<TestStack> {
  stack ??= startTestStack({
    extraEnv: {
      SUPPORT_EMAIL: SHARED_SUPPORT_EMAIL,
      // Every learner of every file comes from this machine's one address, so that address's count measures how
      // fast the machine runs the suite, not one client: on a quick run the files of a worker made more than the
      // default 1,200 calls a minute and were refused (429). The per-address limits are tested by the files that
      // set their own (rate-limits, call-rate-limits, media-guards); the per-user ones stay as they are.
      TRPC_RATE_LIMIT_PER_ADDRESS: '1000000',
      MEDIA_RATE_LIMIT_PER_ADDRESS: '1000000',
    },
  }).then(
    (started) => {
      running = started;
      killWithWorker();
      return { ...started, stop: async () => {} };
    },
    (error: unknown) => {
      // The next file tries again rather than failing on this start's error.
      stack = undefined;
      throw error;
    },
  );
  return stack;
}

/** The worker's Chromium, not to be closed by a file (Playwright ends it with the worker). */
export function sharedBrowser(): Promise<Browser> {
  browser ??= launchBrowser().catch((error: unknown) => {
    browser = undefined;
    throw error;
  });
  return browser;
}
