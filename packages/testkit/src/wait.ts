// Waiting for a condition in a test: polled, and bounded, so a broken expectation fails with what was
// awaited, and with what the services under test said last, instead of hanging the run.
import { lastServiceLines } from './service-lines.ts';

/** Polls until `check` returns true; fails after `timeoutMs` naming `what` and what the services said last. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      const said = lastServiceLines();
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}${said ? `\n${said}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * How long a test waits for a background job to end (an import, an export, an optimization). The job runs in a
 * child process at a lower priority than the calls learners wait for (services/cards/src/jobs/sandboxed-job.ts),
 * so on a busy machine it waits its turn for the CPU: beside three CPU burners and the suite, a 3-note Anki
 * package was still being imported after 30 s. A job that ends returns the wait at once; only a hung one
 * reaches this, which stays under the test's own limit so that the failure names what was awaited.
 */
export const BACKGROUND_JOB_WAIT_MS = 240_000;
