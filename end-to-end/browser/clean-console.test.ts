// Every screen, as a learner who has not answered the cookie banner goes through them at 1280x800: no error
// in the console, no request that fails (status 400 or more: no screen makes one it expects to fail), and
// nothing asked of another origin (no consent has been given, so no third party may hear of the visit).
// phone-layout.test.ts watches the same on its screens at 390x844 and 1280x800 in both languages.
// Public pages, the auth views, onboarding, the dashboard (with a card holding maths), practice, generate,
// settings, every account view, billing, every organization view and the admin area.
import { networkSettled, openTestPage, useBrowserStack } from '@engram/testkit/browser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newUser, signUp } from './support/auth.ts';
import { watchProblems } from './support/console.ts';
import { makeAdmin, userIdOf } from './support/database.ts';
import { dismissBanner } from './support/visitor.ts';

const env = useBrowserStack();

/** Opens a screen and waits until it has shown and stopped loading. */
async function show(page: Page, path: string) {
  await page.goto(`${env.stack.url}${path}`);
  await page.locator('#main, main').first().waitFor();
  await networkSettled(page);
}

const PUBLIC = ['/', '/help', '/terms', '/privacy'];
const AUTH = ['/auth/sign-in', '/auth/sign-up', '/auth/forgot-password', '/auth/magic-link', '/auth/email-otp'];
const SIGNED_IN = [
  '/dashboard',
  '/practice/new',
  '/generate',
  '/import',
  '/settings',
  '/account/settings',
  '/account/security',
  '/account/api-keys',
  '/account/organizations',
  '/billing/plans',
  '/billing/cancel',
];
const ORGANIZATION_VIEWS = ['', '/settings', '/members', '/teams', '/api-keys', '/learning'];

describe('a clean console on every screen', () => {
  it('shows no console error, no failed request and no request to another origin before consent, at 1280x800', async () => {
    const page = await openTestPage(env.browser, 'clean-console', {
      locale: 'en-US',
      cookieBannerAnswered: false,
      viewport: { width: 1280, height: 800 },
    });
    const problems = watchProblems(page, env.stack.url);
    for (const path of [...PUBLIC, ...AUTH]) await show(page, path);
    // The banner, unanswered until now, covers a corner of the forms below: "Necessary only" still lets no
    // third party in, so the rest of the visit is watched the same way.
    await dismissBanner(page);

    // Sign-up, the address verified, onboarding.
    const user = newUser('clea');
    await signUp(page, env.stack.url, user);
    await networkSettled(page);
    await page.getByRole('button', { name: 'Start learning' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);

    // A card with maths, so the screens that render it load KaTeX's fonts.
    const form = page.getByRole('region', { name: 'New card' });
    await form.getByRole('textbox', { name: 'Front' }).fill('Energy of a mass at rest: $E = mc^2$');
    await form.getByRole('textbox', { name: 'Back' }).fill('$\\sqrt{x^2}$ is $|x|$');
    await form.getByRole('button', { name: 'Add card' }).click();
    await page.getByRole('list', { name: 'Your cards' }).locator('.katex').first().waitFor();

    for (const path of SIGNED_IN) await show(page, path);
    // The auth views a signed-in learner may open (two-factor's, where switching it on ends).
    await show(page, '/auth/two-factor');
    // Practice: the card's question, then its answer.
    await page.goto(`${env.stack.url}/practice/new`);
    await page.getByText('Due now: 1').waitFor();
    await page.getByRole('link', { name: 'Start' }).click();
    await page.waitForURL(/\/practice\/session/);
    await page.getByRole('region', { name: 'Question' }).locator('.katex').first().waitFor();
    await page.keyboard.press('Space');
    await page.getByRole('region', { name: 'Answer' }).waitFor();
    await networkSettled(page);

    // An organization of theirs, and each of its views.
    const slug = `clean-${Date.now().toString(36)}`;
    const created = await page.request.post(`${env.stack.url}/api/auth/organization/create`, {
      data: { name: 'Clean Club', slug },
      headers: { origin: env.stack.url },
    });
    expect(created.status()).toBe(200);
    for (const view of ORGANIZATION_VIEWS) await show(page, `/organization/${slug}${view}`);

    // The admin area, for an admin.
    await makeAdmin(env.stack, await userIdOf(env.stack, user.email));
    await show(page, '/admin');
    await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();

    expect(problems).toEqual([]);
  });
});
