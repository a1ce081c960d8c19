// Engram on a phone (issue 25), in a real Chromium through the real gateway and every service, at a phone's
// 390×844 (touch) and a laptop's 1280×800, in English and Portuguese: no page is wider than its screen, even
// with a card holding a 300-character URL and a learner with a long name, and none shows a console error, a
// failed request or a request to another origin; the header collapses into a menu
// that reaches everything, Sign out included; a practice session is done by touch alone; the heatmap shows
// the latest week; the dashboard keeps the place of figures still loading, so nothing below them jumps. With ENGRAM_SCREENSHOTS=1 the phone's screens are saved for the README.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { networkSettled, openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { authAction } from '../support/people.ts';
import { trpcClient } from '../support/trpc-client.ts';
import { useSessionCookie } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { watchProblems } from './support/console.ts';
import { banKeepingSessions, makeAdmin, userIdOf } from './support/database.ts';
import { focusIsOnClosedMenuButton, onScreen, overlapsInHeader, sticksOut } from './support/layout.ts';
import { LAPTOP, PHONE } from './support/screens.ts';

const env = useBrowserStack();

/** Where ENGRAM_SCREENSHOTS=1 saves the phone's screens for the README. */
const SCREENSHOTS = new URL('../../docs/screenshots', import.meta.url).pathname;
if (process.env.ENGRAM_SCREENSHOTS === '1') mkdirSync(SCREENSHOTS, { recursive: true });

const SCREENS = [
  ['a phone', PHONE],
  ['a laptop', LAPTOP],
] as const;

/** What each language's screens are recognised by. */
const LANGUAGES = {
  en: {
    locale: 'en-US',
    menu: 'Menu',
    signOut: 'Sign out',
    sections: ['Dashboard', 'Practice', 'Plans', 'Organizations', 'Settings', 'Admin', 'Import'],
    account: 'Account settings',
    language: 'Language',
    practiceNow: 'Practice now',
    question: 'Question',
    answer: 'Answer',
    showAnswer: 'Show answer',
    endSession: 'End session',
    ratings: ['Again', 'Hard', 'Good', 'Easy'],
    tapHint: 'Tap the card to show the answer, then rate how well you remembered it.',
    keysHint: 'Space or Enter shows the answer · 1–4 rate · U or Ctrl+Z undoes · R replays sounds',
    done: 'Session complete',
    heatmap: 'Your year',
    reviewsChart: 'Reviews per day',
    signInTitle: 'Sign in',
  },
  'pt-BR': {
    locale: 'pt-BR',
    menu: 'Menu',
    signOut: 'Sair',
    sections: ['Painel', 'Praticar', 'Planos', 'Organizações', 'Configurações', 'Administração', 'Importar'],
    account: 'Configurações da conta',
    language: 'Idioma',
    practiceNow: 'Praticar agora',
    question: 'Pergunta',
    answer: 'Resposta',
    showAnswer: 'Mostrar resposta',
    endSession: 'Encerrar sessão',
    ratings: ['De novo', 'Difícil', 'Bom', 'Fácil'],
    tapHint: 'Toque no cartão para ver a resposta e depois avalie o quanto você lembrou.',
    keysHint: 'Espaço ou Enter mostra a resposta · 1–4 avaliam · U ou Ctrl+Z desfaz · R repete os sons',
    done: 'Sessão concluída',
    heatmap: 'Seu ano',
    reviewsChart: 'Revisões por dia',
    signInTitle: 'Entrar',
  },
} as const;
type Language = keyof typeof LANGUAGES;

const LONG_URL =
  `https://docs.example.org/${'spaced-repetition-and-the-forgetting-curve/'.repeat(6)}${'a'.repeat(300)}`.slice(0, 300);
const LONG_WORD = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(3);
/** As long as a name may be (32 characters), most of it one word. */
const LONG_NAME = 'Max Wolfeschlegelsteinhausenberg';

