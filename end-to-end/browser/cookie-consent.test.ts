// The cookie banner in Chromium through the real gateway (docs/product.md#cookie-consent-and-analytics): a first
// visit's banner before any analytics, declining, accepting (Google's tag only where a measurement id is
// configured, on a second gateway of the same stack), the consent record in cc_cookie, the choice remembered and
// reopened from the footer, the banner's language, and focus kept inside the preferences.
import { type TestPageOptions, useBrowserStack } from '@engram/testkit/browser';
import { startSecondGateway } from '@engram/testkit/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banner, consentCommands, cookie, preferences, visit as visitAs } from './support/visitor.ts';

const MEASUREMENT_ID = 'G-ENGRAMTEST1';
const env = useBrowserStack();
const visit = (name: string, options?: TestPageOptions) => visitAs(env.browser, name, options);

/** A second gateway of the same stack, configured with a GA4 measurement id. */
let analytics: { url: string; stop(): Promise<unknown> };
beforeAll(async () => {
  analytics = await startSecondGateway(env.stack, { GA_MEASUREMENT_ID: MEASUREMENT_ID });
});
afterAll(() => analytics?.stop());

const LANDING_HEADING = 'Turn what you learn into what you remember';

describe('the cookie banner', () => {
  it('greets a first visit, before any analytics cookie or request, with consent denied by default', async () => {
    const { page, googleRequests } = await visit('consent-first-visit');
    await page.goto(analytics.url);
    await banner(page).waitFor();
    await banner(page).getByRole('button', { name: 'Accept all' }).waitFor();
    await banner(page).getByRole('button', { name: 'Necessary only' }).waitFor();
    expect(await consentCommands(page)).toEqual([['default', 'denied']]);
    expect(await page.evaluate('window.dataLayer[0][2]')).toEqual({
      analytics_storage: 'denied',
      wait_for_update: 500,
    });
    expect(googleRequests).toEqual([]);
    expect(await cookie(page, '_ga')).toBeUndefined();
    expect(await cookie(page, 'cc_cookie')).toBeUndefined();
  });

  it('speaks the visitor’s language and follows a switch', async () => {
    const { page } = await visit('consent-language', { locale: 'pt-BR' });
    await page.goto(env.stack.url);
    const portuguese = page.getByRole('dialog', { name: 'Cookies no Engram' });
    await portuguese.getByRole('button', { name: 'Aceitar todos' }).waitFor();
    await page.getByRole('contentinfo').getByLabel('Idioma').selectOption('en');
    await banner(page).getByRole('button', { name: 'Accept all' }).waitFor();
  });

  it('declined, keeps analytics off and stores only the necessary category', async () => {
    const { page, googleRequests } = await visit('consent-decline');
    await page.goto(analytics.url);
    await banner(page).getByRole('button', { name: 'Necessary only' }).click();
    await banner(page).waitFor({ state: 'hidden' });
    expect(await consentCommands(page)).toEqual([
      ['default', 'denied'],
      ['update', 'denied'],
    ]);
    const stored = await cookie(page, 'cc_cookie');
    expect(JSON.parse(decodeURIComponent(stored?.value ?? '{}')).categories).toEqual(['necessary']);
    expect(googleRequests).toEqual([]);
    expect(await cookie(page, '_ga')).toBeUndefined();
  });

  it('accepted, grants analytics and loads the tag only where a measurement id is configured', async () => {
    const configured = await visit('consent-accept-configured');
    await configured.page.goto(analytics.url);
    await banner(configured.page).getByRole('button', { name: 'Accept all' }).click();
    await configured.page.waitForFunction(() => (globalThis as { __gtagLoaded?: boolean }).__gtagLoaded === true);
    expect(await consentCommands(configured.page)).toEqual([
      ['default', 'denied'],
      ['update', 'granted'],
    ]);
    expect(configured.googleRequests).toEqual([`https://www.googletagmanager.com/gtag/js?id=${MEASUREMENT_ID}`]);
    // Only a gateway with an id lets the page load Google's tag at all.
    const csp = async (url: string) => (await fetch(url)).headers.get('content-security-policy') ?? '';
    expect(await csp(analytics.url)).toContain("script-src 'self' https://www.googletagmanager.com");
    expect(await csp(env.stack.url)).toContain("script-src 'self';");
    expect(await cookie(configured.page, '_ga')).toBeDefined();

    const unconfigured = await visit('consent-accept-unconfigured');
    await unconfigured.page.goto(env.stack.url);
    await banner(unconfigured.page).getByRole('button', { name: 'Accept all' }).click();
    await banner(unconfigured.page).waitFor({ state: 'hidden' });
    expect(await consentCommands(unconfigured.page)).toEqual([
      ['default', 'denied'],
      ['update', 'granted'],
    ]);
    await unconfigured.page.reload();
    await unconfigured.page.getByRole('heading', { name: LANDING_HEADING }).waitFor();
    expect(unconfigured.googleRequests).toEqual([]);
  });

  it('keeps the consent record in cc_cookie for 182 days, SameSite Lax, not Secure over http', async () => {
    const { page } = await visit('consent-record');
    await page.goto(env.stack.url);
    await banner(page).getByRole('button', { name: 'Accept all' }).click();
    await banner(page).waitFor({ state: 'hidden' });
    const stored = await cookie(page, 'cc_cookie');
    if (!stored) throw new Error('no cc_cookie');
    expect(stored.sameSite).toBe('Lax');
    expect(stored.secure).toBe(false);
    const days = (stored.expires * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(181.9);
    expect(days).toBeLessThanOrEqual(182);
    const record = JSON.parse(decodeURIComponent(stored.value));
    expect(record).toMatchObject({
      categories: ['necessary', 'analytics'],
      services: { necessary: [], analytics: ['ga4'] },
      revision: 1,
      languageCode: 'en',
    });
    expect(record.consentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(record.consentTimestamp)).not.toBeNaN();
    expect(Math.abs(record.expirationTime - stored.expires * 1000)).toBeLessThan(1000);
  });

  it('remembers the choice across reloads, and reopened from the footer, a change clears Google’s cookies', async () => {
    const { page, googleRequests } = await visit('consent-remembered');
    await page.goto(analytics.url);
    await banner(page).getByRole('button', { name: 'Accept all' }).click();
    await page.waitForFunction(() => (globalThis as { __gtagLoaded?: boolean }).__gtagLoaded === true);
    await page.context().addCookies([
      { name: '_gid', value: 'GA1.1.99', url: analytics.url },
      { name: '_gat', value: '1', url: analytics.url },
    ]);

    await page.reload();
    await page.getByRole('heading', { name: LANDING_HEADING }).waitFor();
    await page.waitForFunction(() => (globalThis as { __gtagLoaded?: boolean }).__gtagLoaded === true);
    expect(await banner(page).isVisible()).toBe(false);
    expect(await consentCommands(page)).toEqual([
      ['default', 'denied'],
      ['update', 'granted'],
    ]);
    expect(googleRequests).toHaveLength(2);

    await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' }).click();
    await preferences(page).waitFor();
    const analyticsToggle = preferences(page).getByRole('checkbox', { name: 'Analytics', exact: true });
    expect(await analyticsToggle.isChecked()).toBe(true);
    await analyticsToggle.uncheck({ force: true });
    await preferences(page).getByRole('button', { name: 'Save my choice' }).click();
    await preferences(page).waitFor({ state: 'hidden' });

    expect((await consentCommands(page)).at(-1)).toEqual(['update', 'denied']);
    for (const name of ['_ga', '_gid', '_gat']) expect(await cookie(page, name), name).toBeUndefined();
    const stored = await cookie(page, 'cc_cookie');
    expect(JSON.parse(decodeURIComponent(stored?.value ?? '{}')).categories).toEqual(['necessary']);
  });

  it('keeps keyboard focus inside the preferences until they are closed', async () => {
    const { page } = await visit('consent-focus');
    await page.goto(env.stack.url);
    await banner(page).getByRole('button', { name: 'Choose' }).click();
    await preferences(page).waitFor();
    const focused = () => page.evaluate<string>('document.activeElement?.outerHTML.slice(0, 120) ?? ""');
    const inside = () => page.evaluate<boolean>('Boolean(document.activeElement?.closest("#cc-main .pm"))');
    // The preferences take focus as they open.
    await expect.poll(inside).toBe(true);
    for (let step = 0; step < 25; step++) {
      await page.keyboard.press(step % 5 === 4 ? 'Shift+Tab' : 'Tab');
      expect(await inside(), `after ${step + 1} presses: ${await focused()}`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await preferences(page).waitFor({ state: 'hidden' });
  });

  it('keeps keyboard focus inside a dialog when Shift+Tab is the first key pressed after it opens', async () => {
    const { page } = await visit('consent-focus-back');
    await page.goto(env.stack.url);
    const insideBanner = () => page.evaluate<boolean>('Boolean(document.activeElement?.closest("#cc-main .cm"))');
    await expect.poll(insideBanner).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await insideBanner()).toBe(true);
    // The dialog focuses itself as it opens, and again in its own handler of the fade-in's end (the event fires a
    // moment after the opacity reads 1): the page notes that event as it passes the document, before that handler.
    await page.evaluate(`document.addEventListener('transitionend', (event) => {
      if (event.propertyName === 'opacity' && event.target.closest('#cc-main .pm')) window.fadedIn = true;
    }, true)`);
    await banner(page).getByRole('button', { name: 'Choose' }).click();
    await preferences(page).waitFor();
    const insidePreferences = () => page.evaluate<boolean>('Boolean(document.activeElement?.closest("#cc-main .pm"))');
    await expect.poll(insidePreferences).toBe(true);
    // (Read through page.evaluate: the page's policy refuses the eval that waitForFunction polls a string with.)
    await expect.poll(() => page.evaluate<boolean>('window.fadedIn === true')).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await insidePreferences()).toBe(true);
    expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toBe('Save my choice');
  });
});
