// A real Chromium for browser tests, driven by playwright-core (never a downloaded browser).
import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { linkIn, nextMail } from './mailbox.ts';
import { startTestStack, type TestStack } from './stack.ts';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

const ARTIFACTS = new URL('../../../.cache/test-artifacts', import.meta.url).pathname;

/**
 * A page in a fresh browser profile (its own storage and cookies) for the current test: if the test
 * fails, a full-page screenshot is kept as .cache/test-artifacts/<name>.png; then the profile closes.
 */
export async function openTestPage(browser: Browser, name: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  onTestFinished(async ({ task }) => {
    if (task.result?.state === 'fail') {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });
    }
    await context.close();
  });
  return page;
}

export interface BrowserStack {
  /** The whole stack, started once for the test file. */
  readonly stack: TestStack;
  /** One Chromium for the test file; each test opens its own profile with openTestPage. */
  readonly browser: Browser;
}

/**
 * Starts the whole stack and a Chromium before the file's tests (in parallel) and stops both after them.
 * Read the fields inside tests and hooks: they are set once `beforeAll` has run.
 */
export function useBrowserStack(): BrowserStack {
  let stack: TestStack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startTestStack(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The ${what} is not started yet: read it inside a test or hook`);
    return value;
  };
  return {
    get stack() {
      return started(stack, 'stack');
    },
    get browser() {
      return started(browser, 'browser');
    },
  };
}

/**
 * Opens in `page` the verification link mailed to `email` (read from the dev mailbox), as the user does
 * from their inbox after signing up: it verifies the address and signs them in.
 */
export async function followVerificationMail(page: Page, gatewayUrl: string, email: string): Promise<void> {
  const mail = await nextMail(gatewayUrl, email, /^Verify your email/);
  await page.goto(linkIn(mail));
}
