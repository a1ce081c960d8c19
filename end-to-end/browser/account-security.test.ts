// The account layer of issue 9 in a real Chromium through the real gateway: two-factor with an
// authenticator app (a computed TOTP code), a passkey (Chromium's virtual authenticator), an API key used
// against /api/trpc, its scopes changed (in Portuguese on a phone too) and deleted, two accounts on one device (switching, signing one out), and the admin
// area: creating a user and setting their password, banning a user, who is then on /suspended and refused by
// the API, listing a user's sessions and ending one (the list in Portuguese on a phone too), and impersonating one
// and stopping.
import { API_KEY_HEADER } from '@engram/contracts/auth-features';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import { totpCode } from '@engram/testkit/totp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import {
  fillSignIn,
  newUser,
  signInFromPhone,
  signUpAndOnboard,
  type TestUser,
  useSessionCookie,
} from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { makeAdmin, userIdOf } from './support/database.ts';
import { sticksOut } from './support/layout.ts';
import { PHONE } from './support/screens.ts';

const env = useBrowserStack();

const openPage = (name: string) => openTestPage(env.browser, name, { bypassCSP: true, locale: 'en-US' });

async function onboarded(page: Page, label: string): Promise<TestUser> {
  const user = newUser(label);
  await signUpAndOnboard(page, env.stack.url, user);
  return user;
}

async function signOut(page: Page) {
  await page.goto(`${env.stack.url}/auth/sign-out`);
  await page.waitForURL(`${env.stack.url}/auth/sign-in`);
}

const currentUser = (page: Page) => page.getByTestId('current-user');

describe('two-factor with an authenticator app', () => {
  it('is switched on with the key typed into the app, which never travels in an address, and asks for a code at sign-in', async () => {
    const page = await openPage('totp');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.stack.url });
    const addresses: string[] = [];
    page.on('request', (request) => addresses.push(request.url()));
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    const user = await onboarded(page, 'tessa');
    await page.goto(`${env.stack.url}/account/security`);
    await page.getByRole('button', { name: 'Enable two-factor' }).click();
    await page.getByRole('dialog').getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('dialog').getByRole('button', { name: 'Enable two-factor' }).click();
    const codesDialog = page.getByRole('dialog', { name: 'Backup codes' });
    await codesDialog.getByRole('button', { name: 'Continue' }).click();

    // The set-up page's address is plain: the secret is in the page, not in the URL, history or a Referer.
    await page.waitForURL(`${env.stack.url}/auth/two-factor`);
    // The set-up opens on the authenticator: its QR code is shown at once, not behind a button.
    await page.getByText('Scan the QR code with your authenticator').waitFor();
    expect(await page.getByRole('button', { name: 'Continue with authenticator' }).count()).toBe(0);
    // Beside the QR code, the key for an app that cannot scan, which the learner can copy.
    const key = await page.getByLabel('Set-up key').inputValue();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(key).toMatch(/^[A-Z2-7]{16,}=*$/);
    await page.getByRole('button', { name: 'Copy to clipboard' }).click();
    await page.getByRole('button', { name: 'Copied to clipboard' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);

    await page.getByLabel('One-time password').pressSequentially(totpCode(key));
    await page.getByText('Two-factor authentication has been enabled.').waitFor();
    await page.waitForURL(`${env.stack.url}/dashboard`);
    expect(addresses.filter((address) => address.includes(key) || address.includes('totpURI'))).toEqual([]);
    expect(failed).toEqual([]);

    await signOut(page);
    await fillSignIn(page, user.email, user.password);
    await page.waitForURL(`${env.stack.url}/auth/two-factor`);
    // At sign-in the key is no longer shown: only the code is asked for.
    await page.getByRole('button', { name: 'Continue with authenticator' }).click();
    await page.getByLabel('One-time password').waitFor();
    expect(await page.getByLabel('Set-up key').count()).toBe(0);
    await page.getByLabel('One-time password').pressSequentially(totpCode(key));
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await currentUser(page).getByText(user.email).waitFor();
  });
});

