// Every page passes axe-core's WCAG 2 A and AA rules, in the light and the dark theme, with the cookie
// banner as a first visit sees it: the visitor's pages, the auth views and the signed-in app. To cover a
// new page, add it to VISITOR_PAGES or appPages with what shows it is ready.
import { networkSettled, openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './support/axe.ts';

const env = useBrowserStack();

interface PageUnderTest {
  path: string;
  /** Resolves once the page shows its content. */
  ready: (page: Page) => Promise<unknown>;
}

const heading = (name: string) => (page: Page) => page.getByRole('heading', { name, exact: true }).first().waitFor();
const text = (value: string) => (page: Page) => page.getByText(value, { exact: true }).first().waitFor();
const label = (value: string) => (page: Page) => page.getByLabel(value, { exact: true }).first().waitFor();

/** Pages a visitor opens without signing in. */
const VISITOR_PAGES: PageUnderTest[] = [
  { path: '/', ready: heading('Turn what you learn into what you remember') },
  { path: '/help', ready: heading('Help') },
  { path: '/terms', ready: heading('Terms of service') },
  { path: '/privacy', ready: heading('Privacy notice') },
  { path: '/auth/sign-in', ready: label('Password') },
  { path: '/auth/sign-up', ready: label('Username') },
  { path: '/auth/forgot-password', ready: label('Email') },
  { path: '/auth/magic-link', ready: label('Email') },
  { path: '/auth/email-otp', ready: label('Email') },
  { path: '/auth/phone-number', ready: label('Password') },
  { path: '/no-such-page', ready: heading('Not Found') },
];

/**
 * Pages of the signed-in, onboarded app (onboarding itself is checked on the way in), for a learner who owns
 * the organization `slug`.
 */
const appPages = (slug: string): PageUnderTest[] => [
  { path: '/dashboard', ready: text('Your cards') },
  { path: '/practice/new', ready: heading('Practice') },
  { path: '/practice/session', ready: (page) => page.getByRole('button', { name: /^Show answer/ }).waitFor() },
  { path: '/practice/done?cardCount=3&again=1&good=2', ready: heading('Session complete') },
  { path: '/settings', ready: heading('Settings') },
  { path: '/import', ready: heading('Import cards') },
  { path: '/browse?q=tag%3Aspanish', ready: heading('Browse') },
  { path: '/browse?view=duplicates', ready: heading('Browse') },
  { path: '/account/settings', ready: text('Phone number') },
  { path: '/account/security', ready: text('Sessions') },
  { path: '/billing/plans', ready: heading('Plans') },
  { path: '/billing/success?session_id=cs_unknown', ready: heading('We could not find this checkout.') },
  { path: '/billing/cancel', ready: heading('Checkout cancelled') },
  { path: `/organization/${slug}/learning`, ready: label('Deck name') },
];

async function violationsOn(page: Page, target: PageUnderTest): Promise<string[]> {
  await page.goto(`${env.stack.url}${target.path}`);
  await target.ready(page);
  await networkSettled(page);
  return (await accessibilityViolations(page)).map((violation) => `${target.path}: ${violation}`);
}

interface Learner {
  /** Their Cookie header. */
  cookie: string;
  /** The slug of the organization they own. */
  slug: string;
}

let learner: Learner;

async function post(path: string, cookie: string, body: unknown): Promise<void> {
  const response = await fetch(`${env.stack.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: env.stack.url },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} failed: ${response.status} ${await response.text()}`);
}

/**
 * A new learner with one card due now (so the practice session has something to show) and an organization
 * of their own (for its learning view).
 */
async function learnerWithACard(name: string): Promise<Learner> {
  const cookie = await signUpThroughGateway(env.stack.url, name);
  await post('/api/trpc/cards.create', cookie, { front: 'What does FSRS schedule?', back: 'Reviews' });
  const slug = `${name}-club-${Date.now().toString(36)}`;
  await post('/api/auth/organization/create', cookie, { name: 'Axe Club', slug });
  return { cookie, slug };
}

const cookiesOf = (header: string) =>
  header.split('; ').map((pair) => {
    const [name = '', ...value] = pair.split('=');
    return { name, value: value.join('='), url: env.stack.url };
  });

beforeAll(async () => {
  learner = await learnerWithACard('axe');
});

async function signedIn(name: string, colorScheme: 'light' | 'dark'): Promise<Page> {
  const page = await openTestPage(env.browser, name, {
    locale: 'en-US',
    colorScheme,
    bypassCSP: true,
    cookieBannerAnswered: false,
  });
  await page.context().addCookies(cookiesOf(learner.cookie));
  return page;
}

describe.each(['light', 'dark'] as const)('in the %s theme', (colorScheme) => {
  it('every visitor page, with the cookie banner showing, has no WCAG 2 A or AA violation', async () => {
    const page = await openTestPage(env.browser, `axe-visitor-${colorScheme}`, {
      locale: 'en-US',
      colorScheme,
      bypassCSP: true,
      cookieBannerAnswered: false,
    });
    const found: string[] = [];
    for (const target of VISITOR_PAGES) found.push(...(await violationsOn(page, target)));
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe(colorScheme);
    expect(await page.getByRole('dialog', { name: 'Cookies on Engram' }).isVisible()).toBe(true);
    expect(found).toEqual([]);
  });

  it('the cookie preferences have no WCAG 2 A or AA violation', async () => {
    const page = await openTestPage(env.browser, `axe-preferences-${colorScheme}`, {
      locale: 'en-US',
      colorScheme,
      bypassCSP: true,
      cookieBannerAnswered: false,
    });
    await page.goto(env.stack.url);
    await page.getByRole('button', { name: 'Choose' }).click();
    const preferences = page.getByRole('dialog', { name: 'Cookie settings' });
    await preferences.waitFor();
    await preferences.getByRole('button', { name: /^Analytics/ }).click();
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('every page of the signed-in app, onboarding included, has no WCAG 2 A or AA violation', async () => {
    const page = await signedIn(`axe-app-${colorScheme}`, colorScheme);
    const found: string[] = [];
    if (colorScheme === 'light') {
      // Onboarding is shown once; the light pass walks through it.
      found.push(...(await violationsOn(page, { path: '/onboarding', ready: text('Start learning') })));
      await page.getByRole('button', { name: 'Start learning' }).click();
      await page.waitForURL(`${env.stack.url}/dashboard`);
    } else {
      await page.goto(`${env.stack.url}/dashboard`);
    }
    // The banner has been checked on the visitor pages; here it is answered, as a returning user has.
    await page
      .getByRole('dialog', { name: 'Cookies on Engram' })
      .getByRole('button', { name: 'Necessary only' })
      .click();
    for (const target of appPages(learner.slug)) found.push(...(await violationsOn(page, target)));
    expect(found).toEqual([]);
  });
});

/** The controls Tab reaches on the page as it is (up to `presses`), and those that show no ring or outline. */
async function focusStops(page: Page, presses = 30): Promise<{ reached: number; unmarked: string[] }> {
  const reached = new Set<string>();
  const unmarked = new Set<string>();
  for (let step = 0; step < presses; step++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate<{ name: string; marked: boolean } | null>(`(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return null;
      const style = getComputedStyle(element);
      const outline = style.outlineStyle !== 'none' && style.outlineWidth !== '0px';
      const name = element.tagName + ' ' + (element.getAttribute('aria-label') || element.textContent || '').trim().slice(0, 40);
      return { name, marked: outline || style.boxShadow !== 'none' };
    })()`);
    if (stop) reached.add(stop.name);
    if (stop && !stop.marked) unmarked.add(stop.name);
  }
  return { reached: reached.size, unmarked: [...unmarked] };
}

describe('with the keyboard alone', () => {
  it('every control of every page shows where focus is', async () => {
    const page = await openTestPage(env.browser, 'focus-everywhere', { locale: 'en-US' });
    const found: string[] = [];
    const walk = async (target: PageUnderTest) => {
      await page.goto(`${env.stack.url}${target.path}`);
      await target.ready(page);
      await networkSettled(page);
      const { reached, unmarked } = await focusStops(page);
      // Every page has at least its skip link, a link home and the footer's controls.
      if (reached < 3) found.push(`${target.path}: only ${reached} controls reached`);
      found.push(...unmarked.map((name) => `${target.path}: ${name}`));
    };
    for (const target of VISITOR_PAGES) await walk(target);
    const keyboardLearner = await learnerWithACard('keyboard');
    await page.context().addCookies(cookiesOf(keyboardLearner.cookie));
    await walk({ path: '/onboarding', ready: text('Start learning') });
    await page.getByRole('button', { name: 'Start learning' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);
    for (const target of appPages(keyboardLearner.slug)) await walk(target);
    expect(found).toEqual([]);
  });
});
