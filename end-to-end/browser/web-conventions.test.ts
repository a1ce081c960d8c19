// The web app's shared conventions, in a real Chromium through the real gateway: its language (from the
// browser, switchable, remembered), error toasts in that language, the toast stack (docs/product.md#constants-
// and-limits), and the generic Not Found and "Something went wrong!" screens.
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newUser, signUpAndOnboard, useSessionCookie } from './support/auth.ts';
import { recordScripts, totalKb } from './support/javascript-budget.ts';

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
    await page.getByText('Entre para continuar de onde parou.').waitFor();
    await page.getByLabel('Nome de usuário ou e-mail', { exact: true }).fill(`nobody-${Date.now()}@example.com`);
    await page.getByLabel('Senha', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Entrar', exact: true }).click();
    await page.getByText('E-mail ou senha inválidos').waitFor();
    await page.getByRole('region', { name: 'Notificações alt+T' }).waitFor({ state: 'attached' });

    await page.getByLabel('Idioma').selectOption('en');
    await page.getByText('Sign in to pick up where you left off.').waitFor();
    expect(await documentLanguage(page)).toBe('en');
  });
});

// Scripts for the page, as text: these tests are compiled without the DOM's types.
/** Chooses `count` files Generate does not read, at once: each is refused with a toast of its own. */
const chooseUnreadableFiles = (count: number) => `{
  const input = document.querySelector('input[type=file]');
  for (let index = 0; index < ${count}; index += 1) {
    const files = new DataTransfer();
    files.items.add(new File(['notes'], 'notes-' + index + '.docx'));
    input.files = files.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }
}`;
/** The toasts a person can see: on the page and not faded out. */
const SEEN_TOASTS = `[...document.querySelectorAll('[data-sonner-toast]')]
  .filter((toast) => getComputedStyle(toast).opacity !== '0').length`;
/** Resolves once the page has run the tasks queued before it: React renders what a timer changed in a task of
 * its own (a MessageChannel message), so after two of ours the page shows what the timers did. */
const TASKS_DONE = `new Promise((resolve) => {
  const channel = new MessageChannel();
  let rounds = 0;
  channel.port1.onmessage = () => (++rounds === 2 ? resolve(true) : channel.port2.postMessage(null));
  channel.port2.postMessage(null);
})`;

describe('the toasts', () => {
  it('stack at the bottom right, 356 px wide, three at a time 14 px apart, each for 4 s, and are reached with Alt+T', async () => {
    const page = await openPage('toasts', 'en-US');
    await signUpAndOnboard(page, env.stack.url, newUser('toasts'));
    // The page's timers run on the test's clock: a toast's 4 s pass when the test says, however busy the machine.
    await page.clock.install();
    await page.goto(`${env.stack.url}/generate`);
    await page.getByRole('heading', { name: 'Generate cards', level: 1 }).waitFor();
    // The pointer away from the corner: sonner holds the toasts of a stack under it.
    await page.mouse.move(0, 0);
    // The stack's code loads with the first toast (lib/toast.ts); with it on the page, time stops.
    const toasts = page.locator('[data-sonner-toast]');
    await page.evaluate(chooseUnreadableFiles(1));
    await toasts.waitFor();
    await page.clock.pauseAt(((await page.evaluate('Date.now()')) as number) + 1_000);
    await page.clock.runFor(5_000);
    await expect.poll(() => toasts.count()).toBe(0);
    /** Moves the clock on 1 ms at a time until `count` toasts are up (sonner adds each from a timer), so each
     * one's 4 s start within a few ms of the others'. */
    const toastsUp = (count: number) =>
      expect
        .poll(async () => {
          await page.clock.runFor(1);
          return toasts.count();
        })
        .toBe(count);

    // Four at once: three are shown, the oldest hidden behind them.
    await page.evaluate(chooseUnreadableFiles(4));
    await toastsUp(4);
    expect(await page.getByText('Only .md, .txt and PDF files can be used.').count()).toBe(4);
    await expect.poll(() => page.evaluate(SEEN_TOASTS)).toBe(3);

    // The newest in front, 356 px wide, in the bottom-right corner of the window.
    const viewport = page.viewportSize()!;
    const front = page.locator('[data-sonner-toast][data-front="true"]');
    await expect
      .poll(async () => {
        const box = (await front.boundingBox())!;
        return {
          width: Math.round(box.width),
          rightHalf: box.x > viewport.width / 2,
          lowerHalf: box.y > viewport.height / 2,
          nearRight: viewport.width - (box.x + box.width) <= 32,
          nearBottom: viewport.height - (box.y + box.height) <= 32,
        };
      })
      .toEqual({ width: 356, rightHalf: true, lowerHalf: true, nearRight: true, nearBottom: true });

    // Each stays 4 s: all four are there 3.9 s on, and on their way out (sonner's 200 ms exit) by 4.1 s.
    const leaving = page.locator('[data-sonner-toast][data-removed="true"]');
    await page.clock.runFor(3_900);
    await page.evaluate(TASKS_DONE);
    expect(await toasts.count()).toBe(4);
    expect(await leaving.count()).toBe(0);
    await page.clock.runFor(200);
    await expect.poll(() => leaving.count()).toBe(4);
    await page.clock.runFor(300);
    await expect.poll(() => toasts.count()).toBe(0);

    // Alt+T takes the keyboard to the stack, which opens out: each toast 14 px from the next.
    await page.evaluate(chooseUnreadableFiles(2));
    await toastsUp(2);
    await page.keyboard.press('Alt+KeyT');
    const stack = page.getByRole('region', { name: 'Notifications alt+T' });
    await expect.poll(() => stack.locator('[data-sonner-toaster]:focus').count()).toBe(1);
    const behind = page.locator('[data-sonner-toast][data-index="1"]');
    await expect
      .poll(async () => {
        const [first, second] = [(await front.boundingBox())!, (await behind.boundingBox())!];
        return Math.round(first.y - (second.y + second.height));
      })
      .toBe(14);
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

    await signUpAndOnboard(page, env.stack.url, newUser('offline'));

    // Three retries back off 1 s, 2 s and 4 s before the failure is reported.
    const toast = page.getByText('Could not reach the server. Check your connection and try again.');
    await toast.waitFor({ timeout: 20_000 });
    await page.getByRole('alert').getByText('Your cards could not be loaded.').waitFor();
    expect(await toast.count()).toBe(1);
  });
});

