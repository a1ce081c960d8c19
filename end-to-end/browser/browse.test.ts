// Issue 44's Browse screen in a real Chromium through the real gateway and every service, in English on a laptop
// (a sortable table) and in Portuguese on a phone (a list): a search in Anki's syntax finds and counts cards, a
// malformed one is pointed at where it goes wrong, columns sort, chosen cards take every bulk action and each is
// undone from its toast, a search is saved and run again, and duplicates are grouped.
import { randomBytes } from 'node:crypto';
import { useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { openSignedIn } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { sticksOut } from './support/layout.ts';
import { LAPTOP, PHONE } from './support/screens.ts';

const env = useBrowserStack();

const CARDS = [
  { front: 'hablar', back: 'to speak', tag: 'Spanish::Verbs' },
  { front: 'comer', back: 'to eat', tag: 'Spanish::Verbs' },
  { front: 'la casa', back: 'the house', tag: 'Spanish' },
  { front: 'Photosynthesis', back: 'Light into sugar' },
  { front: '**Café**', back: 'coffee' },
  { front: 'cafe', back: 'coffee, again' },
];

/** A learner signed up and onboarded through the gateway, with the cards above. */
async function newLearner(label: string) {
  const { url } = env.stack;
  const cookie = await signUpThroughGateway(url, 'Bea Lopes', `${label}-${randomBytes(4).toString('hex')}@example.com`);
  const api = trpcClient(url, cookie);
  await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
  const tags = new Map<string, string>();
  for (const { tag, ...card } of CARDS) {
    if (tag && !tags.has(tag)) tags.set(tag, (await api.mutate('cards.createTag', { name: tag })).id);
    await api.mutate('cards.create', { ...card, tagIds: tag ? [tags.get(tag)] : [] });
  }
  return { cookie, api };
}

const openAs = (name: string, screen: BrowserContextOptions, locale: string, cookie: string) =>
  openSignedIn(env, name, screen, locale, cookie);

/** Types a search as a learner does and waits for its count. */
async function search(page: Page, label: string, query: string, count: string) {
  const box = page.getByRole('searchbox', { name: label });
  await box.fill(query);
  await page.getByText(count, { exact: true }).waitFor();
}

const ENGLISH = { undo: 'Undo', close: 'Close notification' };
const PORTUGUESE = { undo: 'Desfazer', close: 'Fechar notificação' };

/**
 * After a bulk action, Undo from its toast; then closes the toast that says it was undone, as a learner clears the
 * stack, so that the next action's "undone" is its own (two undos may say the same words, and a pointer resting on
 * the stack keeps its toasts up).
 */
async function thenUndo(page: Page, labels: typeof ENGLISH, done: string, undone: RegExp) {
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: done });
  await toast.waitFor();
  await toast.getByRole('button', { name: labels.undo }).click();
  const undoneToast = page.locator('[data-sonner-toast]').filter({ hasText: undone });
  await undoneToast.waitFor();
  await undoneToast.getByRole('button', { name: labels.close }).click();
  await undoneToast.waitFor({ state: 'detached' });
}

