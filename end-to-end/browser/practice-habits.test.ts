// The habits Anki learners bring (issue 25), in a real Chromium through the real gateway and services:
// Ctrl+Enter adds a card and a counter shows near a side's limit; each rating button names the interval it
// gives; a card rated Again comes back within the session (learning ahead) instead of the session ending;
// the session's position, ratings and undo survive a reload; and on a phone the labels are there too.
import { CARD_SIDE_MAX_LENGTH } from '@engram/contracts/cards';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newUser, signUp, signUpAndOnboard } from './support/auth.ts';
import { PHONE } from './support/screens.ts';

const env = useBrowserStack();

const question = (page: Page) => page.getByRole('region', { name: 'Question' });
const interval = (page: Page, rating: 'again' | 'hard' | 'good' | 'easy') =>
  page.getByTestId(`interval-${rating}`).innerText();

/** Shows the answer with Space and rates with a digit key; returns the question that was rated. */
async function rateWithKeys(page: Page, digit: '1' | '2' | '3' | '4') {
  const asked = await question(page).innerText();
  await page.keyboard.press('Space');
  await page.getByRole('region', { name: 'Answer' }).waitFor();
  await page.keyboard.press(digit);
  return asked;
}

/** Cards made through the API, as the learning loop's tests do, for the tests that are not about the form. */
async function createCards(page: Page, cards: { front: string; back: string }[]) {
  await page.evaluate(async (input) => {
    const response = await fetch('/api/trpc/cards.createMany', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cards: input }),
    });
    if (!response.ok) throw new Error(`cards.createMany answered ${response.status}`);
  }, cards);
}

describe('practice habits', () => {
  it('adds cards with Ctrl+Enter, counts characters near the limit, and shows the interval of each rating', async () => {
    const page = await openTestPage(env.browser, 'practice-habits-form', { viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    const { stack } = env;
    await signUpAndOnboard(page, stack.url, newUser('habits'));

    const form = page.getByRole('region', { name: 'New card' });
    const front = form.getByRole('textbox', { name: 'Front' });
    // No counter while the text is far from the limit; one from 90% of it on, in red past it.
    await front.fill('x'.repeat(100));
    expect(await form.getByText(/characters$/).count()).toBe(0);
    await front.fill('x'.repeat(CARD_SIDE_MAX_LENGTH - 150));
    const near = form.getByText('1,850 / 2,000 characters');
    expect(await near.getAttribute('class')).not.toContain('text-red');
    await front.fill('x'.repeat(CARD_SIDE_MAX_LENGTH + 1));
    const over = form.getByText('2,001 / 2,000 characters');
    expect(await over.getAttribute('class')).toContain('text-red');
    expect(await front.getAttribute('aria-describedby')).toContain(await over.getAttribute('id'));

    // Ctrl+Enter from the back field adds the card; the form is ready for the next one.
    await front.fill('Capital of Chile');
    await form.getByRole('textbox', { name: 'Back' }).fill('Santiago');
    await form.getByRole('textbox', { name: 'Back' }).press('Control+Enter');
    const list = page.getByRole('list', { name: 'Your cards' });
    await list.getByText('Capital of Chile').waitFor();
    await expect.poll(() => front.inputValue()).toBe('');
    await form.getByText('Ctrl+Enter adds the card').waitFor();

    // The rating buttons name what each rating gives a new card under the default steps (1m 10m).
    await page.goto(`${stack.url}/practice/session`);
    await question(page).waitFor();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: /^Again/ }).waitFor();
    expect([await interval(page, 'again'), await interval(page, 'hard'), await interval(page, 'good')]).toEqual([
      '1m',
      '6m',
      '10m',
    ]);
    expect(await interval(page, 'easy')).toMatch(/^\d+d$/);
    expect(await page.getByRole('button', { name: /^Good/ }).innerText()).toContain('10m');
  });

  it('brings a card rated Again back within the session, and keeps the session across a reload', async () => {
    const page = await openTestPage(env.browser, 'practice-habits-session', { viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    const { stack } = env;
    await signUpAndOnboard(page, stack.url, newUser('ahead'));
    await createCards(page, [
      { front: 'Capital of Peru', back: 'Lima' },
      { front: 'Capital of Chile', back: 'Santiago' },
    ]);

    await page.goto(`${stack.url}/practice/session`);
    await question(page).waitFor();
    const forgotten = await rateWithKeys(page, '1');
    const other = await question(page).innerText();
    expect(other).not.toBe(forgotten);
    await page.getByText('1 answered · 2 to go', { exact: true }).waitFor();

    // A reload goes on at the same card, with the rating so far counted and undoable.
    await page.reload();
    await question(page).waitFor();
    expect(await question(page).innerText()).toBe(other);
    await page.getByText('1 answered · 2 to go', { exact: true }).waitFor();
    await page.keyboard.press('u');
    await expect.poll(() => question(page).innerText()).toBe(forgotten);
    await rateWithKeys(page, '1');
    await expect.poll(() => question(page).innerText()).toBe(other);

    // The other card goes away for days; the forgotten one, due in a minute, comes back now (learning
    // ahead) rather than the session ending, with the intervals the server gives its next step.
    await rateWithKeys(page, '4');
    await expect.poll(() => question(page).innerText()).toBe(forgotten);
    expect(page.url()).toContain('/practice/session');
    await page.keyboard.press('Space');
    await expect.poll(() => interval(page, 'again')).toBe('1m');
    expect(await interval(page, 'good')).toBe('10m');
    await page.keyboard.press('4');

    await page.waitForURL(/\/practice\/done\?/);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      cardCount: '2',
      again: '1',
      hard: '0',
      good: '0',
      easy: '2',
    });
    // The finished session is gone from the tab: a new one starts from what is due (nothing).
    expect(
      await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('engram.practice'))),
    ).toEqual([]);
    await page.goto(`${stack.url}/practice/session`);
    await page.getByText('Nothing is due').waitFor();
  });

  it('shows the intervals on the rating buttons on a phone', async () => {
    const page = await openTestPage(env.browser, 'practice-habits-phone', PHONE);
    page.setDefaultTimeout(10_000);
    const { stack } = env;
    await signUp(page, stack.url, newUser('phone'));
    // Pressed from the keyboard: the onboarding page is still wider than a phone (issue 25's layout part).
    await page.getByRole('button', { name: 'Start learning' }).press('Enter');
    await page.waitForURL(`${stack.url}/dashboard`);
    await createCards(page, [{ front: 'Capital of Peru', back: 'Lima' }]);
    await page.goto(`${stack.url}/practice/session`);
    await page.getByRole('button', { name: 'Show answer' }).tap();
    await page.getByRole('region', { name: 'Answer' }).waitFor();
    for (const [rating, label] of [
      ['Again', '1m'],
      ['Hard', '6m'],
      ['Good', '10m'],
    ] as const) {
      const button = page.getByRole('button', { name: new RegExp(`^${rating}`) });
      expect(await button.innerText()).toContain(label);
      expect(await button.isVisible()).toBe(true);
    }
  });
});
