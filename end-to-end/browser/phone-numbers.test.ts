// Phone numbers in a real Chromium through the real gateway and identity (docs/product.md#phone-numbers), in English
// on a laptop and in Portuguese on a phone: a learner adds a number on the account settings page, typed the way
// people write it in Brazil, is told as they type when it is not a valid number, verifies it with the code texted
// to it (read from the dev mailbox, where texts go without SNS), and signs in with it, with the password and with
// a code; a wrong password is refused in the page's language and empties the field. Nothing sticks out of the
// phone's screen.
import { randomBytes } from 'node:crypto';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { readMailbox, smsCodeIn } from '@engram/testkit/mailbox';
import { signUpThroughGateway, TEST_PASSWORD } from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { useSessionCookie } from './support/auth.ts';
import { sticksOut } from './support/layout.ts';
import { LAPTOP, PHONE } from './support/screens.ts';

const env = useBrowserStack();

/** A Brazilian mobile number no other test uses, in E.164, and as it is written in Brazil. */
function brazilianMobile() {
  const digits = `9${6 + ((randomBytes(1)[0] ?? 0) % 4)}${String(randomBytes(4).readUInt32BE() % 10_000_000).padStart(7, '0')}`;
  return {
    e164: `+5511${digits}`,
    typed: `(11) ${digits.slice(0, 5)}-${digits.slice(5)}`,
    shown: `+55 11 ${digits.slice(0, 5)} ${digits.slice(5)}`,
  };
}

/** The code of the newest text to `number` after the `seen` ones, from the dev mailbox. */
async function textedCode(number: string, seen: number) {
  let code = '';
  await waitUntil(`a text message to ${number}`, async () => {
    const texts = (await readMailbox(env.stack.url, number)).filter((message) => message.subject === 'Text message');
    if (texts.length <= seen) return false;
    code = smsCodeIn(texts[0] as { text: string });
    return true;
  });
  return code;
}

const textsTo = async (number: string) =>
  (await readMailbox(env.stack.url, number)).filter((message) => message.subject === 'Text message').length;

const WORDS = {
  en: {
    locale: 'en-US',
    add: 'Add a phone number',
    label: 'Phone number',
    send: 'Send code',
    invalid: 'Phone number must be valid',
    code: 'Code',
    added: 'Phone number verified',
    verified: 'Verified',
    hint: /read as a number in Brazil \(\+55\)/,
    link: 'Sign in with a phone number',
    password: 'Password',
    signIn: 'Sign in',
    withCode: 'With a code by text',
    wrong: 'Invalid phone number or password',
    remove: 'Remove',
    none: 'No phone number yet.',
  },
  'pt-BR': {
    locale: 'pt-BR',
    add: 'Adicionar número de telefone',
    label: 'Número de telefone',
    send: 'Enviar código',
    invalid: 'O número de telefone deve ser válido',
    code: 'Código',
    added: 'Número de telefone verificado',
    verified: 'Verificado',
    hint: /lido com o código deste país: Brasil \(\+55\)/,
    link: 'Entrar com número de telefone',
    password: 'Senha',
    signIn: 'Entrar',
    withCode: 'Com um código por SMS',
    wrong: 'Telefone ou senha inválidos',
    remove: 'Remover',
    none: 'Nenhum número de telefone ainda.',
  },
} as const;

async function signOut(page: Page) {
  await page.goto(`${env.stack.url}/auth/sign-out`);
  await page.waitForURL(`${env.stack.url}/auth/sign-in`);
}

describe.each([
  ['en', 'a laptop', LAPTOP],
  ['pt-BR', 'a phone', PHONE],
] as const)('a phone number, in %s on %s', (language, _screen, screen: BrowserContextOptions) => {
  const words = WORDS[language];

  it('is added with a texted code and then signs the learner in, with the password or with a code', async () => {
    const { url } = env.stack;
    const email = `phone-${randomBytes(4).toString('hex')}@example.com`;
    const cookie = await signUpThroughGateway(url, 'Paula Fone', email);
    await trpcClient(url, cookie).mutate('settings.completeOnboarding', { timezone: 'America/Sao_Paulo' });
    const page = await openTestPage(env.browser, `phone-numbers-${language}`, {
      ...screen,
      locale: words.locale,
      bypassCSP: true,
    });
    page.setDefaultTimeout(15_000);
    await useSessionCookie(page, url, cookie);
    const number = brazilianMobile();

    await page.goto(`${url}/account/settings`);
    // The card loads as the learner scrolls down to it.
    await page.getByRole('heading', { name: words.label, exact: true }).scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: words.add }).click();
    const field = page.getByRole('textbox', { name: words.label, exact: true });
    // Without its country code, a number is read in Brazil only where the learner's language says Brazil.
    if (language === 'pt-BR') await page.getByText(words.hint).waitFor();
    await field.fill('12345');
    await page.getByRole('button', { name: words.send }).click();
    await page.getByText(words.invalid).waitFor();
    expect(await textsTo(number.e164)).toBe(0);
    // As typed in Brazil; the message goes as soon as the number is right.
    await field.fill(language === 'pt-BR' ? number.typed : `+55 ${number.typed}`);
    await page.getByText(words.invalid).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: words.send }).click();
    const code = await textedCode(number.e164, 0);
    // The sixth digit sends the code.
    await page.getByLabel(words.code, { exact: true }).pressSequentially(code);
    await page.getByText(words.added).waitFor();
    await page.getByText(number.shown, { exact: true }).waitFor();
    await page.getByText(words.verified, { exact: true }).waitFor();
    expect(await sticksOut(page)).toEqual([]);

    // With the number and the password; a wrong password first.
    await signOut(page);
    await page.getByRole('link', { name: words.link }).click();
    await page.waitForURL(`${url}/auth/phone-number`);
    await page.getByRole('textbox', { name: words.label, exact: true }).fill(number.shown);
    const password = page.getByLabel(words.password, { exact: true });
    await password.fill('not the password');
    await page.getByRole('button', { name: words.signIn, exact: true }).click();
    await page.getByText(words.wrong).waitFor();
    await expect.poll(() => password.inputValue()).toBe('');
    await password.fill(TEST_PASSWORD);
    await page.getByRole('button', { name: words.signIn, exact: true }).click();
    await page.waitForURL(`${url}/dashboard`);

    // With a code texted to the number.
    await signOut(page);
    await page.goto(`${url}/auth/phone-number`);
    await page.getByRole('button', { name: words.withCode }).click();
    await page.getByRole('textbox', { name: words.label, exact: true }).fill(number.e164);
    const seen = await textsTo(number.e164);
    await page.getByRole('button', { name: words.send }).click();
    const signInCode = await textedCode(number.e164, seen);
    await page.getByLabel(words.code, { exact: true }).pressSequentially(signInCode);
    await page.waitForURL(`${url}/dashboard`);
    expect(await sticksOut(page)).toEqual([]);

    // Removed, after a question; the number no longer signs in.
    await page.goto(`${url}/account/settings`);
    await page.getByRole('heading', { name: words.label, exact: true }).scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: words.remove, exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: words.remove, exact: true }).click();
    await page.getByText(words.none).waitFor();
    const refused = await fetch(`${url}/api/auth/sign-in/phone-number`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ phoneNumber: number.e164, password: TEST_PASSWORD }),
    });
    expect(refused.status).toBe(401);
  });
});
