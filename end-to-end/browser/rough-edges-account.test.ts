// What a newcomer met in their words and their account (issue 43, item 6), in English on a laptop and in Portuguese
// on a phone: the storage of a learner without files reads "0 bytes" ("0 byte" in Portuguese, as CLDR counts); the
// offline generator writes one grammatical question per fact in the notes' language, says what it proposed in words
// that agree with the number, and keeps the pasted notes through a reload; the plans open in the currency of the
// learner's language and the local Stripe stand-in's checkout speaks it too; the security page names each session's
// device, when and where from, signs out everywhere else at once, and turning two-factor on shows its QR code at once.
// Nothing sticks out of the screen.
import { randomBytes } from 'node:crypto';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway, TEST_PASSWORD } from '@engram/testkit/stack';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { IPHONE_SAFARI, useSessionCookie } from './support/auth.ts';
import { sticksOut } from './support/layout.ts';
import { LAPTOP, PHONE } from './support/screens.ts';

const env = useBrowserStack();

const WORDS = {
  en: {
    locale: 'en-US',
    storage: 'Images and sounds: 0 bytes of 100 MB',
    notes: 'Notes',
    count: 'Number of cards',
    reversed: 'Reversed',
    cloze: 'Cloze',
    generate: 'Generate',
    text: [
      '# Chemistry',
      '',
      'An atom is the smallest unit of an element.',
      'A molecule is a group of atoms bonded together.',
      'An ion is an atom with an electric charge.',
    ].join('\n'),
    outcome: '3 proposed; 0 left out as malformed or duplicates.',
    questions: ['What is an atom?', 'What is a molecule?', 'What is an ion?'],
    plans: 'Plans',
    currency: 'USD',
    upgrade: 'Upgrade to Plus',
    checkout: 'Subscribe to Engram Plus',
    standIn: 'Test stand-in: this page is not Stripe.',
    sessions: 'Sessions',
    iPhone: 'Safari on iPhone',
    sessionLine: /^Signed in .+ · last active .+ · from \S+$/,
    current: 'Current session',
    elsewhere: 'Sign out everywhere else',
    signedOutElsewhere: 'Every other device is signed out.',
    enable: 'Enable two-factor',
    password: 'Password',
    codes: 'Backup codes',
    continue: 'Continue',
    scan: 'Scan the QR code with your authenticator',
    key: 'Set-up key',
  },
  'pt-BR': {
    locale: 'pt-BR',
    storage: 'Imagens e sons: 0 byte de 100 MB',
    notes: 'Anotações',
    count: 'Número de cartões',
    reversed: 'Invertido',
    cloze: 'Lacuna',
    generate: 'Gerar',
    text: [
      '# Biologia',
      '',
      'A mitocôndria é a organela que produz a maior parte da energia da célula.',
      'O ribossomo é a estrutura que fabrica as proteínas da célula.',
      'O núcleo é a parte da célula que guarda o material genético.',
    ].join('\n'),
    outcome: 'Propostos: 3; deixados de fora por estarem malformados ou repetidos: 0.',
    questions: ['O que é a mitocôndria?', 'O que é o ribossomo?', 'O que é o núcleo?'],
    plans: 'Planos',
    currency: 'BRL',
    upgrade: 'Assinar o Plus',
    checkout: 'Assinar Engram Plus',
    standIn: 'Substituto de teste: esta página não é o Stripe.',
    sessions: 'Sessões',
    iPhone: 'Safari no iPhone',
    sessionLine: /^Entrou em .+ · última atividade em .+ · de \S+$/,
    current: 'Sessão atual',
    elsewhere: 'Sair em todos os outros aparelhos',
    signedOutElsewhere: 'Todos os outros aparelhos saíram da sua conta.',
    enable: 'Ativar dois fatores',
    password: 'Senha',
    codes: 'Códigos de backup',
    continue: 'Continuar',
    scan: 'Leia o código QR com seu autenticador',
    key: 'Chave de configuração',
  },
} as const;

/** A learner signed up and onboarded through the gateway, in a browser of the given screen and language. */
async function learnerIn(name: string, screen: BrowserContextOptions, locale: string) {
  const { url } = env.stack;
  const email = `${name}-${randomBytes(4).toString('hex')}@example.com`;
  const cookie = await signUpThroughGateway(url, 'Nina Nova', email);
  await trpcClient(url, cookie).mutate('settings.completeOnboarding', { timezone: 'America/Sao_Paulo' });
  const page = await openTestPage(env.browser, name, { ...screen, locale, bypassCSP: true });
  page.setDefaultTimeout(15_000);
  await useSessionCookie(page, url, cookie);
  return { page, email };
}

