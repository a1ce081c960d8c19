// Issue 45's typed answers in a real Chromium through the real gateway: a learner makes a typed-answer card on the
// dashboard, practises it by typing, sees what they typed compared with the answer as Anki shows it (what was
// wrong, what is missing), and rates with the rating the comparison suggests or another; in English on a laptop
// with the keyboard alone, in Portuguese on a phone by touch.
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
  const cookie = await signUpThroughGateway(url, 'Tia Reis', `${label}-${randomBytes(4).toString('hex')}@example.com`);
  const api = trpcClient(url, cookie);
  await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
  return { cookie, api };
}

const openAs = (name: string, screen: BrowserContextOptions, locale: string, cookie: string) =>
  openSignedIn(env, name, screen, locale, cookie);

/** The accessible name of the element that has the focus. */
const focusedName = (page: Page) =>
  page.evaluate<string>(
    '(() => { const e = document.activeElement; return e?.getAttribute("aria-label") ?? e?.labels?.[0]?.textContent ?? e?.textContent ?? ""; })()',
  );

/** The marked parts of one line of the comparison, as [kind, text]. */
const marked = (page: Page, line: 'typed' | 'expected') =>
  page
    .locator(`[data-testid="typed-comparison"] [data-line="${line}"] [data-kind]`)
    .evaluateAll((spans) => spans.map((span) => [span.getAttribute('data-kind'), span.textContent]));

describe('typed answers', () => {
  it('are made on the dashboard and practised with the keyboard alone, the suggested rating taken with Enter', async () => {
    const { cookie } = await newLearner('typed-en');
    const page = await openAs('typed-en', LAPTOP, 'en-US', cookie);
    await page.goto(`${env.stack.url}/`);
    const newCard = page.getByRole('region', { name: 'New card' });
    await newCard.getByText('Typed answer', { exact: true }).click();
    expect(await newCard.getByRole('radio', { name: 'Typed answer' }).isChecked()).toBe(true);
    await newCard.getByText('In practice you type the back before it shows').waitFor();
    await newCard.getByRole('textbox', { name: 'Front' }).fill('hablar');
    await newCard.getByRole('textbox', { name: 'Back' }).fill('**to speak**');
    await newCard.getByRole('button', { name: 'Add card' }).click();
    await page.locator('[data-sonner-toast]').first().waitFor();

    await page.goto(`${env.stack.url}/practice/session`);
    await page.getByRole('textbox', { name: 'Type the answer' }).waitFor();
    await expect.poll(() => focusedName(page)).toBe('Type the answer');
    // Space and Enter type into the field: Space is a space, Enter checks the answer.
    await page.keyboard.type('to speek');
    await page.keyboard.press('Enter');

    await page.getByText('You typed to speek; the answer is to speak').waitFor();
    expect(await marked(page, 'typed')).toEqual([
      ['good', 'to spe'],
      ['bad', 'e'],
      ['good', 'k'],
    ]);
    expect(await marked(page, 'expected')).toEqual([
      ['good', 'to spe'],
      ['missing', 'a'],
      ['good', 'k'],
    ]);
    const hard = page.getByRole('button', { name: /^★?\s*Hard/ });
    expect(await hard.getAttribute('aria-description')).toBe('Suggested by your typed answer');
    await expect.poll(() => focusedName(page)).toMatch(/Hard/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    // Rated Hard, it comes back later in the session (a learning step), asking afresh.
    await expect.poll(() => page.getByTestId('session-progress').textContent()).toMatch(/^1 answered/);
    expect(await page.getByRole('button', { name: /^Hard/ }).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Type the answer' }).inputValue()).toBe('');
    await expect.poll(() => focusedName(page)).toBe('Type the answer');
  });

  it('are practised by touch on a phone in Portuguese, case and accents shown, any rating chosen', async () => {
    const { cookie, api } = await newLearner('typed-pt');
    await api.mutate('cards.create', { type: 'typed', front: 'the house', back: 'a casa' });
    await api.mutate('cards.create', { type: 'typed', front: 'the tree', back: 'a árvore' });
    const page = await openAs('typed-pt', PHONE, 'pt-BR', cookie);
    await page.goto(`${env.stack.url}/practice/session`);

    for (const answered of ['1 respondida', '2 respondidas']) {
      const asked = await page.getByRole('region', { name: 'Pergunta' }).textContent();
      const field = page.getByRole('textbox', { name: 'Digite a resposta' });
      await field.tap();
      if (asked?.includes('house')) {
        await field.fill('A Casa');
        await page.getByRole('button', { name: 'Mostrar resposta' }).tap();
        await page.getByText('Você digitou A Casa; a resposta é a casa').waitFor();
        expect(await marked(page, 'typed')).toEqual([
          ['bad', 'A'],
          ['good', ' '],
          ['bad', 'C'],
          ['good', 'asa'],
        ]);
        // Only the case differs: Hard is suggested, and the learner takes Good instead.
        expect(await page.getByRole('button', { name: /Difícil/ }).getAttribute('aria-description')).toBe(
          'Sugerida pela resposta digitada',
        );
        expect(await sticksOut(page)).toEqual([]);
        await page.getByRole('button', { name: /^Bom/ }).tap();
      } else {
        await field.fill('a árvore');
        await page.keyboard.press('Enter');
        await page.getByText('Você digitou certo: a árvore').waitFor();
        expect(await page.getByRole('button', { name: /Bom/ }).getAttribute('aria-description')).toBe(
          'Sugerida pela resposta digitada',
        );
        await page.getByRole('button', { name: /^★?\s*Bom/ }).tap();
      }
      await expect.poll(() => page.getByTestId('session-progress').textContent()).toMatch(new RegExp(`^${answered}`));
    }
  });
});
