// Issue 25's drafts and search, in a real Chromium through the real gateway and every service, at a phone's
// 390×844 (touch) and a laptop's 1280×800: generated proposals are a draft that survives leaving the page
// and a reload until it is saved or discarded (and goes at sign-out); the number of cards asked for is
// checked with a message before anything is sent; the card search ignores accents and case and finds tag
// names, and lives in the URL; a malformed search param is corrected, never an error screen; the dashboard
// names both counts (cards, and the review items of reversed and cloze cards) in English and Portuguese.
import { randomBytes } from 'node:crypto';
import { useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { openSignedIn } from './support/auth.ts';
import { LAPTOP, PHONE } from './support/screens.ts';

const env = useBrowserStack();

const SCREENS = [
  ['a phone', 'phone', PHONE],
  ['a laptop', 'laptop', LAPTOP],
] as const;

const NOTES = [
  '# Chemistry',
  '',
  'An atom is the smallest unit of an element.',
  'A molecule is a group of atoms bonded together.',
  'An ion is an atom with an electric charge.',
].join('\n');

/** A learner signed up and onboarded through the gateway, with the cards given (tags by name). */
async function newLearner(label: string, cards: { type?: string; front: string; back: string; tag?: string }[] = []) {
  const { url } = env.stack;
  const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const cookie = await signUpThroughGateway(url, 'Ana Lima', email);
  const api = trpcClient(url, cookie);
  await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
  for (const { tag, ...card } of cards) {
    const tagIds = tag ? [(await api.mutate('cards.createTag', { name: tag })).id] : [];
    await api.mutate('cards.create', { ...card, tagIds });
  }
  return { cookie, api };
}

const openAs = (name: string, screen: BrowserContextOptions, locale: string, cookie: string) =>
  openSignedIn(env, name, screen, locale, cookie);

const proposals = (page: Page) => page.getByTestId('proposal');
const fronts = async (page: Page) =>
  Promise.all((await proposals(page).getByRole('textbox', { name: 'Front' }).all()).map((field) => field.inputValue()));

const OTHER_NOTES = [
  '# Physics',
  '',
  'Velocity is the rate of change of position.',
  'Acceleration is the rate of change of velocity.',
  'Momentum is mass times velocity.',
].join('\n');

/** Fills the notes and the number of cards, and generates three basic cards. */
async function generateThree(page: Page, notes = NOTES) {
  await page.getByRole('textbox', { name: 'Notes' }).fill(notes);
  await page.getByRole('spinbutton', { name: 'Number of cards' }).fill('3');
  await page.getByRole('checkbox', { name: 'Reversed' }).uncheck();
  await page.getByRole('checkbox', { name: 'Cloze' }).uncheck();
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await page.getByTestId('generation-outcome').waitFor();
  await expect.poll(() => proposals(page).count()).toBe(3);
}

describe.each(SCREENS)('generated proposals on %s', (_label, slug, screen) => {
  it('checks the number of cards asked for, and keeps the proposals across leaving the page and a reload until discarded', async () => {
    const { cookie } = await newLearner(`drafts-${slug}`);
    const page = await openAs(`drafts-${slug}`, screen, 'en-US', cookie);
    const generations: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('ai.generate')) generations.push(request.url());
    });
    await page.goto(`${env.stack.url}/generate`);
    await page.getByRole('heading', { name: 'Generate cards', level: 1 }).waitFor();

    // Too many cards: a message under the field, and nothing is sent.
    await page.getByRole('textbox', { name: 'Notes' }).fill(NOTES);
    const count = page.getByRole('spinbutton', { name: 'Number of cards' });
    await count.fill('80');
    const countMessage = page.getByText('Ask for a whole number of cards from 1 to 50.');
    await countMessage.waitFor();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    expect(await count.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('generation-progress').count()).toBe(0);
    await count.fill('0');
    await countMessage.waitFor();
    await count.fill('');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await countMessage.waitFor();
    expect(generations).toEqual([]);

    await generateThree(page);
    expect(await countMessage.count()).toBe(0);
    expect(generations).toHaveLength(1);
    await proposals(page).nth(0).getByRole('textbox', { name: 'Front' }).fill('What is an atom, exactly?');
    await proposals(page).nth(1).getByRole('checkbox', { name: 'Keep card 2' }).uncheck();
    const kept = ['What is an atom, exactly?', 'What is a molecule?', 'What is an ion?'];
    expect(await fronts(page)).toEqual(kept);
    expect(await page.getByText(/These proposals from your last generation/).count()).toBe(0);

    // Away to the dashboard and back: the proposals are there as they were left, with a note saying so.
    await page
      .getByRole('main')
      .getByRole('link', { name: /Dashboard$/ })
      .click();
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await page.getByRole('region', { name: 'Generate cards' }).getByRole('link', { name: 'Generate' }).click();
    await page.waitForURL(`${env.stack.url}/generate`);
    const restored = page.getByText(
      'These proposals from your last generation are not saved yet. Save the ones you want, or discard them.',
    );
    await restored.waitFor();
    expect(await fronts(page)).toEqual(kept);
    expect(await proposals(page).nth(1).getByRole('checkbox', { name: 'Keep card 2' }).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Save 2 cards' }).waitFor();

    // A reload too; nothing was generated (or charged) again. The pasted notes and the choices are kept as well.
    await page.reload();
    await restored.waitFor();
    expect(await fronts(page)).toEqual(kept);
    await page.getByRole('button', { name: 'Save 2 cards' }).waitFor();
    expect(generations).toHaveLength(1);
    expect(await page.getByRole('textbox', { name: 'Notes' }).inputValue()).toBe(NOTES);
    expect(await page.getByRole('spinbutton', { name: 'Number of cards' }).inputValue()).toBe('3');
    expect(await page.getByRole('checkbox', { name: 'Cloze' }).isChecked()).toBe(false);

    // Discard asks first; cancelled, the proposals stay; confirmed, they are gone, after a reload too.
    await page.getByRole('button', { name: 'Discard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard these proposals?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await proposals(page).count()).toBe(3);
    await page.getByRole('button', { name: 'Discard' }).click();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await page.getByText('Proposals discarded.').waitFor();
    await expect.poll(() => proposals(page).count()).toBe(0);
    expect(await restored.count()).toBe(0);
    await page.reload();
    await page.getByText('Proposals appear here as they are generated.').waitFor();
    expect(await proposals(page).count()).toBe(0);
  });
});

describe('generated proposals and the account', () => {
  it('are saved into the collection and then gone; and signing out leaves none on the device', async () => {
    const { cookie, api } = await newLearner('drafts-account');
    const page = await openAs('drafts-account', LAPTOP, 'en-US', cookie);
    await page.goto(`${env.stack.url}/generate`);
    await generateThree(page);
    await page.getByRole('button', { name: 'Save 3 cards' }).click();
    await page.getByText('Saved 3 cards to your collection.').waitFor();
    await page.reload();
    await page.getByText('Proposals appear here as they are generated.').waitFor();
    expect(await proposals(page).count()).toBe(0);
    expect((await api.query('cards.list', { archived: false })).items).toHaveLength(3);

    await generateThree(page, OTHER_NOTES);
    const stored = () =>
      page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('engram.generate.')));
    await expect.poll(stored).toHaveLength(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/auth\/sign-in/);
    await expect.poll(stored).toEqual([]);
  });
});