const longAddress = (label: string, suffix = randomBytes(4).toString('hex')) =>
  `${label.toLowerCase()}.with-a-rather-long-address-${suffix}@learners.example.com`;

interface Learner {
  email: string;
  cookie: string;
  slug: string;
}

/**
 * A learner signed up, verified and onboarded through the gateway, with a long name and address and cards
 * holding a 300-character URL and a very long word (due now); `admin` and `organization` add those pages.
 */
async function learnerWithCards(label: string, options: { admin?: boolean; organization?: boolean } = {}) {
  const { url } = env.stack;
  const suffix = randomBytes(4).toString('hex');
  const email = longAddress(label, suffix);
  const cookie = await signUpThroughGateway(url, LONG_NAME, email);
  const api = trpcClient(url, cookie);
  await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
  const tag = await api.mutate('cards.createTag', { name: `readinglist${'x'.repeat(29)}` });
  await api.mutate('cards.create', {
    front: `Where is the paper? ${LONG_URL}`,
    back: `At ${LONG_URL}`,
    tagIds: [tag.id],
  });
  await api.mutate('cards.create', { front: `Spell ${LONG_WORD}`, back: LONG_WORD });
  await api.mutate('cards.create', { front: 'Capital of Peru', back: 'Lima' });
  if (options.admin) await makeAdmin(env.stack, await userIdOf(env.stack, email));
  const slug = `${label.toLowerCase()}-${suffix}`;
  if (options.organization) {
    await authAction(url, { cookie }, 'organization/create', { name: LONG_NAME, slug });
  }
  return { email, cookie, slug } satisfies Learner;
}

async function openAs(name: string, screen: BrowserContextOptions, language: Language, cookie?: string) {
  const page = await openTestPage(env.browser, name, { ...screen, locale: LANGUAGES[language].locale });
  page.setDefaultTimeout(15_000);
  if (cookie) await useSessionCookie(page, env.stack.url, cookie);
  return page;
}

/** Opens `path` and waits until its content is in and the network is quiet. */
async function visitQuietly(page: Page, path: string, ready?: (page: Page) => Promise<unknown>) {
  await page.goto(`${env.stack.url}${path}`);
  await page.locator('main').first().waitFor();
  if (ready) await ready(page);
  await networkSettled(page);
}

const cardText = (page: Page, text: string) => page.getByText(text).first().waitFor();