describe('Browse in English on a laptop', () => {
  it('searches, sorts, changes cards in bulk with undo, saves a search and finds duplicates', async () => {
    const { cookie, api } = await newLearner('browse-en');
    const page = await openAs('browse-laptop', LAPTOP, 'en-US', cookie);
    await page.goto(`${env.stack.url}/dashboard`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Browse' }).click();
    await page.waitForURL(`${env.stack.url}/browse`);
    await page.getByText('Cards found: 6', { exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'Cards found' });
    await table.waitFor();

    // Anki's syntax, and a mistake pointed at.
    await search(page, 'Search, as in Anki', 'tag:spanish -tag:spanish::verbs', 'Cards found: 1');
    await expect.poll(() => page.url()).toContain('q=tag');
    await page.getByRole('searchbox', { name: 'Search, as in Anki' }).fill('tag:spanish (speak');
    await page.getByRole('alert').getByText('This parenthesis is not closed.').waitFor();
    expect(await page.getByTestId('search-problem-place').locator('mark').textContent()).toBe('(');
    await search(page, 'Search, as in Anki', 'tag:spanish', 'Cards found: 3');

    // Sorted by the card's text, A to Z.
    await table.getByRole('button', { name: /^Card/ }).click();
    await expect
      .poll(() => table.getByRole('columnheader', { name: /^Card/ }).getAttribute('aria-sort'))
      .toBe('ascending');
    await expect
      .poll(async () => (await table.locator('tbody tr td:nth-child(2) p:first-child').allTextContents()).join('|'))
      .toBe('comer|hablar|la casa');

    // Archive one, undo; tag two, undo; delete one, undo.
    await page.getByRole('checkbox', { name: 'Choose comer' }).check();
    const bar = page.getByRole('region', { name: 'Actions for the 1 cards chosen' });
    await bar.getByRole('button', { name: 'Archive', exact: true }).click();
    await thenUndo(page, ENGLISH, 'Cards archived: 1.', /Undone: 1 cards/);
    expect((await api.query('cards.list', { archived: true })).items).toEqual([]);

    await page.getByRole('checkbox', { name: 'Choose comer' }).check();
    await page.getByRole('checkbox', { name: 'Choose hablar' }).check();
    await page
      .getByRole('region', { name: /Actions for the 2 cards/ })
      .getByRole('button', { name: 'Add tags' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Add tags to 2 cards' });
    await dialog.getByRole('textbox', { name: 'Tags' }).fill('irregular');
    await dialog.getByRole('textbox', { name: 'Tags' }).press('Enter');
    await dialog.getByRole('button', { name: 'Remove tag irregular' }).waitFor();
    await dialog.getByRole('button', { name: 'Add tags' }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Tags added to 2 cards.' }).waitFor();
    await search(page, 'Search, as in Anki', 'tag:irregular', 'Cards found: 2');

    await page.getByRole('checkbox', { name: 'Choose the 2 cards shown' }).check();
    await page
      .getByRole('region', { name: /Actions for the 2 cards/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('dialog', { name: 'Delete 2 cards?' }).getByRole('button', { name: 'Delete' }).click();
    await thenUndo(page, ENGLISH, 'Cards deleted: 2.', /Undone: 2 cards/);
    await page.getByText('Cards found: 2', { exact: true }).waitFor();

    // A saved search runs again with a click.
    await page.getByLabel('Save this search as').fill('Irregular verbs');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Search saved: Irregular verbs.' }).waitFor();
    await search(page, 'Search, as in Anki', '', 'Cards found: 6');
    await page.getByRole('button', { name: 'Irregular verbs', exact: true }).click();
    await page.getByText('Cards found: 2', { exact: true }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // An Anki tool's "view note" (AnkiConnect's guiBrowse) shows the note in this open tab.
    const created = await api.mutate('cards.create', { front: 'ver', back: 'to see' });
    const keyAnswer = await fetch(`${env.stack.url}/api/auth/api-key/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: env.stack.url, cookie },
      body: JSON.stringify({ name: 'Yomitan' }),
    });
    const { key } = (await keyAnswer.json()) as { key: string };
    const [number] = (await (
      await fetch(`${env.stack.url}/api/anki-connect`, {
        method: 'POST',
        body: JSON.stringify({ action: 'findNotes', version: 2, key, params: { query: 'ver' } }),
      })
    ).json()) as number[];
    expect(created.front).toBe('ver');
    await fetch(`${env.stack.url}/api/anki-connect`, {
      method: 'POST',
      body: JSON.stringify({ action: 'guiBrowse', version: 2, key, params: { query: `nid:${number}` } }),
    });
    await page.waitForURL(/\/browse\?q=nid%3A\d+/);
    await page.getByText('Cards found: 1', { exact: true }).waitFor();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'An Anki tool asked to show these cards.' }).waitFor();

    // Duplicates: café twice.
    await page.getByRole('link', { name: 'Duplicates' }).click();
    await page.getByRole('heading', { name: '“Café”, 2 cards' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});

describe('Browse in Portuguese on a phone', () => {
  it('lists cards, sets a due date, forgets, moves to a preset and exports, each undone', async () => {
    const { cookie, api } = await newLearner('browse-pt');
    const tags = (await api.query('cards.listTags', {})).items as { id: string; name: string }[];
    const verbs = tags.find((tag) => tag.name === 'Spanish::Verbs');
    await api.mutate('settings.createPreset', { name: 'Verbos', tagIds: [verbs?.id] });
    const page = await openAs('browse-phone', PHONE, 'pt-BR', cookie);
    await page.goto(`${env.stack.url}/browse?q=tag%3Aspanish`);
    await page.getByText('Cartões encontrados: 3', { exact: true }).waitFor();
    const list = page.getByRole('list', { name: 'Cartões encontrados' });
    await list.waitFor();
    expect(await page.getByRole('table').isVisible()).toBe(false);

    await page.getByRole('checkbox', { name: 'Escolher os 3 cartões mostrados' }).check();
    const bar = page.getByRole('region', { name: 'Ações para os 3 cartões escolhidos' });
    await bar.waitFor();
    // Nothing wider than the phone, the bar of actions included (before any toast).
    expect(await sticksOut(page)).toEqual([]);
    await bar.getByRole('button', { name: 'Definir vencimento' }).click();
    const due = page.getByRole('dialog', { name: 'Definir o vencimento de 3 cartões' });
    await due.getByLabel('Do dia').fill('3');
    await due.getByLabel('Até o dia').fill('5');
    await due.getByRole('button', { name: 'Definir vencimento' }).click();
    await thenUndo(page, PORTUGUESE, 'Vencimentos definidos: 3.', /Desfeito: 3 cartões/);

    await page.getByRole('checkbox', { name: 'Escolher os 3 cartões mostrados' }).check();
    await page
      .getByRole('region', { name: /Ações para os 3/ })
      .getByRole('button', { name: 'Esquecer' })
      .click();
    await page.getByRole('dialog', { name: 'Esquecer 3 cartões?' }).getByRole('button', { name: 'Esquecer' }).click();
    await thenUndo(page, PORTUGUESE, 'Cartões esquecidos: 3.', /Desfeito: 3 cartões/);

    // la casa goes to the Verbos preset (it takes the preset's tag), and back.
    await page.getByRole('checkbox', { name: 'Escolher la casa' }).check();
    await page
      .getByRole('region', { name: /Ações para o/ })
      .getByRole('button', { name: 'Mudar predefinição' })
      .click();
    const preset = page.getByRole('dialog', { name: 'Mover 1 cartões para uma predefinição' });
    await preset.getByLabel('Predefinição').selectOption({ label: 'Verbos' });
    await preset.getByRole('button', { name: 'Mudar predefinição' }).click();
    await thenUndo(page, PORTUGUESE, 'Cartões movidos para a predefinição: 1.', /Desfeito: 1 cartões/);
    expect((await api.query('browse.count', { query: 'tag:spanish::verbs' })).count).toBe(2);

    await page.getByRole('checkbox', { name: 'Escolher la casa' }).check();
    await page
      .getByRole('region', { name: /Ações para o/ })
      .getByRole('button', { name: 'Exportar' })
      .click();
    await page.getByRole('dialog', { name: 'Exportar 1 cartões' }).getByRole('button', { name: 'Exportar' }).click();
    await page.getByRole('link', { name: /Baixar|Download/ }).waitFor({ timeout: 60_000 });

    // A malformed search, in Portuguese.
    await page.getByRole('searchbox', { name: 'Buscar, como no Anki' }).fill('is:late');
    await page
      .getByRole('alert')
      .getByText('is: aceita due, new, learn, review, suspended, buried, não “late”.')
      .waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
