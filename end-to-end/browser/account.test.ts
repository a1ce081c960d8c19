// The account views (better-auth-ui's settings and security) in a real Chromium through the real gateway:
// avatar, name, username and email; password, sessions and deleting the account, and the fresh session a
// sensitive action needs.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { linkIn, nextMail } from '@engram/testkit/mailbox';
import { waitUntil } from '@engram/testkit/wait';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { fillSignIn, newUser, signInFromPhone, signUpAndOnboard, type TestUser } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { ageSessions, cardCountOf, userIdOf } from './support/database.ts';
import { pngSizeOf, solidPng } from './support/png.ts';

/**
 * Gravatar's avatar endpoint, which identity asks for the signed-in user's picture: a red square for anyone
 * but the hashes in `faceless` (404, as Gravatar answers `d=404` for an address it does not know).
 */
const gravatarAsked: string[] = [];
const faceless = new Set<string>();
const gravatar = createServer((req, res) => {
  gravatarAsked.push(req.url ?? '');
  const hash = /\/avatar\/(\w+)/.exec(req.url ?? '')?.[1] ?? '';
  if (faceless.has(hash)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(96, 96, [200, 30, 30]));
});
await new Promise<void>((resolve) => gravatar.listen(0, '127.0.0.1', resolve));
afterAll(() => gravatar.close());

// A stack of its own: identity fetches avatars from this file's Gravatar stand-in.
const env = useBrowserStack({
  extraEnv: { GRAVATAR_URL: `http://127.0.0.1:${(gravatar.address() as AddressInfo).port}/avatar` },
});

const openPage = (name: string) => openTestPage(env.browser, name, { bypassCSP: true, locale: 'en-US' });

/** A new user, onboarded, on their account settings. */
async function onSettings(page: Page, label: string): Promise<TestUser> {
  const user = newUser(label);
  await signUpAndOnboard(page, env.stack.url, user);
  await page.getByRole('link', { name: /Account settings/ }).click();
  await page.waitForURL(`${env.stack.url}/account/settings`);
  return user;
}

/** The signed-in user as the app's session endpoint returns it. */
const sessionUser = (page: Page) =>
  page.evaluate(async () => {
    const response = await fetch('/api/auth/get-session');
    return ((await response.json()) as { user: { name: string; email: string; image: string | null } }).user;
  });

/** A second browser of `user`'s, signed in with their password and on the dashboard. */
async function signedInElsewhere(name: string, user: TestUser): Promise<Page> {
  const other = await openPage(name);
  await other.goto(`${env.stack.url}/auth/sign-in`);
  await fillSignIn(other, user.email, user.password);
  await other.waitForURL(`${env.stack.url}/dashboard`);
  return other;
}

/** The settings card titled `title`. */
const card = (page: Page, title: string) =>
  page.locator('[data-slot="card"]').filter({ has: page.getByText(title, { exact: true }) });