describe.each(SCREENS)('on %s', (_screenName, screen) => {
  describe.each(['en', 'pt-BR'] as const)('in %s', (language) => {
    it('no page is wider than the screen, with a 300-character URL in a card and a long name', async () => {
      const learner = await learnerWithCards(`wide-${language}`, { admin: true, organization: true });
      const label = `widths-${screen === PHONE ? 'phone' : 'laptop'}-${language}`;
      const newcomer = await signUpThroughGateway(env.stack.url, LONG_NAME, longAddress(label));
      const wide: Record<string, string[]> = {};
      const check = async (page: Page, what: string) => {
        const out = await sticksOut(page);
        if (out.length > 0) wide[what] = out;
      };

      // And no console error, failed request or other origin on any of these screens (support/console.ts).
      const problems: string[] = [];
      const visitor = await openAs(`${label}-visitor`, screen, language);
      watchProblems(visitor, env.stack.url, problems);
      for (const path of ['/', '/help', '/terms', '/privacy', '/auth/sign-in', '/auth/sign-up']) {
        await visitQuietly(visitor, path);
        await check(visitor, path);
      }

      const newPage = await openAs(`${label}-newcomer`, screen, language, newcomer);
      watchProblems(newPage, env.stack.url, problems);
      await visitQuietly(newPage, '/onboarding');
      await check(newPage, '/onboarding');

      const page = await openAs(label, screen, language, learner.cookie);
      watchProblems(page, env.stack.url, problems);
      const signedIn: [string, ((page: Page) => Promise<unknown>)?][] = [
        ['/dashboard', (p) => cardText(p, 'Capital of Peru')],
        ['/generate'],
        ['/import'],
        ['/browse'],
        ['/practice/new'],
        ['/practice/session', (p) => p.locator('article').first().waitFor()],
        ['/practice/done?cardCount=3&again=1&hard=0&good=1&easy=1'],
        ['/settings'],
        ['/account/settings'],
        ['/account/security'],
        ['/account/api-keys'],
        ['/account/organizations'],
        ['/billing/plans'],
        [`/organization/${learner.slug}`],
        [`/organization/${learner.slug}/members`],
        [`/organization/${learner.slug}/learning`],
        ['/admin'],
      ];
      for (const [path, ready] of signedIn) {
        await visitQuietly(page, path, ready);
        await check(page, path);
      }
      // Every card of the session, question and answer, the long URL and word among them.
      await visitQuietly(page, '/practice/session', (p) => p.locator('article').first().waitFor());
      for (let card = 0; card < 3; card += 1) {
        // The card's corner: its middle may be the link of the URL, which opens rather than reveals.
        await page
          .locator('article')
          .first()
          .click({ position: { x: 8, y: 8 } });
        await page.locator('article section').nth(1).waitFor();
        await check(page, `/practice/session, card ${card + 1} answered`);
        // Easy: a new card graduates for days, so it does not come back within the session's learn-ahead.
        await page.locator('fieldset button').nth(3).click();
      }
      await page.waitForURL(/\/practice\/done/);

      const suspended = await signUpThroughGateway(env.stack.url, LONG_NAME, longAddress(label));
      const suspendedPage = await openAs(`${label}-suspended`, screen, language, suspended);
      watchProblems(suspendedPage, env.stack.url, problems);
      await banKeepingSessions(env.stack, (await sessionUser(suspended)).id);
      await visitQuietly(suspendedPage, '/suspended');
      await check(suspendedPage, '/suspended');

      expect(wide).toEqual({});
      expect(problems).toEqual([]);
    });
  });
});

async function sessionUser(cookie: string): Promise<{ id: string }> {
  const response = await fetch(`${env.stack.url}/api/auth/get-session`, { headers: { cookie } });
  return ((await response.json()) as { user: { id: string } }).user;
}