/** The account page's card titled `title`. */
const card = (page: Page, title: string) =>
  page.locator('[data-slot="card"]').filter({ has: page.getByText(title, { exact: true }) });

describe.each([
  ['en', 'a laptop', LAPTOP],
  ['pt-BR', 'a phone', PHONE],
] as const)('a newcomer, in %s on %s', (language, _screen, screen: BrowserContextOptions) => {
  const words = WORDS[language];

  it('reads their storage, generated cards, plans and the checkout stand-in in their words', async () => {
    const { url } = env.stack;
    const { page } = await learnerIn(`rough-words-${language}`, screen, words.locale);

    await page.goto(`${url}/account/settings`);
    await page.getByText(words.storage, { exact: true }).waitFor();

    // The offline generator: one question per fact, in the notes' language; the notes kept through a reload.
    await page.goto(`${url}/generate`);
    const notes = page.getByRole('textbox', { name: words.notes });
    await notes.fill(words.text);
    await page.getByRole('spinbutton', { name: words.count }).fill('3');
    await page.getByRole('checkbox', { name: words.reversed }).uncheck();
    await page.getByRole('checkbox', { name: words.cloze }).uncheck();
    await page.getByRole('button', { name: words.generate, exact: true }).click();
    await expect.poll(() => page.getByTestId('generation-outcome').textContent()).toBe(words.outcome);
    const fronts = await Promise.all(
      (
        await page
          .getByTestId('proposal')
          .getByRole('textbox', { name: /^(Front|Frente)$/ })
          .all()
      ).map((field) => field.inputValue()),
    );
    expect(fronts).toEqual(words.questions);
    expect(await sticksOut(page)).toEqual([]);
    await page.reload();
    await expect.poll(() => notes.inputValue()).toBe(words.text);

    // The plans in the currency of the learner's language, and the stand-in's checkout in their language.
    await page.goto(`${url}/billing/plans`);
    await page.getByRole('heading', { name: words.plans, level: 1 }).waitFor();
    expect(await page.getByRole('radio', { name: words.currency, exact: true }).isChecked()).toBe(true);
    expect(await sticksOut(page)).toEqual([]);
    await page.getByRole('button', { name: words.upgrade }).click();
    await page.waitForURL(/\/api\/dev\/stripe\/checkout\/cs_test_\w+$/);
    await page.getByText(words.standIn, { exact: false }).waitFor();
    await page.getByText(words.checkout, { exact: false }).first().waitFor();
    expect(await sticksOut(page)).toEqual([]);
  });

  it('sees each session with when and where from, signs out everywhere else, and scans a QR code at once', async () => {
    const { url } = env.stack;
    const { page, email } = await learnerIn(`rough-security-${language}`, screen, words.locale);
    // A second session, from a phone.
    const phone = await fetch(`${url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, 'user-agent': IPHONE_SAFARI },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    expect(phone.status).toBe(200);
    const phoneCookie = phone.headers
      .getSetCookie()
      .map((set) => set.split(';')[0])
      .join('; ');

    await page.goto(`${url}/account/security`);
    const sessions = card(page, words.sessions);
    await sessions.getByText(words.iPhone, { exact: true }).waitFor();
    await sessions.getByText(words.current, { exact: true }).waitFor();
    expect(await sessions.getByText(words.sessionLine).count()).toBe(2);
    expect(await sticksOut(page)).toEqual([]);
    await sessions.getByRole('button', { name: words.elsewhere }).click();
    await page.getByText(words.signedOutElsewhere).waitFor();
    const phoneNow = await fetch(`${url}/api/auth/get-session`, { headers: { cookie: phoneCookie } });
    expect(await phoneNow.json()).toBeNull();

    // Two-factor: the QR code is shown at once, beside the key for an app that cannot scan.
    await page.getByRole('button', { name: words.enable }).click();
    await page.getByRole('dialog').getByLabel(words.password, { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('dialog').getByRole('button', { name: words.enable }).click();
    await page.getByRole('dialog', { name: words.codes }).getByRole('button', { name: words.continue }).click();
    await page.waitForURL(`${url}/auth/two-factor`);
    await page.getByText(words.scan).waitFor();
    // The QR code (react-qr-code's drawing, loaded with the view): one large square on the page.
    const drawings = () =>
      page.locator('svg, canvas, img').evaluateAll((elements) =>
        elements
          .map((element) => element.getBoundingClientRect())
          .filter((box) => box.width >= 100)
          .map((box) => Math.round(box.width / box.height)),
      );
    await expect.poll(drawings).toEqual([1]);
    await page.getByLabel(words.key).waitFor();
    expect(await sticksOut(page)).toEqual([]);
  });
});