const PIXEL_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('passkeys', () => {
  it('registers a passkey on the security page, renames it, and signs in with it', async () => {
    const page = await openTestPage(env.browser, 'passkey', {
      bypassCSP: true,
      locale: 'en-US',
      userAgent: PIXEL_CHROME,
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const user = await onboarded(page, 'petra');
    await page.goto(`${env.stack.url}/account/security`);
    const registered = page.waitForResponse((r) => r.url().includes('/passkey/verify-registration'));
    await page.getByRole('button', { name: 'Add passkey' }).click();
    expect((await registered).status()).toBe(200);

    // It is named after the browser and the device it was made on.
    const names = page.getByRole('region', { name: 'Passkey names' });
    await names.getByText('Chrome on Android', { exact: true }).waitFor();
    // Its owner renames it in place.
    await names.getByRole('button', { name: /^Rename / }).click();
    await names.getByLabel('Passkey name').fill('Work laptop');
    await names.getByRole('button', { name: 'Save' }).click();
    await names.getByText('Work laptop', { exact: true }).waitFor();
    await page.getByText('The passkey is now called Work laptop.').waitFor();

    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with Passkey' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await expect.poll(() => currentUser(page).textContent()).toContain(user.email);
  });
});

describe('API keys', () => {
  it('creates a key shown once, which calls the API as its owner while it is on and until it is deleted', async () => {
    const page = await openPage('api-keys');
    await onboarded(page, 'kira');
    await page.goto(`${env.stack.url}/account/api-keys`);
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Export script');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/auth/api-key/create'));
    await page.getByRole('dialog').getByRole('button', { name: 'Create API key' }).click();
    const { key } = (await (await created).json()) as { key: string };
    expect(key).toMatch(/^engram_/);
    const shown = page.getByRole('dialog', { name: 'API key created' });
    await shown
      .getByText(key)
      .or(shown.locator(`input[value="${key}"]`))
      .waitFor();
    await shown.getByRole('button', { name: 'Done' }).click();

    const call = () =>
      fetch(`${env.stack.url}/api/trpc/cards.list?input=${encodeURIComponent('{}')}`, {
        headers: { [API_KEY_HEADER]: key },
      });
    expect((await call()).status).toBe(200);
    expect(await accessibilityViolations(page)).toEqual([]);

    // Switched off, the key is refused; switched on again, it works.
    const enabled = page.getByRole('switch', { name: 'Export script is enabled' });
    await enabled.click();
    await page.getByText('Export script is off: the API refuses it.').waitFor();
    await expect.poll(() => enabled.isChecked()).toBe(false);
    const off = await call();
    expect(off.status).toBe(401);
    expect(((await off.json()) as { error: { data: { reason: string } } }).error.data.reason).toBe('KEY_DISABLED');
    await enabled.click();
    await page.getByText('Export script is on again.').waitFor();
    expect((await call()).status).toBe(200);

    // A new key reads and writes; without Write it changes nothing; with Generate it may generate cards.
    const scopes = page.getByRole('group', { name: 'Scopes of Export script' });
    const scope = (name: string) => scopes.getByRole('checkbox', { name });
    expect([
      await scope('Read').isChecked(),
      await scope('Write').isChecked(),
      await scope('Generate cards').isChecked(),
    ]).toEqual([true, true, false]);
    const change = () =>
      fetch(`${env.stack.url}/api/trpc/cards.create`, {
        method: 'POST',
        headers: { [API_KEY_HEADER]: key, 'content-type': 'application/json' },
        body: JSON.stringify({ front: 'by script', back: 'b' }),
      });
    expect((await change()).status).toBe(200);
    // On a slow network the list comes back a moment after each change: the next change waits for it, and so keeps
    // the one before (it had been made from the list as it was, sending Write back).
    await page.route(
      (url) => url.pathname.endsWith('/api-key/list'),
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 800));
        await route.continue();
      },
    );
    await scope('Write').click();
    await page.getByText('Export script may now: Read.').waitFor();
    expect((await change()).status).toBe(403);
    await scope('Generate cards').click();
    await page.getByText('Export script may now: Read, Generate cards.').waitFor();
    await expect.poll(() => scope('Generate cards').isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await enabled.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByText('Export script', { exact: true }).count()).toBe(0);
    const refused = await call();
    expect(refused.status).toBe(401);
  });
});

