// Issue 7's learning loop, in a real Chromium through the real gateway and every service: onboarding,
// cards with tags, a tag-filtered practice session driven by the keyboard with one undo, the results,
// and a dashboard whose streak and metrics match those reviews, loaded in one batched request.
import { randomBytes } from 'node:crypto';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { newUser, signUp, useSessionCookie } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { DASHBOARD_LOADS } from './support/dashboard.ts';
import { chooseCardType } from './support/new-card.ts';

const env = useBrowserStack();

async function addCard(page: Page, card: { type: string; front: string; back?: string }) {
  const form = page.getByRole('region', { name: 'New card' });
  // The list shows cards rendered (a cloze card's maths typeset), so the new card is counted, not read.
  const listed = page.getByRole('list', { name: 'Your cards' }).getByTestId('compact-card');
  const before = await listed.count();
  await chooseCardType(form, card.type);
  await form.getByRole('textbox', { name: card.type === 'Cloze' ? 'Text with deletions' : 'Front' }).fill(card.front);
  if (card.back) await form.getByRole('textbox', { name: 'Back' }).fill(card.back);
  await form.getByRole('button', { name: 'Add card' }).click();
  await expect.poll(() => listed.count()).toBe(before + 1);
}

const question = (page: Page) => page.getByRole('region', { name: 'Question' });

const mathShown: string[] = [];

/** Shows the answer with Space and rates with a digit key; returns the question that was rated. */
async function rateWithKeys(page: Page, digit: '1' | '2' | '3' | '4') {
  const asked = await question(page).innerText();
  await page.keyboard.press('Space');
  await page.getByRole('region', { name: 'Answer' }).waitFor();
  // The text shows at once; its maths is typeset once the renderer has it (no longer busy).
  await question(page).locator('.prose-card:not([aria-busy])').first().waitFor();
  if ((await question(page).locator('.katex').count()) > 0) mathShown.push(asked);
  await page.keyboard.press(digit);
  return asked;
}

describe('tags typed on a card', () => {
  it('keeps a tag the learner already has when its name is typed with Enter, past the tags loaded so far', async () => {
    const { stack } = env;
    const cookie = await signUpThroughGateway(
      stack.url,
      'Tao Tags',
      `tags-${randomBytes(4).toString('hex')}@example.com`,
    );
    const api = trpcClient(stack.url, cookie);
    await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
    // Sixty tags, as an imported collection's decks and tags bring: "zz last" sorts past the first page of 50.
    for (let n = 0; n < 59; n += 1) await api.mutate('cards.createTag', { name: `deck ${String(n).padStart(2, '0')}` });
    await api.mutate('cards.createTag', { name: 'zz last' });

    const page = await openTestPage(env.browser, 'tags-typed');
    page.setDefaultTimeout(10_000);
    await useSessionCookie(page, stack.url, cookie);
    await page.goto(`${stack.url}/dashboard`);
    const form = page.getByRole('region', { name: 'New card' });
    const tags = form.getByRole('textbox', { name: 'Tags' });
    await tags.click();
    await tags.fill('ZZ Last');
    await tags.press('Enter');
    // Before, this answered "A tag with this name already exists" and the card was saved without it.
    await form.getByRole('button', { name: 'Remove tag zz last' }).waitFor();
    await addCard(page, { type: 'Basic', front: 'Tagged card', back: 'kept' });
    const { items } = await api.query('cards.list', { pageSize: 10, archived: false });
    expect(
      items.map((card: { front: string; tags: { name: string }[] }) => [card.front, card.tags.map((t) => t.name)]),
    ).toEqual([['Tagged card', ['zz last']]]);
    expect(await page.getByText('A tag with this name already exists.').count()).toBe(0);
  });
});