describe('account settings', () => {
  it('shows the initials of a learner without a Gravatar, and nothing fails in the console', async () => {
    const page = await openPage('account-initials');
    const user = newUser('faceless');
    faceless.add(createHash('sha256').update(user.email).digest('hex'));
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    const pictureAnswered = page.waitForResponse((response) => response.url().includes('/api/auth/gravatar'));
    await signUpAndOnboard(page, env.stack.url, user);
    await page.getByRole('link', { name: /Account settings/ }).click();
    await page.waitForURL(`${env.stack.url}/account/settings`);
    expect((await pictureAnswered).status()).toBe(204);

    const avatar = card(page, 'Avatar');
    await avatar.locator('[data-slot="avatar-fallback"]').waitFor();
    expect(await avatar.locator('img').count()).toBe(0);
    expect(gravatarAsked.some((asked) => asked.includes(createHash('sha256').update(user.email).digest('hex')))).toBe(
      true,
    );
    expect(problems).toEqual([]);
  });

  it('shows the Gravatar, through Engram, until an avatar is uploaded, which is cropped square and resized', async () => {
    const page = await openPage('account-avatar');
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(env.stack.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    const user = await onSettings(page, 'avatar');
    expect(await accessibilityViolations(page)).toEqual([]);

    const hash = createHash('sha256').update(user.email).digest('hex');
    const avatar = card(page, 'Avatar').locator('img');
    await expect.poll(() => avatar.getAttribute('src')).toBe('/api/auth/gravatar?size=96');
    expect(gravatarAsked).toContain(`/avatar/${hash}?s=96&d=404`);
    // The browser asked Engram alone: Gravatar never learnt who looked at the page.
    expect(elsewhere).toEqual([]);

    // A wide picture: the middle square is kept, at the library's 128 pixels.
    const chooser = page.waitForEvent('filechooser');
    await card(page, 'Avatar').getByRole('button').first().click();
    await page.getByRole('menuitem', { name: 'Upload avatar' }).click();
    await (await chooser).setFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: solidPng(300, 200, [20, 90, 200]),
    });
    await expect.poll(async () => (await sessionUser(page)).image?.slice(0, 22)).toBe('data:image/png;base64,');
    const image = (await sessionUser(page)).image ?? '';
    expect(pngSizeOf(image)).toEqual({ type: 'data:image/png;base64', width: 128, height: 128 });
    await expect.poll(() => avatar.getAttribute('src')).toBe(image);
  });

  it('changes the name and the username, and refuses an unchanged email', async () => {
    const page = await openPage('account-profile');
    const user = await onSettings(page, 'profile');

    const name = card(page, 'Name');
    await name.getByRole('textbox').fill('Ada Renamed');
    await name.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Name updated successfully').waitFor();
    await page.getByTestId('current-user').getByText('Ada Renamed').waitFor();

    const username = card(page, 'Username');
    await username.getByRole('textbox').fill(`${user.username}_2`);
    await username.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Username updated successfully').waitFor();

    const email = card(page, 'Email');
    await email.getByRole('textbox').fill(user.email);
    await email.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Email is the same.').waitFor();

    // The new username signs in.
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/auth\/sign-in$/);
    await fillSignIn(page, `${user.username}_2`, user.password);
    await page.waitForURL(`${env.stack.url}/dashboard`);
  });

  it('changes the email once the old address confirms it and the new one is verified', async () => {
    const page = await openPage('account-email');
    const user = await onSettings(page, 'mover');
    const moved = `moved-${user.email}`;
    const email = card(page, 'Email');
    await email.getByRole('textbox').fill(moved);
    await email.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Please check your email to verify the change.').waitFor();

    const confirmation = await nextMail(env.stack.url, user.email, /^Confirm your new email/);
    await page.goto(linkIn(confirmation));
    await page.waitForURL(`${env.stack.url}/account/settings`);
    expect((await sessionUser(page)).email).toBe(user.email);

    const verification = await nextMail(env.stack.url, moved, /^Verify your email/);
    await page.goto(linkIn(verification));
    await page.waitForURL(`${env.stack.url}/account/settings`);
    await expect.poll(async () => (await sessionUser(page)).email).toBe(moved);
    await page.getByTestId('current-user').getByText(moved).waitFor();
  });
});

