// Google One Tap on the sign-in views, in Chromium through a second gateway of the shared stack that names Google
// sign-in's client id (docs/product.md#auth-views): Google's sign-in client is answered by a small stand-in that
// records what the page asked of it. Nothing of Google's loads where Google sign-in is not configured, nor before
// the visitor accepts its category of the cookie banner, nor after they decline it; accepted, the sign-in, sign-up,
// magic-link and email-code views prompt with the configured client id, and no other view does; so too in Portuguese
// on a phone.
import { type TestPageOptions, useBrowserStack } from '@engram/testkit/browser';
import { startSecondGateway } from '@engram/testkit/stack';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sticksOut } from './support/layout.ts';
import { PHONE } from './support/screens.ts';
import { banner, cookie, preferences, visit as visitAs } from './support/visitor.ts';

const CLIENT_ID = '1234567890-engram-test.apps.googleusercontent.com';
const env = useBrowserStack();

/** A second gateway of the same stack, with Google sign-in's client id. */
let google: { url: string; stop(): Promise<unknown> };
beforeAll(async () => {
  google = await startSecondGateway(env.stack, { GOOGLE_CLIENT_ID: CLIENT_ID });
});
afterAll(() => google?.stop());

/** What Google's sign-in client does that matters here: it is initialized with a client id, then prompts. */
const GSI_STAND_IN = `
  window.__gsi = { clientIds: [], prompts: 0 };
  window.google = { accounts: { id: {
    initialize: function (config) { window.__gsi.clientIds.push(config.client_id); },
    prompt: function (listener) {
      window.__gsi.prompts += 1;
      if (listener) listener({
        isDisplayMoment: function () { return false; },
        isDisplayed: function () { return false; },
        isNotDisplayed: function () { return false; },
        isSkippedMoment: function () { return true; },
        isDismissedMoment: function () { return false; },
        getSkippedReason: function () { return 'user_cancel'; },
        getNotDisplayedReason: function () { return ''; },
        getDismissedReason: function () { return ''; },
        getMomentType: function () { return 'skipped'; },
      });
    },
    cancel: function () {},
    renderButton: function () {},
  } } };`;

/** A first visit whose requests to Google's sign-in client are answered by the stand-in, and counted. */
async function visit(name: string, options: TestPageOptions = {}) {
  const visitor = await visitAs(env.browser, name, options);
  const signInRequests: string[] = [];
  await visitor.page.route(/accounts\.google\.com/, (route) => {
    signInRequests.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: GSI_STAND_IN });
  });
  return { ...visitor, signInRequests };
}

const gsi = (page: Page) => page.evaluate<{ clientIds: string[]; prompts: number } | null>('window.__gsi ?? null');

/** Opens an auth view and waits for its form, so One Tap, if it is coming, has been asked for. */
async function openView(page: Page, url: string, view: string, field = 'Email') {
  await page.goto(`${url}/auth/${view}`);
  await page.getByLabel(field, { exact: false }).first().waitFor();
}

describe('Google One Tap', () => {
  it('never loads where Google sign-in is not configured, even with every cookie accepted', async () => {
    const { page, signInRequests } = await visit('one-tap-unconfigured');
    await page.goto(`${env.stack.url}/auth/sign-in`);
    await banner(page).getByRole('button', { name: 'Accept all' }).click();
    await banner(page).waitFor({ state: 'hidden' });
    await openView(page, env.stack.url, 'sign-in');
    expect(await gsi(page)).toBeNull();
    expect(signInRequests).toEqual([]);
    const csp = (await fetch(env.stack.url)).headers.get('content-security-policy') ?? '';
    expect(csp).not.toContain('accounts.google.com');
  });

  it('asks first: nothing of Google loads before the decision, nor after declining it', async () => {
    const { page, signInRequests } = await visit('one-tap-declined');
    await page.goto(`${google.url}/auth/sign-in`);
    await banner(page).waitFor();
    await banner(page).getByRole('button', { name: 'Choose' }).click();
    // Its own category, beside analytics.
    await preferences(page).getByRole('button', { name: 'Sign in with Google' }).waitFor();
    await preferences(page).getByRole('button', { name: 'Necessary only' }).click();
    await preferences(page).waitFor({ state: 'hidden' });
    await openView(page, google.url, 'sign-in');
    expect(await gsi(page)).toBeNull();
    expect(signInRequests).toEqual([]);
    const record = JSON.parse(decodeURIComponent((await cookie(page, 'cc_cookie'))?.value ?? '{}'));
    expect(record).toMatchObject({ categories: ['necessary'], revision: 2 });
  });

  it('accepted, prompts with the configured client on the sign-in, sign-up, magic-link and email-code views only', async () => {
    const { page, signInRequests } = await visit('one-tap-accepted');
    await page.goto(`${google.url}/auth/sign-in`);
    await banner(page).getByRole('button', { name: 'Accept all' }).click();
    await banner(page).waitFor({ state: 'hidden' });
    // The decision takes effect on the page it was made on.
    await expect.poll(async () => (await gsi(page))?.prompts ?? 0).toBeGreaterThan(0);
    expect((await gsi(page))?.clientIds).toEqual([CLIENT_ID]);

    for (const view of ['sign-in', 'sign-up', 'magic-link', 'email-otp']) {
      await openView(page, google.url, view);
      await expect.poll(async () => (await gsi(page))?.prompts ?? 0, { message: view }).toBeGreaterThan(0);
      expect((await gsi(page))?.clientIds, view).toEqual([CLIENT_ID]);
    }
    expect(new Set(signInRequests)).toEqual(new Set(['https://accounts.google.com/gsi/client']));

    await openView(page, google.url, 'forgot-password');
    expect(await gsi(page)).toBeNull();
    const csp = (await fetch(google.url)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' https://accounts.google.com/gsi/client");
    expect(csp).toContain('frame-src https://accounts.google.com/gsi/');
  });

  it('accepted in Portuguese on a phone, prompts there too, and the sign-in view fits the screen', async () => {
    const { page, signInRequests } = await visit('one-tap-pt-phone', { ...PHONE, locale: 'pt-BR' });
    await page.goto(`${google.url}/auth/sign-in`);
    const portuguese = page.getByRole('dialog', { name: 'Cookies no Engram' });
    await portuguese.getByRole('button', { name: 'Aceitar todos' }).click();
    await portuguese.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await gsi(page))?.prompts ?? 0).toBeGreaterThan(0);
    expect((await gsi(page))?.clientIds).toEqual([CLIENT_ID]);
    expect(new Set(signInRequests)).toEqual(new Set(['https://accounts.google.com/gsi/client']));
    await page.getByRole('button', { name: 'Entrar', exact: true }).waitFor();
    expect(await sticksOut(page)).toEqual([]);
  });
});
