// Cutting a browser profile off the network and giving it back. Playwright's setOffline does not reach a service
// worker's own fetches, so those are aborted by a route as well (which needs
// PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS=1 when the browser starts: microsoft/playwright#2311); going back
// online fires no event in the page, so it is dispatched.
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Set before the browser launches (a test file's top level), so a service worker's requests can be routed. */
export function seeServiceWorkerRequests(): void {
  process.env.PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS = '1';
}

export async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await context.route('**', (route) =>
    route.request().serviceWorker() ? route.abort('internetdisconnected') : route.fallback(),
  );
}

export async function goOnline(page: Page): Promise<void> {
  await page.context().unrouteAll();
  await page.context().setOffline(false);
  await page.evaluate("window.dispatchEvent(new Event('online'))");
}

/**
 * Waits until the app's service worker is active and controls `page`: the first one a browser installs takes over the
 * page that installed it, with no reload.
 */
export async function underServiceWorker(page: Page): Promise<void> {
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  // (Polled through page.evaluate: the app's policy refuses the eval that waitForFunction polls a string with.)
  await expect.poll(() => page.evaluate('navigator.serviceWorker.controller !== null')).toBe(true);
}
