// Issue 25's one renderer for a card, in a real Chromium through the real gateway, on a desktop and on a
// phone: Basic, Cloze (maths, and a deletion inside maths) and code cards show rendered — never their
// Markdown, TeX or cloze source — in the editor's preview, in the card list and in practice, with the
// deletion hidden as practice asks it and revealed in the answer. On a cold load a card's text shows at once, and
// its maths is typeset once the renderer has arrived: a card is never blank while it loads.
import { randomBytes } from 'node:crypto';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { newUser, signUpAndOnboard, useSessionCookie } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { chooseCardType } from './support/new-card.ts';

const env = useBrowserStack();

const LONG_URL = `https://example.com/${'a-very-long-path-segment-'.repeat(12)}end`;
const CARDS = {
  basic: { type: 'Basic', front: 'What does **FSRS** schedule?', back: `Each *review*, see ${LONG_URL}` },
  cloze: {
    type: 'Cloze',
    front: 'Einstein wrote $E = {{c1::mc^2}}$ in his paper on {{c2::relativity::a theory}}.',
    back: '',
  },
  code: {
    type: 'Basic',
    front: 'What does this print?\n\n```js\nconst pair = {{ a: 1 }}.a;\nconsole.log(pair);\n```',
    back: '`1`',
  },
  structure: {
    type: 'Basic',
    front: '## Mitosis\n\n> Cells divide in four phases.\n\n| Phase | Order |\n| --- | --- |\n| Prophase | 1 |',
    back: 'Prophase, metaphase, anaphase, telophase',
  },
} as const;