describe.each(['en', 'pt-BR'] as const)('the header in %s', (language) => {
  const words = LANGUAGES[language];

  it('folds into a menu on a phone that reaches every section, the account, the language and Sign out', async () => {
    const learner = await learnerWithCards(`menu-${language}`, { admin: true });
    // The accessibility checker is a script the app's Content-Security-Policy would rightly refuse.
    const page = await openAs(`menu-phone-${language}`, { ...PHONE, bypassCSP: true }, language, learner.cookie);
    await page.goto(`${env.stack.url}/dashboard`);
    const banner = page.getByRole('banner');
    const menu = banner.getByRole('button', { name: words.menu });
    await menu.waitFor();
    expect(await banner.getByRole('button', { name: words.signOut }).isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    const box = await menu.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);

    await menu.tap();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    const panel = page.locator(`[id="${await menu.getAttribute('aria-controls')}"]`);
    const reachable = [
      ...words.sections.map((name) => panel.getByRole('link', { name, exact: true })),
      panel.getByRole('link', { name: new RegExp(words.account) }),
      panel.getByLabel(words.language),
      panel.getByRole('button', { name: words.signOut }),
    ];
    for (const control of reachable) expect(await onScreen(page, control)).toBe(true);
    // The long name and address wrap inside the menu instead of running off.
    expect(await onScreen(page, panel.getByText(learner.email))).toBe(true);
    expect(await overlapsInHeader(page)).toEqual([]);
    expect(await accessibilityViolations(page)).toEqual([]);

    // Escape closes it and gives focus back to its button.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await focusIsOnClosedMenuButton(page)).toBe(true);

    // A section's link goes there and closes the menu; a tap outside closes it too.
    await menu.tap();
    await panel.getByRole('link', { name: words.sections[4], exact: true }).tap();
    await page.waitForURL(`${env.stack.url}/settings`);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.tap();
    await page.touchscreen.tap(200, 830);
    await panel.waitFor({ state: 'detached' });

    await menu.tap();
    await panel.getByRole('button', { name: words.signOut }).tap();
    await page.waitForURL(/\/auth\/sign-in/);
    await page.getByRole('button', { name: words.signInTitle, exact: true }).waitFor();
  });

  it('lays out on one line without overlaps on a laptop, and folds into the menu at 1024 px', async () => {
    const learner = await learnerWithCards(`header-${language}`, { admin: true });
    const page = await openAs(`header-laptop-${language}`, LAPTOP, language, learner.cookie);
    await page.goto(`${env.stack.url}/dashboard`);
    const banner = page.getByRole('banner');
    await banner.getByRole('button', { name: words.signOut }).waitFor();
    expect(await banner.getByRole('button', { name: words.menu }).isVisible()).toBe(false);
    for (const name of words.sections) {
      expect(await onScreen(page, banner.getByRole('link', { name, exact: true }))).toBe(true);
    }
    expect(await overlapsInHeader(page)).toEqual([]);
    expect(await sticksOut(page)).toEqual([]);

    await page.setViewportSize({ width: 1024, height: 768 });
    await banner.getByRole('button', { name: words.menu }).waitFor();
    expect(await overlapsInHeader(page)).toEqual([]);
    expect(await sticksOut(page)).toEqual([]);
    await banner.getByRole('button', { name: words.menu }).click();
    expect(await overlapsInHeader(page)).toEqual([]);
    await banner.getByRole('button', { name: words.signOut }).click();
    await page.waitForURL(/\/auth\/sign-in/);
  });
});