describe('a card with an image on another site', () => {
  it('shows it as a link in practice, and the page asks no other site for anything', async () => {
    const page = await openPage('remote-image', 'en-US');
    const { origin } = new URL(env.stack.url);
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== origin && !['data:', 'blob:'].includes(url.protocol)) elsewhere.push(request.url());
    });
    // Nothing leaves the machine, whatever the page asks for.
    await page.route(
      (url) => url.origin !== origin,
      (route) => route.abort('blockedbyclient'),
    );
    await signUpAndOnboard(page, env.stack.url, newUser('pixel'));
    const created = await page.evaluate(async () => {
      const response = await fetch('/api/trpc/cards.create', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          front: 'Which bird? ![a kingfisher](https://tracker.example/p.gif)',
          back: 'Kingfisher',
        }),
      });
      return response.status;
    });
    expect(created).toBe(200);

    await page.goto(`${env.stack.url}/practice/new`);
    await page.getByRole('link', { name: 'Start' }).click();
    const question = page.getByRole('region', { name: 'Question' });
    await question.getByText('Which bird?').waitFor();
    const link = question.getByRole('link', { name: 'a kingfisher' });
    expect(await link.getAttribute('href')).toBe('https://tracker.example/p.gif');
    expect(await question.locator('img').count()).toBe(0);
    expect(elsewhere).toEqual([]);
  });
});

describe('a card with maths', () => {
  it("loads KaTeX's fonts (the large delimiters' too) with nothing blocked by the page's policy", async () => {
    const page = await openPage('maths-fonts', 'en-US');
    // Scripts for the page, as text: these tests are compiled without the DOM's types.
    await page.addInitScript(`
      window.violations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        window.violations.push(event.violatedDirective + ' ' + event.blockedURI));
    `);
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) refused.push(message.text());
    });
    await signUpAndOnboard(page, env.stack.url, newUser('maths'));
    const created = await page.evaluate(async () => {
      const response = await fetch('/api/trpc/cards.create', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          front: 'Nested: $\\big( \\Big( \\bigg( \\Bigg( x^2 \\Bigg) \\bigg) \\Big) \\big)$',
          back: 'Four sizes',
        }),
      });
      return response.status;
    });
    expect(created).toBe(200);

    await page.goto(`${env.stack.url}/practice/new`);
    await page.getByRole('link', { name: 'Start' }).click();
    const question = page.getByRole('region', { name: 'Question' });
    await question.locator('.katex').first().waitFor();
    const loaded = await page.evaluate(`document.fonts.ready.then(() =>
      [...document.fonts].filter((font) => font.status === 'loaded').map((font) => font.family.replaceAll('"', '')))`);
    expect(loaded).toEqual(expect.arrayContaining(['KaTeX_Main', 'KaTeX_Size3', 'KaTeX_Size4']));
    expect(await page.evaluate('window.violations')).toEqual([]);
    expect(refused).toEqual([]);
  });
});

/**
 * The JavaScript budgets of a first visit, gzipped (docs/product.md#languages-layout-and-accessibility). Sign-in's
 * went from 280 to 282 with organization roles (owner, admin, member and guest by name, shared with the dashboard's
 * invitations) and Google One Tap (following the cookie decision; its client itself loads only where configured
 * and accepted): 279.8 KB before them, 281.0 after.
 */
const BUDGET_KB = { landing: 150, signIn: 282, anyRoute: 355 };
/** The routes the budget test visits. */
const FIRST_VISITS = 15;

