// Waiting for a condition in a test: polled, and bounded, so a broken expectation fails with what was
// awaited instead of hanging the run.

/** Polls until `check` returns true; fails after `timeoutMs` naming `what`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