describe('account security', () => {
  it('changes the password', async () => {
    const page = await openPage('security-password');
    const user = await onSettings(page, 'secret');
    await page.getByRole('link', { name: 'Security' }).click();
    await page.waitForURL(`${env.stack.url}/account/security`);
    expect(await accessibilityViolations(page)).toEqual([]);

    const password = card(page, 'Change password');
    await password.getByLabel('Current password').fill(user.password);
    await password.getByLabel('New password').fill('another good secret');
    await password.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your password has been changed.').waitFor();

    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/auth\/sign-in$/);
    await fillSignIn(page, user.email, 'another good secret');
    await page.waitForURL(`${env.stack.url}/dashboard`);
  });

  it('revokes another session, whose browser is signed out on its next request', async () => {
    const page = await openPage('security-sessions');
    const user = await onSettings(page, 'traveller');
    const other = await signedInElsewhere('security-sessions-other', user);

    await page.goto(`${env.stack.url}/account/security`);
    const sessions = card(page, 'Sessions');
    await sessions.getByText('Current session').waitFor();
    await expect.poll(() => sessions.getByRole('button', { name: 'Revoke' }).count()).toBe(1);
    await sessions.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => sessions.getByRole('button', { name: 'Revoke' }).count()).toBe(0);

    await other.reload();
    await other.waitForURL(/\/auth\/sign-in\?redirectTo=%2Fdashboard$/);
    // This browser stays signed in.
    await page.reload();
    await sessions.getByText('Current session').waitFor();
  });

  it('names each device with when and where from it signed in, and signs out everywhere else at once', async () => {
    const page = await openPage('security-everywhere');
    const user = await onSettings(page, 'wanderer');
    const other = await signedInElsewhere('security-everywhere-other', user);
    // A third session, from a phone.
    const phoneSession = await signInFromPhone(env.stack.url, user);

    await page.goto(`${env.stack.url}/account/security`);
    const sessions = card(page, 'Sessions');
    await sessions.getByText('Safari on iPhone', { exact: true }).waitFor();
    expect(await sessions.getByText('Chrome on Linux', { exact: true }).count()).toBe(2);
    await sessions.getByText('Current session', { exact: true }).waitFor();
    expect(await sessions.getByText(/^Signed in .+ · last active .+ · from \S+$/).count()).toBe(3);
    expect(await accessibilityViolations(page)).toEqual([]);

    await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByText('Every other device is signed out.').waitFor();
    await sessions.getByText('Safari on iPhone', { exact: true }).waitFor({ state: 'detached' });
    expect(await sessions.getByText('Chrome on Linux', { exact: true }).count()).toBe(1);
    expect(await sessions.getByRole('button', { name: 'Sign out everywhere else' }).count()).toBe(0);
    expect(await phoneSession()).toBeNull();
    await other.reload();
    await other.waitForURL(/\/auth\/sign-in\?redirectTo=%2Fdashboard$/);
    await page.reload();
    await sessions.getByText('Current session', { exact: true }).waitFor();
  });

  it('deletes the account with the password, and the user’s cards with it', async () => {
    const page = await openPage('security-delete');
    const user = newUser('leaver');
    await signUpAndOnboard(page, env.stack.url, user);
    const newCard = page.getByRole('region', { name: 'New card' });
    await newCard.getByRole('textbox', { name: 'Front' }).fill('A card that leaves with its owner');
    await newCard.getByRole('textbox', { name: 'Back' }).fill('Gone');
    await newCard.getByRole('button', { name: 'Add card' }).click();
    await page.getByRole('list', { name: 'Your cards' }).getByText('A card that leaves with its owner').waitFor();
    const userId = await userIdOf(env.stack, user.email);
    expect(await cardCountOf(env.stack, userId)).toBe(1);

    await page.goto(`${env.stack.url}/account/security`);
    await card(page, 'Delete account').getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Please confirm that your account should be deleted. This cannot be undone.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page.getByText('Your account has been deleted.').waitFor();
    await page.waitForURL(/\/auth\/sign-in$/);

    await waitUntil('the deleted user’s cards are gone', async () => (await cardCountOf(env.stack, userId)) === 0);
    await fillSignIn(page, user.email, user.password);
    await page.getByText('Invalid email or password').waitFor();
  });

  it('asks a session older than a day to sign in again before a sensitive action', async () => {
    const page = await openPage('security-stale');
    const user = await onSettings(page, 'stale');
    await ageSessions(env.stack, await userIdOf(env.stack, user.email), 2 * 86_400);

    // Listing sessions needs a fresh session: the list is refused with the product's words.
    await page.goto(`${env.stack.url}/account/security`);
    await page.getByText('Your session is not fresh. Please sign in again.').first().waitFor();

    // Deleting the account says so too, and offers to sign in again.
    await card(page, 'Delete account').getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('dialog').getByText('Your session is not fresh. Please sign in again.').waitFor();
  });
});