describe('the API reference', () => {
  it('is linked from the API keys page and shows every call with the scope it needs', async () => {
    const page = await openPage('api-reference');
    await onboarded(page, 'rhea');
    await page.goto(`${env.stack.url}/account/api-keys`);
    const opened = page.context().waitForEvent('page');
    await page.getByRole('link', { name: 'API reference' }).click();
    const reference = await opened;
    const problems: string[] = [];
    reference.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    await reference.waitForURL(`${env.stack.url}/api/docs`);
    await reference.getByRole('heading', { name: /Engram API/ }).waitFor();
    await reference.getByText('/api/trpc/cards.create').first().waitFor();
    await reference
      .getByText('Create a card (basic, reversed, cloze, typed, occlusion), or a note of a note type.')
      .first()
      .waitFor();
    // Opened, a call says the scope a key needs for it.
    await reference.getByText('/api/trpc/cards.create').first().click();
    await reference
      .getByText(/An API key needs its\s*write\s*scope/)
      .first()
      .waitFor();
    expect(problems).toEqual([]);
  });
});

describe('API key scopes in Portuguese on a phone', () => {
  it('shows what each key may do and changes it', async () => {
    const page = await openTestPage(env.browser, 'api-key-scopes-pt', { ...PHONE, bypassCSP: true, locale: 'pt-BR' });
    const cookie = await signUpThroughGateway(env.stack.url, 'Kiara');
    await trpcClient(env.stack.url, cookie).mutate('settings.completeOnboarding', { timezone: 'America/Sao_Paulo' });
    await useSessionCookie(page, env.stack.url, cookie);
    await page.goto(`${env.stack.url}/account/api-keys`);
    await page.getByRole('button', { name: 'Criar chave de API' }).click();
    await page.getByRole('dialog').getByLabel('Nome').fill('Yomitan');
    await page.getByRole('dialog').getByRole('button', { name: 'Criar chave de API' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Concluído' }).click();
    const scopes = page.getByRole('group', { name: 'Escopos de Yomitan' });
    await scopes.getByRole('checkbox', { name: 'Ler' }).waitFor();
    expect(await scopes.getByRole('checkbox', { name: 'Escrever' }).isChecked()).toBe(true);
    await scopes.getByRole('checkbox', { name: 'Gerar cartões' }).click();
    await page.getByText('Yomitan agora pode: Ler, Escrever, Gerar cartões.').waitFor();
    expect(await sticksOut(page)).toEqual([]);
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});

describe('several accounts on one device', () => {
  it('adds a second account, switches between them and signs the other out', async () => {
    const page = await openPage('accounts');
    const first = newUser('first');
    const second = await (async () => {
      const other = await openPage('accounts-second');
      return onboarded(other, 'second');
    })();
    await signUpAndOnboard(page, env.stack.url, first);
    // The sign-up's "check your inbox" is done once its link signed the first account in.
    expect(await page.evaluate(() => sessionStorage.getItem('engram:verification-sent-to'))).toBeNull();

    await page.goto(`${env.stack.url}/account/settings`);
    await page.getByRole('button', { name: 'Add account' }).click();
    await page.waitForURL(/\/auth\/sign-in\?addAccount=1/);
    await fillSignIn(page, second.email, second.password);
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await expect.poll(() => currentUser(page).textContent()).toContain(second.email);

    await page.goto(`${env.stack.url}/account/settings`);
    await page.getByRole('button', { name: `Account actions: ${first.email}` }).click();
    await page.getByRole('menuitem', { name: 'Switch account' }).click();
    await expect.poll(() => currentUser(page).textContent()).toContain(first.email);

    await page.getByRole('button', { name: `Account actions: ${second.email}` }).click();
    // Another account of the device is signed out with Revoke (Sign out is the current one's).
    await page.getByRole('menuitem', { name: 'Revoke' }).click();
    await page.getByText(second.email, { exact: true }).waitFor({ state: 'detached' });
    await page.goto(`${env.stack.url}/dashboard`);
    await expect.poll(() => currentUser(page).textContent()).toContain(first.email);
  });
});

describe('the admin area', () => {
  async function adminPage(label: string) {
    const page = await openPage(label);
    const admin = await onboarded(page, 'admin');
    await makeAdmin(env.stack, await userIdOf(env.stack, admin.email));
    await page.goto(`${env.stack.url}/admin`);
    await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
    await page.getByRole('listitem', { name: admin.email }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    return { page, admin };
  }

  const rowOf = (page: Page, email: string) => page.getByRole('listitem', { name: email });

  it('is only for admins', async () => {
    const page = await openPage('admin-refused');
    await onboarded(page, 'plain');
    await page.goto(`${env.stack.url}/admin`);
    await page.waitForURL(`${env.stack.url}/dashboard`);
  });

  it('bans a user, who is then on /suspended and refused by the API', async () => {
    const victimPage = await openPage('admin-victim');
    const victim = await onboarded(victimPage, 'victim');
    const { page } = await adminPage('admin-ban');
    await page.getByLabel('Search by email').fill(victim.email);
    await page.getByRole('heading', { name: 'Users (1)' }).waitFor();
    const row = rowOf(page, victim.email);
    await row.getByRole('button', { name: 'Ban' }).click();
    await row.getByLabel('Reason').fill('spam');
    await row.getByRole('button', { name: 'Ban user' }).click();
    await row.getByText('Banned: spam').waitFor();

    await victimPage.goto(`${env.stack.url}/dashboard`);
    await victimPage.waitForURL(`${env.stack.url}/suspended`);
    const status = await victimPage.evaluate(async () => (await fetch('/api/trpc/cards.list?input=%7B%7D')).status);
    expect(status).toBe(403);

    await row.getByRole('button', { name: 'Unban' }).click();
    await row.getByText('Banned: spam').waitFor({ state: 'detached' });
    await victimPage.goto(`${env.stack.url}/dashboard`);
    await victimPage.waitForURL(`${env.stack.url}/dashboard`);
  });

  it('creates a user, who joins the list, keeping the role chosen for the next, and sets their password', async () => {
    const { page } = await adminPage('admin-create');
    const created = newUser('created');
    await page.getByLabel('Search by email').fill(created.email);
    await page.getByText('No user matches.').waitFor();

    const form = page.getByRole('form', { name: 'Create a user' });
    await form.getByLabel('Name').fill(created.name);
    await form.getByLabel('Email').fill(created.email);
    await form.getByLabel('Password', { exact: true }).fill(created.password);
    await form.getByLabel('Role').selectOption('admin');
    await form.getByRole('button', { name: 'Create user' }).click();
    await page.getByText(`${created.email} can now sign in.`).waitFor();
    const row = rowOf(page, created.email);
    await row.waitFor();
    expect(await row.getByLabel('Role').inputValue()).toBe('admin');
    expect(await form.getByLabel('Email').inputValue()).toBe('');
    expect(await form.getByLabel('Role').inputValue()).toBe('admin');

    await row.getByRole('button', { name: 'Set password' }).click();
    await row.getByLabel('New password').fill('another horse battery');
    await row.locator('form').getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Password changed.').waitFor();
    await row.getByLabel('New password').waitFor({ state: 'detached' });
  });

  it("lists a user's sessions with the device, the times and the address, and ends one, in both languages", async () => {
    const laptop = await openPage('sessions-laptop');
    const user = await onboarded(laptop, 'travelling');
    // A second session, from a phone.
    const phoneSession = await signInFromPhone(env.stack.url, user);
    expect(await phoneSession()).toMatchObject({ user: { email: user.email } });

    const { page } = await adminPage('admin-sessions');
    await page.getByLabel('Search by email').fill(user.email);
    await page.getByRole('heading', { name: 'Users (1)' }).waitFor();
    const row = rowOf(page, user.email);
    await row.getByRole('button', { name: 'Sessions', exact: true }).click();
    const sessions = row.getByRole('region', { name: `Sessions of ${user.email}` });
    const onPhone = sessions.getByRole('listitem', { name: 'Safari on iPhone' });
    const onLaptop = sessions.getByRole('listitem', { name: 'Chrome on Linux' });
    await onPhone.waitFor();
    expect(await sessions.getByRole('listitem').count()).toBe(2);
    // The phone signed in last, so it comes first.
    expect(await sessions.getByRole('listitem').first().getAttribute('aria-label')).toBe('Safari on iPhone');
    expect(await onLaptop.textContent()).toMatch(/Signed in .+ · last active .+ · from \S+/);
    expect(await accessibilityViolations(page)).toEqual([]);

    // The same list, for an admin who reads Portuguese, on a phone.
    const portuguese = await openTestPage(env.browser, 'admin-sessions-pt', {
      ...PHONE,
      bypassCSP: true,
      locale: 'pt-BR',
    });
    await portuguese.context().addCookies(await page.context().cookies());
    await portuguese.goto(`${env.stack.url}/admin`);
    await portuguese.getByLabel('Buscar por e-mail').fill(user.email);
    await portuguese.getByRole('heading', { name: 'Usuários (1)' }).waitFor();
    const ptRow = rowOf(portuguese, user.email);
    await ptRow.getByRole('button', { name: 'Sessões', exact: true }).click();
    const ptSessions = ptRow.getByRole('region', { name: `Sessões de ${user.email}` });
    const ptPhone = ptSessions.getByRole('listitem', { name: 'Safari no iPhone' });
    expect(await ptPhone.textContent()).toMatch(/Entrou em .+ · última atividade em .+ · de \S+/);
    await ptPhone.getByRole('button', { name: 'Encerrar sessão' }).waitFor();
    expect(await sticksOut(portuguese)).toEqual([]);

    // Ending the phone's session signs the phone out, and leaves the laptop signed in.
    await onPhone.getByRole('button', { name: 'End session' }).click();
    await page.getByText('The session has ended.').waitFor();
    await onPhone.waitFor({ state: 'detached' });
    expect(await sessions.getByRole('listitem').count()).toBe(1);
    expect(await phoneSession()).toBeNull();
    await laptop.reload();
    await expect.poll(() => currentUser(laptop).textContent()).toContain(user.email);

    // "Sign out everywhere" ends the rest, and the list says so.
    await row.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByText('Every session of this user has ended.').waitFor();
    await sessions.getByText('No session: this user is signed out everywhere.').waitFor();
  });

  it('impersonates a user with a visible banner, and stops', async () => {
    const other = await openPage('admin-other');
    const user = await onboarded(other, 'acted');
    const { page, admin } = await adminPage('admin-impersonate');
    await page.getByLabel('Search by email').fill(user.email);
    await page.getByRole('heading', { name: 'Users (1)' }).waitFor();
    await rowOf(page, user.email).getByRole('button', { name: 'Impersonate' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await page.getByRole('status').getByText(`You are acting as ${user.name} (${user.email}).`).waitFor();
    await expect.poll(() => currentUser(page).textContent()).toContain(user.email);

    await page.getByRole('button', { name: 'Stop impersonating' }).click();
    await page.waitForURL(`${env.stack.url}/admin`);
    await expect.poll(() => currentUser(page).textContent()).toContain(admin.email);
    expect(await page.getByText('You are acting as').count()).toBe(0);
  });
});