describe.each([
  ['en', 'a phone', PHONE],
  ['pt-BR', 'a laptop', LAPTOP],
] as const)('searching and counting cards in %s on %s', (locale, _screen, screen) => {
  const words =
    locale === 'en'
      ? { search: 'Search cards', list: 'Your cards', counts: '5 cards · 7 questions in all', title: 'Dashboard' }
      : { search: 'Buscar cartões', list: 'Seus cartões', counts: '5 cartões · 7 perguntas ao todo', title: 'Painel' };

  it('finds cards whatever the accents and case, and by tag name; corrects malformed search params; names both counts', async () => {
    const { cookie } = await newLearner(`search-${locale}`, [
      { front: 'Café', back: 'coffee' },
      { front: 'summer', back: 'l’été' },
      { front: 'Femur', back: 'thigh bone', tag: 'Anatomía' },
      { type: 'reversed', front: 'Bonjour', back: 'Hello' },
      { type: 'cloze', front: '{{c1::Lisbon}} is the capital of {{c2::Portugal}}', back: '' },
    ]);
    const page = await openAs(`search-${locale}`, screen, locale === 'en' ? 'en-US' : 'pt-BR', cookie);
    const { url } = env.stack;
    await page.goto(`${url}/dashboard`);

    // Five cards make seven review items (the reversed card both ways, the cloze card once per deletion).
    await expect.poll(() => page.getByTestId('cards-total').innerText()).toBe(words.counts);

    const list = page.getByRole('list', { name: words.list });
    const shown = () => list.locator(':scope > li').allInnerTexts();
    await expect.poll(async () => (await shown()).length).toBe(5);
    const search = page.getByRole('searchbox', { name: words.search });
    const finds = async (text: string, expected: string[]) => {
      await search.fill(text);
      await expect
        .poll(async () => (await shown()).map((item) => expected.find((front) => item.includes(front)) ?? item))
        .toEqual(expected);
    };
    await finds('cafe', ['Café']);
    await finds('ÉTÉ', ['summer']);
    await finds('anatomia', ['Femur']);
    await finds('CAFÉ', ['Café']);

    // The search text is in the URL: a reload keeps it.
    await page.waitForURL(/\?q=CAF/);
    await page.reload();
    await expect.poll(() => search.inputValue()).toBe('CAFÉ');
    await expect.poll(async () => (await shown()).length).toBe(1);

    // Malformed search params are corrected, never an error screen.
    await page.goto(`${url}/dashboard?q=${encodeURIComponent('{"not":"text"}')}`);
    await page.getByRole('heading', { name: words.title, level: 1 }).waitFor();
    await expect.poll(async () => (await shown()).length).toBe(5);
    expect(await search.inputValue()).toBe('');
    await page.goto(`${url}/dashboard?q=${encodeURIComponent('["cafe",2]')}`);
    await expect.poll(async () => (await shown()).length).toBe(5);

    await page.goto(`${url}/practice/session?tags=${encodeURIComponent('[1,"not-a-tag",{"a":1}]')}`);
    await page.getByRole('region', { name: locale === 'en' ? 'Question' : 'Pergunta' }).waitFor();
    await page.goto(`${url}/practice/session?tags=not-a-tag`);
    await page.getByRole('region', { name: locale === 'en' ? 'Question' : 'Pergunta' }).waitFor();
    await page.goto(`${url}/practice/done?cardCount=3&hard=lots&good=2`);
    await page
      .getByRole('heading', { name: locale === 'en' ? 'Session complete' : 'Sessão concluída', level: 1 })
      .waitFor();
  });
});
