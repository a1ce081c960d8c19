// The account layer's length limits said as they are typed (docs/product.md#validation-rules), in a real Chromium
// through the real gateway, in English on a laptop and Portuguese on a phone: a name or username over 32 characters, an organization name over
// 32 or a slug over 48 is refused in the form with the catalogue's message before anything is sent, and the
// message goes once the text is back within the limit. Sign-up, the account's name, the new-organization dialog
// and the organization's name and slug cards.
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newUser, signUpAndOnboard } from './support/auth.ts';
import { LAPTOP, PHONE } from './support/screens.ts';

const env = useBrowserStack();

const LANGUAGES = [
  {
    locale: 'en-US',
    name: 'Name',
    username: 'Username',
    email: 'Email',
    password: 'Password',
    slug: 'Slug',
    createAccount: 'Create account',
    createOrganization: 'Create organization',
    save: 'Save',
    nameTooLong: 'Name must be at most 32 characters.',
    usernameTooLong: 'Username must be at most 32 characters.',
    organizationNameTooLong: 'Organization name must be at most 32 characters.',
    slugTooLong: 'Organization slug must be at most 48 characters.',
  },
  {
    locale: 'pt-BR',
    name: 'Nome',
    username: 'Nome de usuário',
    email: 'E-mail',
    password: 'Senha',
    slug: 'Identificador',
    createAccount: 'Criar conta',
    createOrganization: 'Criar organização',
    save: 'Salvar',
    nameTooLong: 'O nome deve ter no máximo 32 caracteres.',
    usernameTooLong: 'O nome de usuário deve ter no máximo 32 caracteres.',
    organizationNameTooLong: 'O nome da organização deve ter no máximo 32 caracteres.',
    slugTooLong: 'O identificador da organização deve ter no máximo 48 caracteres.',
  },
] as const;

/** Every call a page makes that would change an account or an organization. */
function changesSent(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (
      request.method() === 'POST' &&
      /^\/api\/auth\/(sign-up\/|update-user|organization\/(create|update)$)/.test(path)
    ) {
      sent.push(path);
    }
  });
  return sent;
}

/** Types `text` into `field`, and waits for `message` to show in `scope` and the field to be marked invalid. */
async function refusedAsTyped(scope: Locator | Page, field: Locator, text: string, message: string): Promise<void> {
  await field.fill(text);
  await scope.getByText(message, { exact: true }).waitFor();
  expect(await field.getAttribute('aria-invalid')).toBe('true');
}

/** Takes the last character off `field`, and waits for `message` to go. */
async function backWithinTheLimit(scope: Locator | Page, field: Locator, message: string): Promise<void> {
  await field.press('End');
  await field.press('Backspace');
  await scope.getByText(message, { exact: true }).waitFor({ state: 'detached' });
  expect(await field.getAttribute('aria-invalid')).toBe('false');
}

/** The settings card titled `title`. */
const card = (page: Page, title: string) =>
  page.locator('[data-slot="card"]').filter({ has: page.getByText(title, { exact: true }) });

describe.each(LANGUAGES)('a text over its limit, in $locale', (language) => {
  // English on a laptop, Portuguese on a phone.
  const screen = language.locale === 'pt-BR' ? PHONE : LAPTOP;
  const openPage = (name: string) =>
    openTestPage(env.browser, `${name}-${language.locale}`, { ...screen, bypassCSP: true, locale: language.locale });

  it('is refused in the sign-up form as it is typed, and the form sends nothing', async () => {
    const page = await openPage('limits-sign-up');
    const sent = changesSent(page);
    await page.goto(`${env.stack.url}/auth/sign-up`);
    const name = page.getByLabel(language.name, { exact: true });
    const username = page.getByLabel(language.username, { exact: true });

    await refusedAsTyped(page, name, 'N'.repeat(33), language.nameTooLong);
    await backWithinTheLimit(page, name, language.nameTooLong);
    await refusedAsTyped(page, username, 'u'.repeat(33), language.usernameTooLong);

    // Everything else is right, and the username is still too long: nothing is sent.
    const user = newUser('limited');
    await page.getByLabel(language.email, { exact: true }).fill(user.email);
    await page.getByLabel(language.password, { exact: true }).fill(user.password);
    await page.getByRole('button', { name: language.createAccount }).click();
    await page.getByText(language.usernameTooLong, { exact: true }).waitFor();
    await backWithinTheLimit(page, username, language.usernameTooLong);
    expect(sent).toEqual([]);
  });

  it("is refused in the account's name, the new-organization dialog and the organization's name and slug", async () => {
    const signingUp = await openTestPage(env.browser, `limits-owner-${language.locale}`, {
      ...screen,
      bypassCSP: true,
    });
    const user = newUser('limits');
    await signUpAndOnboard(signingUp, env.stack.url, user);
    const slug = `limits-${Date.now().toString(36)}`;
    const created = await signingUp.request.post(`${env.stack.url}/api/auth/organization/create`, {
      data: { name: 'Limits Club', slug },
      headers: { origin: env.stack.url },
    });
    expect(created.status()).toBe(200);
    const page = await openPage('limits-settings');
    await page.context().addCookies(await signingUp.context().cookies());
    const sent = changesSent(page);

    // The account's name: refused as typed, and Save keeps it so.
    await page.goto(`${env.stack.url}/account/settings`);
    const nameCard = card(page, language.name);
    const name = nameCard.getByRole('textbox');
    await name.waitFor();
    await refusedAsTyped(nameCard, name, 'N'.repeat(33), language.nameTooLong);
    await nameCard.getByRole('button', { name: language.save }).click();
    await nameCard.getByText(language.nameTooLong, { exact: true }).waitFor();
    await backWithinTheLimit(nameCard, name, language.nameTooLong);

    // A new organization's name and slug.
    await page.goto(`${env.stack.url}/account/organizations`);
    await page.getByRole('button', { name: language.createOrganization }).first().click();
    const dialog = page.getByRole('dialog');
    const organizationName = dialog.getByLabel(language.name, { exact: true });
    await refusedAsTyped(dialog, organizationName, 'O'.repeat(33), language.organizationNameTooLong);
    await backWithinTheLimit(dialog, organizationName, language.organizationNameTooLong);
    const organizationSlug = dialog.getByLabel(language.slug, { exact: true });
    await refusedAsTyped(dialog, organizationSlug, 's'.repeat(49), language.slugTooLong);
    await dialog.getByRole('button', { name: language.createOrganization }).click();
    await dialog.getByText(language.slugTooLong, { exact: true }).waitFor();
    await backWithinTheLimit(dialog, organizationSlug, language.slugTooLong);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The organization's own name and slug.
    await page.goto(`${env.stack.url}/organization/${slug}`);
    const organizationNameCard = card(page, language.name);
    const ownName = organizationNameCard.getByRole('textbox');
    await refusedAsTyped(organizationNameCard, ownName, 'O'.repeat(33), language.organizationNameTooLong);
    await backWithinTheLimit(organizationNameCard, ownName, language.organizationNameTooLong);
    const slugCard = card(page, language.slug);
    const ownSlug = slugCard.getByRole('textbox');
    await refusedAsTyped(slugCard, ownSlug, `${slug}-${'s'.repeat(48)}`, language.slugTooLong);
    await slugCard.getByRole('button', { name: language.save }).click();
    await slugCard.getByText(language.slugTooLong, { exact: true }).waitFor();

    expect(sent).toEqual([]);
  });
});
