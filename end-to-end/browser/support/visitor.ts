// A visitor's browser profile for the shell's tests: a first visit (the cookie banner not yet answered), with
// Google's tag answered by a small stand-in that, like gtag.js, sets _ga only once storage is granted; and the
// banner, the preferences and the consent commands the page gave gtag, as the tests read them.
import { openTestPage, type TestPageOptions } from '@engram/testkit/browser';
import type { Browser, Page } from 'playwright-core';

/** What gtag.js does with consent that matters here: _ga is written only while analytics storage is granted. */
const GTAG_STAND_IN = `
  (function () {
    window.__gtagLoaded = true;
    function granted() {
      var state = 'denied';
      for (var i = 0; i < window.dataLayer.length; i++) {
        var entry = window.dataLayer[i];
        if (entry && entry[0] === 'consent' && entry[2] && entry[2].analytics_storage) state = entry[2].analytics_storage;
      }
      return state === 'granted';
    }
    if (granted()) document.cookie = '_ga=GA1.1.1234.5678; path=/; max-age=3600';
  })();`;

export interface Visit {
  page: Page;
  /** Every request the page sent to Google's hosts. */
  googleRequests: string[];
}

export async function visit(browser: Browser, name: string, options: TestPageOptions = {}): Promise<Visit> {
  const page = await openTestPage(browser, name, { locale: 'en-US', cookieBannerAnswered: false, ...options });
  const googleRequests: string[] = [];
  await page.route(/googletagmanager\.com|google-analytics\.com/, (route) => {
    googleRequests.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: GTAG_STAND_IN });
  });
  return { page, googleRequests };
}

export const banner = (page: Page) => page.getByRole('dialog', { name: 'Cookies on Engram' });

/** Answers the banner (necessary only), for tests about something else: it sits over the page's corner. */
export async function dismissBanner(page: Page): Promise<void> {
  await banner(page).getByRole('button', { name: 'Necessary only' }).click();
  await banner(page).waitFor({ state: 'hidden' });
}

export const preferences = (page: Page) => page.getByRole('dialog', { name: 'Cookie settings' });

export async function cookie(page: Page, name: string) {
  return (await page.context().cookies()).find((c) => c.name === name);
}

/** The consent commands the page gave gtag, in order: ['default' | 'update', analytics_storage]. */
export const consentCommands = (page: Page) =>
  page.evaluate<string[][]>(`(window.dataLayer ?? [])
    .filter((entry) => entry[0] === 'consent')
    .map((entry) => [entry[1], entry[2].analytics_storage])`);
