// The web app's shared conventions, in a real Chromium through the real gateway: its language (from the
// browser, switchable, remembered), error toasts in that language, and the generic Not Found and
// "Something went wrong!" screens.
import { followVerificationMail, openTestPage, useBrowserStack } from '@engram/testkit/browser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const env = useBrowserStack();

/** A fresh browser profile whose language is `locale`. */
const openPage = (name: string, locale: string) => openTestPage(env.browser, name, { locale });

const documentLanguage = (page: Page) => page.locator('html').getAttribute('lang');

describe('the language', () => {
  it('follows the browser on a first visit', async () => {
    const page = await openPage('language-from-browser', 'pt-BR');
    await page.goto(env.stack.url);
    await page.getByRole('heading', { name: 'Transforme o que você aprende no que você lembra' }).waitFor();
    expect(await documentLanguage(page)).toBe('pt-BR');
  });

  it('is switched from the footer, stays switched after a reload, and errors are toasted in it', async () => {
    const page = await openPage('language-switch', 'en-US');
    await page.goto(env.stack.url);
    await page.getByRole('heading', { name: 'Turn what you learn into what you remember' }).waitFor();
    expect(await documentLanguage(page)).toBe('en');

    await page.getByRole('contentinfo').getByLabel('Language').selectOption('pt-BR');
    await page.getByRole('heading', { name: 'Transforme o que você aprende no que você lembra' }).waitFor();
    expect(await documentLanguage(page)).toBe('pt-BR');

    await page.reload();
    await page.getByRole('heading', { name: 'Transforme o que você aprende no que você lembra' }).waitFor();
    expect(await documentLanguage(page)).toBe('pt-BR');

    await page.getByRole('link', { name: 'Já tenho uma conta' }).click();
    await page.getByRole('heading', { name: 'Que bom ver você de novo' }).waitFor();
    await page.getByLabel('E-mail').fill(`nobody-${Date.now()}@example.com`);
    await page.getByLabel('Senha').fill('not the password');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByText('E-mail ou senha inválidos').waitFor();
    await page.getByRole('region', { name: 'Notificações alt+T' }).waitFor({ state: 'attached' });

    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(await documentLanguage(page)).toBe('en');
  });
});

describe('the generic screens', () => {
  it('say "Not Found" for an unknown address, with a way home', async () => {
    const page = await openPage('not-found', 'en-US');
    await page.goto(`${env.stack.url}/no-such-page`);
    await page.getByRole('heading', { name: 'Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Go home' }).click();
    await page.getByRole('heading', { name: 'Turn what you learn into what you remember' }).waitFor();
  });

  it('say "Something went wrong!" when a screen cannot load, and show or hide the error', async () => {
    const page = await openPage('error-screen', 'en-US');
    // The sign-in screen's code is missing, as after a deploy that replaced the files a tab still points at.
    await page.route('**/assets/auth-screen-*.js', (route) => route.abort());
    await page.goto(`${env.stack.url}/auth/sign-in`);
    await page.getByRole('heading', { name: 'Something went wrong!' }).waitFor();

    const details = page.getByText(/Failed to fetch dynamically imported module/);
    expect(await details.count()).toBe(0);
    await page.getByRole('button', { name: 'Show Error' }).click();
    await details.waitFor();
    await page.getByRole('button', { name: 'Hide Error' }).click();
    await details.waitFor({ state: 'detached' });

    await page.getByLabel('Language').selectOption('pt-BR');
    await page.getByRole('heading', { name: 'Algo deu errado!' }).waitFor();
    await page.getByRole('button', { name: 'Mostrar erro' }).waitFor();
  });
});

describe('a failed list fetch', () => {
  it('is retried, then shown as an error toast and in the list', async () => {
    const page = await openPage('failed-list', 'en-US');
    // The cards list (sent in the dashboard's one batched request) never gets an answer, as when the
    // connection drops.
    await page.route('**/api/trpc/*cards.list*', (route) => route.abort('internetdisconnected'));

    await page.goto(`${env.stack.url}/auth/sign-up`);
    await page.getByLabel('Name').fill('Ada Offline');
    const email = `offline-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await followVerificationMail(page, env.stack.url, email);
    await page.waitForURL(`${env.stack.url}/onboarding`);
    await page.getByRole('button', { name: 'Start learning' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);

    // Three retries back off 1 s, 2 s and 4 s before the failure is reported.
    const toast = page.getByText('Could not reach the server. Check your connection and try again.');
    await toast.waitFor({ timeout: 20_000 });
    await page.getByRole('alert').getByText('Your cards could not be loaded.').waitFor();
    expect(await toast.count()).toBe(1);
  });
});