/** What no rendered card shows: cloze syntax, TeX delimiters, code fences, Markdown emphasis. */
const RAW_SOURCE = /\{\{c\d|::|\$|```|\*\*/;

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, touch: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
] as const;

async function fillCard(page: Page, card: (typeof CARDS)[keyof typeof CARDS]) {
  const form = page.getByRole('region', { name: 'New card' });
  await chooseCardType(form, card.type);
  await form.getByRole('textbox', { name: card.type === 'Cloze' ? 'Text with deletions' : 'Front' }).fill(card.front);
  await form.getByRole('textbox', { name: card.type === 'Cloze' ? 'Extra (optional)' : 'Back' }).fill(card.back);
}

async function addCard(page: Page, card: (typeof CARDS)[keyof typeof CARDS]) {
  const items = page.getByRole('list', { name: 'Your cards' }).getByTestId('compact-card');
  const before = await items.count();
  await fillCard(page, card);
  await page.getByRole('region', { name: 'New card' }).getByRole('button', { name: 'Add card' }).click();
  await expect.poll(() => items.count()).toBe(before + 1);
}

/** The region's visible text, once its renderer has drawn it. */
async function renderedText(region: Locator): Promise<string> {
  await region.locator('.prose-card:not([aria-busy])').first().waitFor();
  return region.innerText();
}

/** Nothing inside the element is wider than the element: long words and URLs wrap, code scrolls inside. */
const fitsItsBox = (element: Locator) => element.evaluate((node) => node.scrollWidth <= node.clientWidth);

describe.each(VIEWPORTS)('a card rendered one way on a $name', ({ name, viewport, touch }) => {
  it('shows Basic, Cloze and code cards rendered in the preview, the list and practice', async () => {
    const page = await openTestPage(env.browser, `card-rendering-${name}`, { viewport, hasTouch: touch });
    page.setDefaultTimeout(10_000);
    await signUpAndOnboard(page, env.stack.url, newUser(`render${name}`));
    const form = page.getByRole('region', { name: 'New card' });

    // The preview of the cloze card asks each deletion as practice will: the one in maths as a box.
    await fillCard(page, CARDS.cloze);
    await form.getByRole('button', { name: 'Show preview' }).click();
    const first = form.getByRole('region', { name: 'Card 1 of 2' });
    const firstQuestion = first.getByRole('region', { name: 'Question' });
    expect(await renderedText(firstQuestion)).not.toMatch(RAW_SOURCE);
    expect(await firstQuestion.locator('.katex .fbox').count()).toBe(1);
    expect(await first.getByRole('region', { name: 'Answer' }).innerText()).not.toMatch(RAW_SOURCE);
    const second = form.getByRole('region', { name: 'Card 2 of 2' });
    expect(await renderedText(second.getByRole('region', { name: 'Question' }))).toContain('[a theory]');
    await second.getByRole('region', { name: 'Answer' }).locator('strong', { hasText: 'relativity' }).waitFor();
    await form.getByRole('button', { name: 'Hide preview' }).click();

    await addCard(page, CARDS.cloze);
    await addCard(page, CARDS.basic);
    await addCard(page, CARDS.code);

    // The list: every card rendered compactly, none of its source showing, nothing wider than its card.
    const list = page.getByRole('list', { name: 'Your cards' });
    const cards = list.getByTestId('compact-card');
    for (const card of await cards.all()) {
      expect(await renderedText(card)).not.toMatch(RAW_SOURCE);
      expect(await fitsItsBox(card)).toBe(true);
    }
    const cloze = cards.filter({ hasText: 'Einstein wrote' });
    expect(await cloze.locator('.katex').count()).toBe(1);
    await cloze.locator('strong', { hasText: 'relativity' }).waitFor();
    await cards.filter({ hasText: 'What does' }).locator('strong', { hasText: 'FSRS' }).waitFor();
    await cards.locator('pre code', { hasText: 'const pair = {{ a: 1 }}.a;' }).waitFor();
    await cards.getByRole('link', { name: LONG_URL }).waitFor();

    // Practice: four review items (the cloze card asks each deletion), all rendered on both sides.
    await page.goto(`${env.stack.url}/practice/session`);
    const question = page.getByRole('region', { name: 'Question' });
    const asked: string[] = [];
    let boxedAnswers = 0;
    for (let i = 0; i < 4; i++) {
      const text = await renderedText(question);
      expect(text).not.toMatch(RAW_SOURCE);
      asked.push(text);
      const boxes = await question.locator('.katex .fbox').count();
      await page.getByRole('button', { name: /^Show answer/ }).click();
      const answer = page.getByRole('region', { name: 'Answer' });
      expect(await renderedText(answer)).not.toMatch(RAW_SOURCE);
      if (text.includes('Einstein') && boxes === 1) {
        // The deletion in maths is asked as a box and answered in a box holding the formula.
        expect(await answer.locator('.katex .fbox').count()).toBe(1);
        expect(await answer.locator('.katex-mathml annotation').textContent()).toContain('\\boxed{mc^2}');
        boxedAnswers++;
      }
      // Easy: a new card rated Good would come back within the session (learning ahead).
      await page.getByRole('button', { name: /^Easy/ }).click();
      if (i < 3) await expect.poll(async () => (await question.innerText()) !== text).toBe(true);
    }
    await page.waitForURL(/\/practice\/done\?/);
    expect(boxedAnswers).toBe(1);
    expect(asked.filter((text) => text.includes('Einstein'))).toHaveLength(2);
    expect(asked.some((text) => text.includes('[a theory]'))).toBe(true);
    expect(asked.some((text) => text.includes('const pair = {{ a: 1 }}.a;'))).toBe(true);
  });
});

describe.each(['light', 'dark'] as const)('rendered cards in the %s theme', (colorScheme) => {
  it('pass the accessibility checks in the list, the preview and practice', async () => {
    // The accessibility checker is a script the app's Content-Security-Policy would rightly refuse.
    const page = await openTestPage(env.browser, `card-rendering-axe-${colorScheme}`, { bypassCSP: true, colorScheme });
    page.setDefaultTimeout(10_000);
    await signUpAndOnboard(page, env.stack.url, newUser(`axe${colorScheme}`));
    await addCard(page, CARDS.cloze);
    await addCard(page, CARDS.code);
    await addCard(page, CARDS.structure);
    const cards = page.getByRole('list', { name: 'Your cards' }).getByTestId('compact-card');
    await cards.locator('pre code').waitFor();
    await cards.locator('.katex').waitFor();
    // Headings, quotes and tables read as such: a heading larger than the text, a quote ruled, a table's cells ruled.
    const structured = cards.filter({ has: page.locator('table') });
    const looks = await structured.evaluate((card) => {
      const view = globalThis as unknown as { getComputedStyle(element: unknown): Record<string, string> };
      const within = card as unknown as { querySelector(selector: string): unknown };
      const style = (selector: string) => view.getComputedStyle(within.querySelector(selector));
      return {
        heading: Number.parseFloat(style('h2').fontSize ?? '') / Number.parseFloat(style('td').fontSize ?? ''),
        headingWeight: style('h2').fontWeight,
        quote: style('blockquote').borderLeftWidth,
        cell: style('td').borderTopWidth,
      };
    });
    expect(looks).toEqual({ heading: expect.any(Number), headingWeight: '600', quote: '4px', cell: '1px' });
    expect(looks.heading).toBeGreaterThan(1.2);
    await fillCard(page, CARDS.basic);
    const form = page.getByRole('region', { name: 'New card' });
    await form.getByRole('button', { name: 'Show preview' }).click();
    await renderedText(form.getByRole('region', { name: 'Question' }));
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto(`${env.stack.url}/practice/session`);
    await renderedText(page.getByRole('region', { name: 'Question' }));
    await page.getByRole('button', { name: /^Show answer/ }).click();
    await renderedText(page.getByRole('region', { name: 'Answer' }));
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});

describe('a card on a cold load', () => {
  it('shows its text at once, and its maths once the renderer has arrived', async () => {
    const { url } = env.stack;
    const cookie = await signUpThroughGateway(url, 'Cold Loader', `cold-${randomBytes(4).toString('hex')}@example.com`);
    const api = trpcClient(url, cookie);
    await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
    await api.mutate('cards.create', { front: 'Energy of a mass at rest: $E = mc^2$', back: 'Einstein', tagIds: [] });

    const page = await openTestPage(env.browser, 'card-rendering-cold');
    page.setDefaultTimeout(15_000);
    await useSessionCookie(page, url, cookie);
    // The maths renderer (KaTeX) is held back, as on a slow connection: it arrives only once it is let through.
    let letThrough: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      letThrough = resolve;
    });
    let held = 0;
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      if (body.includes('KaTeX parse error')) {
        held += 1;
        await released;
      }
      await route.fulfill({ response, body });
    });

    await page.goto(`${url}/practice/session`);
    const question = page.getByRole('region', { name: 'Question' });
    await question.getByText('Energy of a mass at rest:').waitFor();
    expect({
      held: held > 0,
      busy: await question.locator('.prose-card').getAttribute('aria-busy'),
      typeset: await question.locator('.katex').count(),
    }).toEqual({ held: true, busy: 'true', typeset: 0 });

    letThrough();
    await question.locator('.prose-card:not([aria-busy]) .katex').waitFor();
    expect(await question.innerText()).not.toContain('$');
  });
});
