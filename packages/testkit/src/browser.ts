// A real Chromium for browser tests, driven by playwright-core (never a downloaded browser).
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, onTestFinished } from 'vitest';
import { launchBrowser } from './chromium.ts';
import { linkIn, nextMail } from './mailbox.ts';
import { sharedBrowser, sharedTestStack } from './shared-stack.ts';
import { startTestStack, type TestStack } from './stack.ts';

export { CHROMIUM_ARGS, launchBrowser } from './chromium.ts';

const ARTIFACTS = new URL('../../../.cache/test-artifacts', import.meta.url).pathname;
const PROBLEM_LEVELS = new Set(['warn', 'error', 'fatal']);

/**
 * The cookie banner's stored answer "necessary only" (web/src/lib/consent.ts; revision as in
 * web/src/lib/consent-settings.ts), for a profile that has answered it already.
 */
function answeredConsentCookie() {
  const now = new Date();
  const expires = new Date(now.getTime() + 182 * 86_400_000);
  const record = {
    categories: ['necessary'],
    revision: 1,
    data: null,
    consentTimestamp: now.toISOString(),
    lastConsentTimestamp: now.toISOString(),
    consentId: crypto.randomUUID(),
    services: { necessary: [], analytics: [] },
    languageCode: 'en',
    expirationTime: expires.getTime(),
  };
  return {
    name: 'cc_cookie',
    value: encodeURIComponent(JSON.stringify(record)),
    domain: 'localhost',
    path: '/',
    expires: Math.floor(expires.getTime() / 1000),
    sameSite: 'Lax' as const,
  };
}

/** The requests in flight of each page openTestPage opened. */
const inFlight = new WeakMap<Page, Set<Request>>();

function trackRequests(page: Page) {
  const pending = new Set<Request>();
  inFlight.set(page, pending);
  page.on('request', (request) => {
    // A stream held open for as long as the page lives (the tab's live events) never settles, by design.
    if (request.resourceType() !== 'eventsource') pending.add(request);
  });
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
}

/**
 * Resolves once `page` (opened by openTestPage) has loaded and had no request in flight for `quietMs`: its data
 * is in and no request is left to fail as the test moves on. Playwright's 'networkidle' asks for 500 ms of
 * quiet, which every visit of every browser test would spend waiting, and counts the tab's event stream, which
 * stays open. Fails after `timeoutMs` naming what is still in flight.
 */
export async function networkSettled(page: Page, { quietMs = 100, timeoutMs = 15_000 } = {}): Promise<void> {
  const pending = inFlight.get(page);
  if (!pending) return page.waitForLoadState('networkidle', { timeout: timeoutMs });
  await page.waitForLoadState('load', { timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  let quietSince = Date.now();
  while (pending.size > 0 || Date.now() - quietSince < quietMs) {
    if (Date.now() > deadline) {
      const urls = [...pending].map((request) => request.url());
      throw new Error(`the page's requests did not settle within ${timeoutMs} ms: ${urls.join(', ')}`);
    }
    if (pending.size > 0) quietSince = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Keeps the text of each toast as it appears (sonner's `[data-sonner-toast]`), in `window.__toastsShown`. */
const TOAST_RECORDER = `(() => {
  const shown = (window.__toastsShown = []);
  const seen = new WeakSet();
  new MutationObserver(() => {
    for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
      const text = toast.textContent.trim();
      if (text && !seen.has(toast)) {
        seen.add(toast);
        shown.push(text);
      }
    }
  }).observe(document, { subtree: true, childList: true });
})()`;

export interface TestPageOptions extends BrowserContextOptions {
  /**
   * The profile has answered the cookie banner already (the default), so the banner, which sits over a corner
   * of every page until answered, stays away; false shows it as on a real first visit.
   */
  cookieBannerAnswered?: boolean;
  /**
   * The app's service worker precaches the whole app in every new profile: blocked (the default) unless the test
   * is about it ('allow').
   */
  serviceWorkers?: 'allow' | 'block';
}

/**
 * A page in a fresh browser profile (its own storage and cookies) for the current test: if the test
 * fails, a full-page screenshot is kept as .cache/test-artifacts/<name>.png and the page's errors, the answers
 * of 400 and over it got (with when) and every toast it showed are printed; then the profile closes.
 */
export async function openTestPage(browser: Browser, name: string, options: TestPageOptions = {}): Promise<Page> {
  const { cookieBannerAnswered = true, serviceWorkers = 'block', ...contextOptions } = options;
  const context = await browser.newContext({ ...contextOptions, serviceWorkers });
  if (cookieBannerAnswered) await context.addCookies([answeredConsentCookie()]);
  const page = await context.newPage();
  trackRequests(page);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  // What the server refused, with when: a failure's screenshot is taken when the test gives up, long after.
  page.on('response', (response) => {
    if (response.status() >= 400) {
      const { pathname } = new URL(response.url());
      problems.push(
        `${new Date().toISOString().slice(11, 23)} ${response.status()} ${response.request().method()} ${pathname}`,
      );
    }
  });
  // Every toast the page showed, since a toast is gone by the time a waiting test fails.
  await page.addInitScript(TOAST_RECORDER);
  onTestFinished(async ({ task }) => {
    if (task.result?.state === 'fail') {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });
      const toasts = await page.evaluate<string[]>('window.__toastsShown ?? []').catch(() => []);
      const seen = [...problems, ...toasts.map((text) => `toast: ${text.replace(/\s+/g, ' ')}`)];
      if (seen.length > 0) console.error(`What the page "${name}" showed and logged:\n${seen.join('\n')}`);
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
 * The whole stack and a Chromium for the file's tests: with the default settings, its worker's shared ones
 * (shared-stack.ts), of which the file closes only the browser profiles it opened; with `options.extraEnv`
 * (which configures every component), a stack and a Chromium of its own, started before the file's tests (in
 * parallel) and stopped after them. Read the fields inside tests and hooks: they are set once `beforeAll` has run.
 */
export function useBrowserStack(options: { extraEnv?: Record<string, string> } = {}): BrowserStack {
  let stack: TestStack | undefined;
  let browser: Browser | undefined;
  const shared = options.extraEnv === undefined;
  beforeAll(async () => {
    if (shared) {
      [stack, browser] = await Promise.all([sharedTestStack(), sharedBrowser()]);
      return;
    }
    // Both start at once; when one fails, the other is not left running after the file (a stack of six processes).
    const [started, launched] = await Promise.allSettled([startTestStack(options), launchBrowser()]);
    if (started.status === 'rejected' || launched.status === 'rejected') {
      if (started.status === 'fulfilled') await started.value.stop();
      if (launched.status === 'fulfilled') await launched.value.close();
      throw started.status === 'rejected' ? started.reason : (launched as PromiseRejectedResult).reason;
    }
    [stack, browser] = [started.value, launched.value];
  });
  // A failed test's run is gone once CI ends; what the stack warned about while it ran is printed with it.
  let logsBefore = 0;
  beforeEach(() => {
    logsBefore = stack?.logs.length ?? 0;
  });
  afterEach(({ task }) => {
    if (task.result?.state !== 'fail' || !stack) return;
    const problems = stack.logs.slice(logsBefore).filter(({ entry }) => PROBLEM_LEVELS.has(String(entry?.level)));
    if (problems.length === 0) return;
    const lines = problems.map(({ component, line }) => `[${component}] ${line}`);
    console.error(`What the stack warned about during "${task.name}":\n${lines.join('\n')}`);
  });
  afterAll(async () => {
    if (shared) {
      // What this file opened goes; the browser and the stack stay for the worker's next file.
      await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
      return;
    }
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
