// Issue 45's note types in a real Chromium through the real gateway: a learner makes a note type of their own in the
// settings (a copy of a stock one, its fields renamed and added, a template asking a typed answer with a hint),
// writes a note of it on the dashboard, sees the two cards it makes in the preview, and practises both; in
// Portuguese on a phone, a note of Basic (optional reversed card) asks backwards only once "Add Reverse" is filled.
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

async function newLearner(label: string) {
  const { url } = env.stack;
  const cookie = await signUpThroughGateway(url, 'Nora Tipo', `${label}-${randomBytes(4).toString('hex')}@example.com`);
  const api = trpcClient(url, cookie);
  await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
  return { cookie, api };
}

const openAs = (name: string, screen: BrowserContextOptions, locale: string, cookie: string) =>
  openSignedIn(env, name, screen, locale, cookie);

const toasted = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();

describe('note types', () => {
  it('are made in the settings, written on the dashboard and practised card by card, a typed answer with its hint', async () => {
    const { cookie, api } = await newLearner('note-types-en');
    const page = await openAs('note-types-en', LAPTOP, 'en-US', cookie);
    await page.goto(`${env.stack.url}/settings?section=note-types`);
    await page.getByRole('heading', { name: 'Note types', level: 2 }).waitFor();
    // A stock type's name is taken: the name says which type is meant.
    const newName = page.getByRole('textbox', { name: "New note type's name" });
    await newName.fill('basic');
    await page.getByRole('button', { name: 'Create note type' }).click();
    await page.getByText('Another note type is named "Basic": choose another name.').waitFor();
    await newName.fill('Vocabulary');
    await page.getByLabel('Start as a copy of').selectOption({ label: 'Basic (and reversed card)' });
    await page.getByRole('button', { name: 'Create note type' }).click();
    await toasted(page, 'Note type created.');

    const form = page.getByRole('form', { name: 'Vocabulary' });
    await form.getByRole('textbox', { name: 'Field 1' }).fill('Word');
    await form.getByRole('textbox', { name: 'Field 2' }).fill('Meaning');
    await form.getByRole('button', { name: 'Add a field' }).click();
    await form.getByRole('textbox', { name: 'Field 3' }).fill('Example');
    // The second card asks the word typed, with the example as a hint.
    await form
      .getByRole('textbox', { name: 'Front', exact: true })
      .nth(1)
      .fill('{{Back}}\n\n{{hint:Example}}\n\n{{type:Front}}');
    await form.getByRole('textbox', { name: 'Back (below the front)' }).nth(1).fill('{{type:Front}}');
    // A template naming a field the type does not have is refused in words before anything is sent.
    await form.getByRole('textbox', { name: 'Back (below the front)' }).nth(0).fill('{{Meanings}}');
    await form.getByRole('button', { name: 'Save note type' }).click();
    await form.getByText('A template names a field this note type does not have.').waitFor();
    await form.getByRole('textbox', { name: 'Back (below the front)' }).nth(0).fill('{{Back}}');
    // Its styling: kept where safe, on its own cards only (the card's own colours are the app theme's).
    await form
      .getByRole('textbox', { name: 'Styling (CSS)' })
      .fill('.card { font-family: Georgia; color: black; position: fixed } strong { color: rgb(0, 0, 128) }');
    await form.getByRole('button', { name: 'Save note type' }).click();
    await toasted(page, 'Note type saved.');
    // The renamed fields are renamed in the templates, as Anki does.
    const saved = (await api.query('cards.noteTypes')).items.find(
      (type: { name: string }) => type.name === 'Vocabulary',
    );
    expect(saved).toMatchObject({
      fields: ['Word', 'Meaning', 'Example'],
      templates: [
        { front: '{{Word}}', back: '{{Meaning}}' },
        { front: '{{Meaning}}\n\n{{hint:Example}}\n\n{{type:Word}}', back: '{{type:Word}}' },
      ],
    });
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto(`${env.stack.url}/dashboard`);
    const newCard = page.getByRole('region', { name: 'New card' });
    await newCard.getByText('Note type', { exact: true }).first().click();
    await newCard.getByRole('combobox', { name: 'Note type' }).selectOption({ label: 'Vocabulary' });
    await newCard.getByRole('textbox', { name: 'Word' }).fill('el gato');
    await newCard.getByRole('textbox', { name: 'Meaning' }).fill('the cat');
    await newCard.getByRole('textbox', { name: 'Example' }).fill('El gato duerme.');
    await newCard.getByRole('button', { name: 'Show preview' }).click();
    await newCard.getByText('Card 2 of 2').waitFor();
    // The preview draws them with the type's styling, as practice will.
    const previewFont = () =>
      page.evaluate(
        `(() => { const card = document.querySelector('section[data-note-type]');
          return card ? getComputedStyle(card).fontFamily : ''; })()`,
      ) as Promise<string>;
    await expect.poll(previewFont).toContain('Georgia');
    await newCard.getByRole('button', { name: 'Add card' }).click();
    await toasted(page, 'Card added');

    await page.goto(`${env.stack.url}/practice/session`);
    // (In-page code as a string: this package's TypeScript has no DOM types.)
    const style = (property: string) =>
      page.evaluate(
        `(() => { const card = document.querySelector('article[data-note-type]');
          return card ? getComputedStyle(card).getPropertyValue(${JSON.stringify(property)}) : ''; })()`,
      ) as Promise<string>;
    await expect.poll(() => style('font-family')).toContain('Georgia');
    expect(await style('position')).not.toBe('fixed');
    let typedAsked = false;
    for (const answered of ['1 answered', '2 answered']) {
      const question = page.getByRole('region', { name: 'Question' });
      await question.waitFor();
      const field = page.getByRole('textbox', { name: 'Type the answer' });
      if (await field.isVisible()) {
        typedAsked = true;
        expect(await question.textContent()).toContain('the cat');
        // The hint is folded away until asked for.
        const hint = question.locator('details.card-hint');
        expect(await hint.getAttribute('open')).toBeNull();
        await hint.getByText('Example').click();
        await hint.getByText('El gato duerme.').waitFor();
        await field.fill('el gatto');
        await page.keyboard.press('Enter');
        await page.getByTestId('typed-comparison').waitFor();
        await page.getByText('You typed el gatto; the answer is el gato').waitFor();
        await page.keyboard.press('3');
      } else {
        expect(await question.textContent()).toContain('el gato');
        await page.keyboard.press('Space');
        await page.getByRole('region', { name: 'Answer' }).getByText('the cat').waitFor();
        await page.keyboard.press('3');
      }
      await expect.poll(() => page.getByTestId('session-progress').textContent()).toMatch(new RegExp(`^${answered}`));
    }
    expect(typedAsked).toBe(true);
  });

  it('ask a note of Basic (optional reversed card) backwards once "Add Reverse" is filled, on a phone in Portuguese', async () => {
    const { cookie, api } = await newLearner('note-types-pt');
    const page = await openAs('note-types-pt', PHONE, 'pt-BR', cookie);
    await page.goto(`${env.stack.url}/dashboard`);
    const newCard = page.getByRole('region', { name: 'Novo cartão' });
    await newCard.getByText('Tipo de nota', { exact: true }).first().tap();
    await newCard
      .getByRole('combobox', { name: 'Tipo de nota' })
      .selectOption({ label: 'Basic (optional reversed card)' });
    await newCard.getByRole('textbox', { name: 'Front', exact: true }).fill('o cão');
    await newCard.getByRole('textbox', { name: 'Back', exact: true }).fill('the dog');
    expect(await sticksOut(page)).toEqual([]);
    await newCard.getByRole('button', { name: 'Adicionar cartão' }).tap();
    await toasted(page, 'Cartão adicionado');
    const [card] = (await api.query('cards.list', {})).items;
    expect(card).toMatchObject({ type: 'note', noteTypeId: 'optional-reversed', fields: ['o cão', 'the dog', ''] });
    expect((await api.query('cards.listDue', {})).items).toHaveLength(1);

    // Edited with "Add Reverse" filled, the note asks backwards too.
    await page.getByRole('button', { name: 'Editar' }).first().tap();
    const editor = page.getByRole('form', { name: 'Editar cartão' });
    await editor.getByRole('textbox', { name: 'Add Reverse', exact: true }).fill('y');
    await editor.getByRole('button', { name: 'Salvar' }).tap();
    await expect.poll(async () => (await api.query('cards.listDue', {})).items.length).toBe(2);
    const prompts = (await api.query('cards.listDue', {})).items.map((item: { front: string }) => item.front);
    expect(prompts.sort()).toEqual(['o cão', 'the dog']);

    await page.goto(`${env.stack.url}/settings?section=note-types`);
    await page.getByRole('heading', { name: 'Tipos de nota', level: 2 }).waitFor();
    await page.getByText('Um tipo de nota padrão é o mesmo para todos', { exact: false }).waitFor();
    expect(await sticksOut(page)).toEqual([]);
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});