describe('the learning loop', () => {
  it('onboards, adds tagged cards, practises a tag with the keyboard, undoes a rating and sees it on the dashboard', async () => {
    // The accessibility checker is a script the app's Content-Security-Policy would rightly refuse.
    const page = await openTestPage(env.browser, 'learning-loop', { bypassCSP: true });
    page.setDefaultTimeout(10_000);
    const { stack } = env;
    const trpcRequests: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/trpc/')) trpcRequests.push(decodeURIComponent(url.pathname));
    });

    await signUp(page, stack.url, { ...newUser('loop'), name: 'Lea Loop' });

    // Onboarding: the detected timezone is offered and can be changed; the daily goal is chosen.
    const timezone = page.getByRole('combobox', { name: 'Timezone' });
    await timezone.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
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
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Start' }).click();
    await page.waitForURL(/\/practice\/session\?tags=/);

    // Good; again, taken back with U (the same card returns); hard; again (due first, in a minute, it comes
    // back once the others are done); good. The cards rated good and hard fall due within 20 minutes, so the
    // session would learn ahead: it is ended here.
    const seen = new Set<string>();
    await question(page).waitFor();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: /^Again/ }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
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
    await question(page).waitFor();
    await page.getByRole('button', { name: 'End session' }).click();
    expect(seen.size).toBe(3);
    expect([...seen].some((text) => text.includes('Capital of Peru'))).toBe(false);
    // The cloze card's math went through KaTeX (never shown as raw $…$), and its deletion was hidden.
    expect(mathShown.some((text) => text.includes('A square of side'))).toBe(true);
    expect([...seen].some((text) => text.includes('$') || text.includes('{{c1::'))).toBe(false);

    await page.waitForURL(/\/practice\/done\?/);
    const done = new URL(page.url()).searchParams;
    expect(Object.fromEntries(done)).toEqual({ cardCount: '3', again: '1', hard: '1', good: '2', easy: '0' });
    // Three cards, four answers: the card missed came back, and the line says both.
    await page.getByText('Cards reviewed: 3 · answers: 4 (a card you missed comes back)', { exact: true }).waitFor();
    await page.getByText('Days in a row: 1').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

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
    expect(await accessibilityViolations(page)).toEqual([]);
    // Pointing at today's bar shows that day's ratings.
    await page.locator('.uplot .u-over').first().scrollIntoViewIfNeeded();
    const plot = await page.locator('.uplot .u-over').first().boundingBox();
    if (!plot) throw new Error('the reviews chart was not drawn');
    await page.mouse.move(plot.x + plot.width - 4, plot.y + plot.height / 2);
    await expect
      .poll(() => page.getByTestId('reviews-summary').innerText())
      .toMatch(/ · Again 1 · Hard 1 · Good 2 · Easy 0$/);

    // Settings show what onboarding chose.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    expect(await page.getByRole('combobox', { name: 'Timezone' }).inputValue()).toBe('America/Sao_Paulo');
    expect(await page.getByRole('spinbutton', { name: 'Daily goal' }).inputValue()).toBe('15');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('keeps cards in order: onboarding cards, load more, search, tag filter, edit, archive, delete and empty states', async () => {
    const page = await openTestPage(env.browser, 'learning-loop-cards', { bypassCSP: true });
    page.setDefaultTimeout(10_000);
    const { stack } = env;

    await signUp(page, stack.url, { ...newUser('cards'), name: 'Cy Cards' });
    await page.getByLabel('Front of card 1').fill('Onboarding one');
    await page.getByLabel('Back of card 1').fill('First answer');
    await page.getByLabel('Front of card 2').fill('Onboarding two');
    await page.getByRole('button', { name: 'Start learning' }).click();
    // A half-written first card is pointed out and nothing is sent.
    await page.getByText('Back is required').waitFor();
    expect(page.url()).toBe(`${stack.url}/onboarding`);
    await page.getByLabel('Back of card 2').fill('Second answer');
    await page.getByRole('button', { name: 'Start learning' }).click();
    await page.waitForURL(`${stack.url}/dashboard`);

    // Ten more cards through the API, five of them tagged "bulk", and an unused tag.
    const ids = await page.evaluate(async () => {
      const call = async (path: string, input: unknown) => {
        const response = await fetch(`/api/trpc/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(input),
        });
        return ((await response.json()) as { result: { data: { id: string } } }).result.data;
      };
      const bulk = await call('cards.createTag', { name: 'bulk' });
      const unused = await call('cards.createTag', { name: 'unused' });
      const cards = Array.from({ length: 10 }, (_, i) => ({
        front: `Bulk card ${i}`,
        back: 'Bulk answer',
        tagIds: i % 2 === 0 ? [bulk.id] : [],
      }));
      await call('cards.createMany', { cards });
      return { bulk: bulk.id, unused: unused.id };
    });

    await page.reload();
    const list = page.getByRole('list', { name: 'Your cards' });
    const items = list.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Edit' }) });
    await expect.poll(() => items.count()).toBe(10);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => items.count()).toBe(12);

    await page.getByRole('searchbox', { name: 'Search cards' }).fill('Onboarding');
    await expect.poll(() => items.count()).toBe(2);
    await page.getByRole('searchbox', { name: 'Search cards' }).fill('');
    await page.getByLabel('Filter by tag').focus();
    await page.getByLabel('Filter by tag').locator('option', { hasText: 'bulk' }).waitFor({ state: 'attached' });
    await page.getByLabel('Filter by tag').selectOption({ label: 'bulk' });
    await expect.poll(() => items.count()).toBe(5);
    // Back to every card: the two pages already loaded are still there.
    await page.getByLabel('Filter by tag').selectOption({ label: 'All tags' });
    await expect.poll(() => items.count()).toBe(12);

    // Edit in place.
    const first = items.filter({ hasText: 'Onboarding one' });
    await page.getByRole('searchbox', { name: 'Search cards' }).fill('Onboarding one');
    await expect.poll(() => items.count()).toBe(1);
    await first.getByRole('button', { name: 'Edit' }).click();
    const editor = list.getByRole('form', { name: 'Edit card' });
    await editor.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await editor.getByRole('textbox', { name: 'Front' }).fill('Onboarding one, edited');
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Card saved').waitFor();
    await list.getByText('Onboarding one, edited').waitFor();

    // Archive: it leaves the list, shows among the archived, and comes back when unarchived.
    await items.filter({ hasText: 'Onboarding one, edited' }).getByRole('button', { name: 'Archive' }).click();
    await page.getByText('Card archived').waitFor();
    await expect.poll(() => items.count()).toBe(0);
    await page.getByLabel('Show archived').check();
    const archived = page.getByRole('list', { name: 'Archived cards' }).getByRole('listitem');
    await archived.filter({ hasText: 'Onboarding one, edited' }).getByRole('button', { name: 'Unarchive' }).click();
    await page.getByText('Card unarchived').waitFor();
    await page.getByLabel('Show archived').uncheck();
    await expect.poll(() => items.count()).toBe(1);

    // Delete asks first; cancelling keeps the card, confirming removes it.
    const edited = list.getByRole('listitem').filter({ hasText: 'Onboarding one, edited' });
    await edited.getByRole('button', { name: 'Delete' }).click();
    await edited.getByRole('button', { name: 'Delete for good' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await edited.getByRole('button', { name: 'Cancel' }).click();
    await edited.getByRole('button', { name: 'Delete' }).click();
    await edited.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByText('Card deleted').waitFor();
    await page.getByText('No cards match').waitFor();

    // A tag without cards has nothing due: no start button, and the session says so.
    // A session can end early: the results count what was rated so far.
    await page.goto(`${stack.url}/practice/new`);
    await page.getByText('Due now: 11').waitFor();
    await page.getByRole('link', { name: 'Start' }).click();
    await page.waitForURL(`${stack.url}/practice/session`);
    await question(page).waitFor();
    await page.keyboard.press('Space');
    await page.keyboard.press('4');
    await page.getByRole('button', { name: 'End session' }).click();
    await page.waitForURL(/\/practice\/done\?/);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      cardCount: '1',
      again: '0',
      hard: '0',
      good: '0',
      easy: '1',
    });

    await page.goto(`${stack.url}/practice/new`);
    await page.getByText('Due now: 10').waitFor();
    await page.getByRole('button', { name: 'unused' }).click();
    await page.getByText('Due now: 0').waitFor();
    expect(await page.getByRole('link', { name: 'Start' }).count()).toBe(0);
    await page.goto(`${stack.url}/practice/session?tags=${encodeURIComponent(JSON.stringify([ids.unused]))}`);
    await page.getByText('Nothing is due').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // Results without a valid card count get a clear message, not a crash.
    for (const search of ['', '?cardCount=abc', '?cardCount=-1&good=2']) {
      await page.goto(`${stack.url}/practice/done${search}`);
      await page.getByRole('heading', { name: 'These results cannot be shown' }).waitFor();
    }
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goto(`${stack.url}/practice/done?cardCount=2&good=2`);
    await page.getByText('Cards reviewed: 2', { exact: true }).waitFor();
  });
});