describe.each(['en', 'pt-BR'] as const)('practice in %s', (language) => {
  const words = LANGUAGES[language];

  it('is done by touch alone on a phone: tap the card, tap large ratings, hints that speak of tapping; then the heatmap shows today', async () => {
    const learner = await learnerWithCards(`touch-${language}`);
    const page = await openAs(`touch-${language}`, { ...PHONE, bypassCSP: true }, language, learner.cookie);
    const shots = process.env.ENGRAM_SCREENSHOTS === '1' && language === 'en' ? SCREENSHOTS : undefined;
    await page.goto(`${env.stack.url}/dashboard`);
    if (shots) {
      await page.getByText('Capital of Peru').first().waitFor();
      await networkSettled(page);
      await page.screenshot({ path: `${shots}/phone-dashboard.png` });
      await page.getByRole('banner').getByRole('button', { name: words.menu }).tap();
      await page.screenshot({ path: `${shots}/phone-menu.png` });
      await page.getByRole('banner').getByRole('button', { name: words.menu }).tap();
    }
    await page.getByRole('link', { name: words.practiceNow }).tap();
    await page.waitForURL(/\/practice\/session/);

    const question = page.getByRole('region', { name: words.question });
    for (let card = 0; card < 3; card += 1) {
      await question.waitFor();
      expect(await page.getByText(words.tapHint).isVisible()).toBe(true);
      expect(await page.getByText(words.keysHint).count()).toBe(0);
      expect(await page.locator('main kbd').count()).toBe(0);
      const showAnswer = page.getByRole('button', { name: words.showAnswer });
      expect((await showAnswer.boundingBox())?.height).toBeGreaterThanOrEqual(44);
      // The first card by tapping the card itself (its corner: a link in it opens), the next by the button.
      if (card === 0) await page.locator('article').tap({ position: { x: 8, y: 8 } });
      else await showAnswer.tap();
      await page.getByRole('region', { name: words.answer }).waitFor();
      expect(await sticksOut(page)).toEqual([]);
      for (const name of words.ratings) {
        const button = page.getByRole('button', { name: new RegExp(`^${name}`) });
        const box = await button.boundingBox();
        expect(box?.height).toBeGreaterThanOrEqual(44);
        expect(box?.width).toBeGreaterThanOrEqual(44);
        expect(await onScreen(page, button)).toBe(true);
      }
      if (card === 0) expect(await accessibilityViolations(page)).toEqual([]);
      if (card === 0) {
        // The count, Undo and "End session" share the row under the progress bar: no button wraps onto a row of
        // its own.
        const count = await page.getByTestId('session-progress').boundingBox();
        const end = await page.getByRole('button', { name: words.endSession }).boundingBox();
        expect(count && end && end.y < count.y + count.height && end.y + end.height > count.y).toBe(true);
        expect(await onScreen(page, page.getByRole('button', { name: words.endSession }))).toBe(true);
      }
      if (shots && (await question.getByText('Capital of Peru').count()) > 0) {
        await page.screenshot({ path: `${shots}/phone-practice.png` });
      }
      // Easy: the card graduates for days and does not come back within the session's learn-ahead.
      await page.getByRole('button', { name: new RegExp(`^${words.ratings[3]}`) }).tap();
    }
    await page.getByRole('heading', { name: words.done }).waitFor();

    // The dashboard: the charts fit the screen and the heatmap shows the latest week, today's reviews in it.
    await page.goto(`${env.stack.url}/dashboard`);
    const heatmap = page.getByRole('region', { name: words.heatmap });
    const today = heatmap.locator('svg rect').last();
    await today.waitFor();
    expect(await onScreen(page, today)).toBe(true);
    expect(await onScreen(page, heatmap.locator('svg rect').first())).toBe(false);
    expect(await onScreen(page, page.getByRole('region', { name: words.reviewsChart }).locator('canvas'))).toBe(true);
    expect(await sticksOut(page)).toEqual([]);
    // The narrowest phone it is made for.
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByText('Capital of Peru').first().waitFor();
    expect(await onScreen(page, today)).toBe(true);
    expect(await sticksOut(page)).toEqual([]);
  });

  it('names the keys on a laptop, where Space or Enter shows the answer', async () => {
    const learner = await learnerWithCards(`keys-${language}`);
    const page = await openAs(`keys-${language}`, LAPTOP, language, learner.cookie);
    await page.goto(`${env.stack.url}/practice/session`);
    await page.getByRole('region', { name: words.question }).waitFor();
    expect(await page.getByText(words.keysHint).isVisible()).toBe(true);
    expect(await page.getByText(words.tapHint).count()).toBe(0);
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: words.answer }).waitFor();
    await page.keyboard.press('3');
    await page.getByRole('region', { name: words.answer }).waitFor({ state: 'detached' });
    await page.keyboard.press('Space');
    await page.getByRole('region', { name: words.answer }).waitFor();
  });
});

describe.each(SCREENS)("the dashboard's figures arriving late, on %s", (_screenName, screen) => {
  it('move what is below them by no more than a line: a click aimed at Generate lands on it', async () => {
    const learner = await learnerWithCards(`charts-late-${screen === PHONE ? 'phone' : 'laptop'}`);
    const page = await openAs(`charts-late-${screen === PHONE ? 'phone' : 'laptop'}`, screen, 'en', learner.cookie);
    // The charts' figures held back, as on a slow network, and with them the progress, streak and plan the same
    // request asks (a CI run once clicked Generate as they arrived, and hit a chart instead).
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname.includes('cards.reviewMetrics'),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto(`${env.stack.url}/dashboard`);
    const generate = page.getByRole('region', { name: 'Generate cards' });
    await generate.waitFor();
    await page.getByTestId('charts-loading').waitFor();
    const before = (await generate.boundingBox())!.y;
    release();
    await page.getByRole('region', { name: LANGUAGES.en.reviewsChart }).waitFor();
    await networkSettled(page);
    const after = (await generate.boundingBox())!.y;
    expect(Math.abs(after - before)).toBeLessThanOrEqual(40);
  });
});
