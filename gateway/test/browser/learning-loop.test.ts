import { mkdirSync } from 'node:fs';
// Issue 7's learning loop, in a real Chromium through the real gateway and every service: onboarding,
// cards with tags, a tag-filtered practice session driven by the keyboard with one undo, the results,
// and a dashboard whose streak and metrics match those reviews, loaded in one batched request.
import { launchBrowser } from '@engram/testkit/browser';
import { startTestStack, type TestStack } from '@engram/testkit/stack';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';

const ARTIFACTS = new URL('../../../.cache/test-artifacts', import.meta.url).pathname;
const DASHBOARD_LOADS = [
  'cards.progressMetrics',
  'cards.streak',
  'cards.reviewMetrics',
  'settings.getTimezone',
  'cards.list',
];

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function addCard(page: Page, card: { type: string; front: string; back?: string }) {
  const form = page.getByRole('region', { name: 'New card' });
  await form.getByText(card.type, { exact: true }).click();
  await form.getByRole('textbox', { name: card.type === 'Cloze' ? 'Text with deletions' : 'Front' }).fill(card.front);
  if (card.back) await form.getByRole('textbox', { name: 'Back' }).fill(card.back);
  await form.getByRole('button', { name: 'Add card' }).click();
  await page.getByRole('list', { name: 'Your cards' }).getByText(card.front).waitFor();
}

const question = (page: Page) => page.getByRole('region', { name: 'Question' });

const mathShown: string[] = [];

/** Shows the answer with Space and rates with a digit key; returns the question that was rated. */
async function rateWithKeys(page: Page, digit: '1' | '2' | '3' | '4') {
  const asked = await question(page).innerText();
  await page.keyboard.press('Space');
  await page.getByRole('region', { name: 'Answer' }).waitFor();
  if ((await question(page).locator('.katex').count()) > 0) mathShown.push(asked);
  await page.keyboard.press(digit);
  return asked;
}

describe('the learning loop', () => {
  it('onboards, adds tagged cards, practises a tag with the keyboard, undoes a rating and sees it on the dashboard', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    onTestFailed(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}/learning-loop.png`, fullPage: true });
    });
    const trpcRequests: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/trpc/')) trpcRequests.push(decodeURIComponent(url.pathname));
    });

    await page.goto(`${stack.url}/auth/sign-up`);
    await page.getByLabel('Name').fill('Lea Loop');
    await page.getByLabel('Email').fill(`loop-${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();

    // Onboarding: the detected timezone is offered and can be changed; the daily goal is chosen.
    await page.waitForURL(`${stack.url}/onboarding`);
    const timezone = page.getByRole('combobox', { name: 'Timezone' });
    expect(await timezone.inputValue()).not.toBe('');
    await timezone.fill('America/Sao_Paulo');
    await page.getByRole('spinbutton', { name: 'Daily goal' }).fill('15');
    await page.getByRole('button', { name: 'Start learning' }).click();
    await page.waitForURL(`${stack.url}/dashboard`);
    await page.getByText('Days counted in America/Sao_Paulo.').waitFor();

    // Cards: a reversed one and a cloze one with math, both tagged "geometry"; one more without the tag.
    const form = page.getByRole('region', { name: 'New card' });
    await form.getByRole('textbox', { name: 'Tags' }).fill('geometry');
    await form.getByRole('textbox', { name: 'Tags' }).press('Enter');
    await form.getByRole('button', { name: 'Remove tag geometry' }).waitFor();
    await addCard(page, { type: 'Reversed', front: 'Sides of a hexagon', back: 'Six' });
    // The type changes but the tags stay for the next card.
    await addCard(page, { type: 'Cloze', front: 'A square of side $x$ has area {{c1::$x^2$}}' });
    await form.getByRole('button', { name: 'Remove tag geometry' }).click();
    await addCard(page, { type: 'Basic', front: 'Capital of Peru', back: 'Lima' });
    const geometryCards = page
      .getByRole('list', { name: 'Your cards' })
      .getByRole('listitem')
      .filter({ hasText: 'geometry' });
    expect(await geometryCards.filter({ has: page.getByText('Reversed') }).count()).toBe(1);
    expect(await geometryCards.filter({ has: page.getByText('Cloze') }).count()).toBe(1);

    // /practice/new: four items are due (a reversed card asks both ways), three of them tagged geometry.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Practice' }).click();
    await page.waitForURL(`${stack.url}/practice/new`);
    await page.getByText('Due now: 4').waitFor();
    await page.getByRole('button', { name: 'geometry' }).click();
    await page.getByText('Due now: 3').waitFor();
    await page.getByRole('link', { name: 'Start' }).click();
    await page.waitForURL(/\/practice\/session\?tags=/);

    // Good; again, taken back with U (the same card returns); hard; again (it comes back last); good.
    const seen = new Set<string>();
    seen.add(await rateWithKeys(page, '3'));
    const forgotten = await rateWithKeys(page, '1');
    seen.add(forgotten);
    await page.keyboard.press('u');
    await expect.poll(() => question(page).innerText()).toBe(forgotten);
    await page.getByRole('button', { name: 'Show answer' }).waitFor();
    await rateWithKeys(page, '2');
    const again = await rateWithKeys(page, '1');
    seen.add(again);
    await expect.poll(() => question(page).innerText()).toBe(again);
    await rateWithKeys(page, '3');
    expect(seen.size).toBe(3);
    expect([...seen].some((text) => text.includes('Capital of Peru'))).toBe(false);
    // The cloze card's math went through KaTeX (never shown as raw $…$), and its deletion was hidden.
    expect(mathShown.some((text) => text.includes('A square of side'))).toBe(true);
    expect([...seen].some((text) => text.includes('$') || text.includes('{{c1::'))).toBe(false);

    await page.waitForURL(/\/practice\/done\?/);
    const done = new URL(page.url()).searchParams;
    expect(Object.fromEntries(done)).toEqual({ cardCount: '3', again: '1', hard: '1', good: '2', easy: '0' });
    await page.getByText('Cards reviewed: 3').waitFor();
    await page.getByText('Days in a row: 1').waitFor();

    // The dashboard, loaded afresh: every load in one batched request, and metrics that match.
    trpcRequests.length = 0;
    await page.goto(`${stack.url}/dashboard`);
    await page.getByRole('table', { name: 'Reviews per day by rating' }).waitFor({ state: 'attached' });
    await expect.poll(() => page.getByTestId('streak-current').innerText()).toBe('1');
    expect(await page.getByTestId('streak-longest').innerText()).toBe('1');
    expect(await page.getByTestId('goal-progress').innerText()).toBe('4 / 15 reviews');
    const batched = trpcRequests.filter((path) => DASHBOARD_LOADS.some((name) => path.includes(name)));
    expect(batched).toHaveLength(1);
    for (const name of DASHBOARD_LOADS) expect(batched[0]).toContain(name);

    const rows = page.getByRole('table', { name: 'Reviews per day by rating' }).locator('tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator('td').allInnerTexts()).toEqual(['4', '1', '1', '2', '0']);
    await page.getByText('Reviews in the last year: 4 · days with reviews: 1').first().waitFor();
  });
});