describe('the JavaScript a first visit downloads', () => {
  /**
   * Opens `path` in a fresh profile and waits until `ready` is done and the network is quiet. Links that
   * scroll into view fetch the code of the page they lead to; that is the next page's cost, not this one's,
   * so the measured page never sees anything come into view.
   */
  async function firstVisit(path: string, ready: (page: Page) => Promise<unknown>, cookie?: string) {
    const page = await openTestPage(env.browser, `budget${path.replaceAll('/', '-')}`, {
      locale: 'en-US',
      cookieBannerAnswered: false,
    });
    await page.addInitScript({
      content:
        'globalThis.IntersectionObserver = class { observe() {} unobserve() {} disconnect() {} takeRecords() { return []; } };',
    });
    if (cookie) await useSessionCookie(page, env.stack.url, cookie);
    const scripts = recordScripts(page, env.stack.url);
    await page.goto(`${env.stack.url}${path}`);
    await ready(page);
    await page.waitForLoadState('networkidle');
    return totalKb(scripts);
  }

  /** Ready once the page shows `heading` and the cookie banner a first visit gets (part of the budget). */
  const withBanner = (heading: string) => async (page: Page) => {
    await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
    await page.getByRole('dialog', { name: 'Cookies on Engram' }).waitFor();
  };

  // Fifteen first visits, each in a fresh profile that downloads everything: seconds each on a busy machine, so
  // the time the test may take is counted per visit, not the default for one test.
  it('stays within the budgets of the landing page, the sign-in page and every other route', {
    timeout: FIRST_VISITS * 15_000,
  }, async () => {
    const landing = await firstVisit('/', withBanner('Turn what you learn into what you remember'));
    const help = await firstVisit('/help', withBanner('Help'));
    const terms = await firstVisit('/terms', withBanner('Terms of service'));
    const privacy = await firstVisit('/privacy', withBanner('Privacy notice'));
    const signIn = await firstVisit('/auth/sign-in', async (page) => {
      await page.getByLabel('Password', { exact: true }).waitFor();
      await page.getByRole('dialog', { name: 'Cookies on Engram' }).waitFor();
    });
    const signUp = await firstVisit('/auth/sign-up', (page) => page.getByLabel('Username').waitFor());
    const cookie = await signUpThroughGateway(env.stack.url, 'budget');
    const onboarding = await firstVisit(
      '/onboarding',
      async (page) => {
        await page.getByRole('button', { name: 'Start learning' }).click();
        await page.waitForURL(`${env.stack.url}/dashboard`);
      },
      cookie,
    );
    const dashboard = await firstVisit('/dashboard', (page) => page.getByText('Your cards').first().waitFor(), cookie);
    const generate = await firstVisit(
      '/generate',
      (page) => page.getByRole('heading', { name: 'Generate cards', level: 1 }).waitFor(),
      cookie,
    );
    const importing = await firstVisit(
      '/import',
      (page) => page.getByRole('heading', { name: 'Import cards', level: 1 }).waitFor(),
      cookie,
    );
    const browsing = await firstVisit(
      '/browse',
      (page) => page.getByRole('heading', { name: 'Browse', level: 1 }).waitFor(),
      cookie,
    );
    const practice = await firstVisit(
      '/practice/new',
      (page) => page.getByRole('heading', { name: 'Practice' }).waitFor(),
      cookie,
    );
    const settings = await firstVisit(
      '/settings',
      (page) => page.getByRole('heading', { name: 'Settings' }).waitFor(),
      cookie,
    );
    const plans = await firstVisit(
      '/billing/plans',
      (page) => page.getByText('Current plan').first().waitFor(),
      cookie,
    );
    const account = await firstVisit(
      '/account/settings',
      (page) => page.getByText('Avatar', { exact: true }).waitFor(),
      cookie,
    );
    const security = await firstVisit(
      '/account/security',
      (page) => page.getByText('Sessions', { exact: true }).waitFor(),
      cookie,
    );

    console.info(
      `JavaScript of a first visit (KB gzipped): / ${landing}, /help ${help}, /terms ${terms}, /privacy ${privacy}, ` +
        `/auth/sign-in ${signIn}, /auth/sign-up ${signUp}, /onboarding ${onboarding}, /dashboard ${dashboard}, ` +
        `/generate ${generate}, /import ${importing}, /browse ${browsing}, /practice/new ${practice}, /settings ${settings}, /billing/plans ${plans}, ` +
        `/account/settings ${account}, ` +
        `/account/security ${security}`,
    );
    expect(landing).toBeLessThanOrEqual(BUDGET_KB.landing);
    expect(signIn).toBeLessThanOrEqual(BUDGET_KB.signIn);
    for (const kb of [
      help,
      terms,
      privacy,
      signUp,
      onboarding,
      dashboard,
      generate,
      importing,
      browsing,
      practice,
      settings,
      plans,
      account,
      security,
    ])
      expect(kb).toBeLessThanOrEqual(BUDGET_KB.anyRoute);
  });
});
