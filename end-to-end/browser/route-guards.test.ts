// The route guards of docs/product.md#routes in a real Chromium through the real gateway: who may see the
// protected pages, the auth views, /suspended and "/", where everyone else is sent, and that one user's
// cached data never shows to the next.
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fillSignIn, newUser, signUpAndOnboard } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { banKeepingSessions, userIdOf } from './support/database.ts';

const env = useBrowserStack();

const openPage = (name: string) => openTestPage(env.browser, name, { bypassCSP: true, locale: 'en-US' });

const signInUrl = (redirectTo?: string) =>
  `${env.stack.url}/auth/sign-in${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ''}`;

/** The pathname and search the page is at. */
const at = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

describe('a visitor without a session', () => {
  it('is sent to sign-in from every protected page, with the page (path and search) to come back to', async () => {
    const page = await openPage('guard-visitor');
    // A tag id list as the app writes it (a malformed one would be corrected before the guard sees it).
    const tags = encodeURIComponent(JSON.stringify(['0b6c3f4e-1d2a-4c5b-8e7f-9a0b1c2d3e4f']));
    for (const path of [
      '/dashboard',
      '/practice/new',
      `/practice/session?tags=${tags}`,
      '/settings',
      '/account/security',
    ]) {
      await page.goto(`${env.stack.url}${path}`);
      await page.waitForURL(signInUrl(path));
    }
    await page.goto(`${env.stack.url}/suspended`);
    await page.waitForURL(signInUrl());
  });

  it('sees an unknown auth view as sign-in, keeping the query string', async () => {
    const page = await openPage('guard-auth-views');
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${env.stack.url}/auth/no-such-view?redirectTo=%2Fsettings`);
    await page.waitForURL(signInUrl('/settings'));
    expect(errors).toContain('Unknown auth path "/auth/no-such-view", redirecting to sign-in');
  });
});

describe('a signed-in user', () => {
  it('is sent from "/" and every auth view but sign-out to the dashboard', async () => {
    const page = await openPage('guard-signed-in');
    await signUpAndOnboard(page, env.stack.url, newUser('home'));
    // Two-factor too, once it is on (auth-screens.test.ts: until then, it is where it is switched on).
    const views = ['sign-in', 'sign-up', 'forgot-password', 'reset-password?token=x', 'callback', 'magic-link'];
    const more = ['email-otp', 'recover-account'];
    for (const path of ['/', ...[...views, ...more].map((view) => `/auth/${view}`)]) {
      await page.goto(`${env.stack.url}${path}`);
      await page.waitForURL(`${env.stack.url}/dashboard`);
    }
    // An invitation's link: the dashboard, with that invitation first.
    await page.goto(`${env.stack.url}/auth/accept-invitation?invitationId=x`);
    await page.waitForURL(`${env.stack.url}/dashboard?invitation=x`);
    // Not banned: /suspended has nothing for them, and sends them home ("/", then the dashboard).
    await page.goto(`${env.stack.url}/suspended`);
    await page.waitForURL(`${env.stack.url}/dashboard`);

    await page.goto(`${env.stack.url}/auth/sign-out`);
    await page.waitForURL(signInUrl());
  });

  it('never sees the cached data of the user before them', async () => {
    const page = await openPage('guard-cache');
    await signUpAndOnboard(page, env.stack.url, newUser('first'));
    const cards = page.getByRole('list', { name: 'Your cards' });
    const newCard = page.getByRole('region', { name: 'New card' });
    await newCard.getByRole('textbox', { name: 'Front' }).fill('A card of the first user');
    await newCard.getByRole('textbox', { name: 'Back' }).fill('Private');
    await newCard.getByRole('button', { name: 'Add card' }).click();
    await cards.getByText('A card of the first user').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(signInUrl());
    const second = newUser('second');
    await signUpAndOnboard(page, env.stack.url, second);
    await page.getByText('No cards yet').waitFor();
    expect(await page.getByText('A card of the first user').count()).toBe(0);
  });
});

describe('a banned user', () => {
  it('sees only /suspended, in either language, and can sign out from there', async () => {
    const page = await openPage('guard-banned');
    const user = newUser('banned');
    await signUpAndOnboard(page, env.stack.url, user);
    await banKeepingSessions(env.stack, await userIdOf(env.stack, user.email));

    for (const path of ['/dashboard', '/practice/new', '/account/settings']) {
      await page.goto(`${env.stack.url}${path}`);
      await page.waitForURL(`${env.stack.url}/suspended`);
    }
    await page.getByRole('heading', { name: 'Your account is suspended' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Language').selectOption('pt-BR');
    await page.getByRole('heading', { name: 'Sua conta está suspensa' }).waitFor();
    await page.getByRole('link', { name: 'Sair' }).click();
    await page.waitForURL(/\/auth\/sign-in$/);

    // Signing in again is refused with the catalogue's message.
    await page.getByLabel('Idioma').selectOption('en');
    await fillSignIn(page, user.email, user.password);
    await page.getByText('You have been banned from this application').waitFor();
    expect(at(page)).toBe('/auth/sign-in');
  });
});
