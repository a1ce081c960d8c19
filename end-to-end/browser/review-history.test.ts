// A learner whose reviews are years old (brought from Anki) sees them on the dashboard, in a real Chromium
// through the real gateway and every service: every month of their history as bars with a summary and a table,
// and the heatmap of any year they choose, on a phone and a laptop, in English and Portuguese, without the page
// getting wider than the screen. Before, such a learner read "Reviews in the last year: 0" and nothing else.
import { randomBytes } from 'node:crypto';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { useSessionCookie } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { type PastReview, userIdOf, writePastReviews } from './support/database.ts';
import { sticksOut } from './support/layout.ts';
import { LAPTOP, PHONE } from './support/screens.ts';

const env = useBrowserStack();

const WORDS = {
  en: {
    locale: 'en-US',
    history: 'All your reviews: 5 since March 2023',
    table: 'Reviews by month',
    recent: 'Reviews in the last year: 0 · days with reviews: 0',
    show: 'Show',
    year: 'Reviews in 2023: 5 · days with reviews: 2',
  },
  'pt-BR': {
    locale: 'pt-BR',
    history: 'Todas as suas revisões: 5 desde março de 2023',
    table: 'Revisões por mês',
    recent: 'Revisões no último ano: 0 · dias com revisões: 0',
    show: 'Mostrar',
    year: 'Revisões em 2023: 5 · dias com revisões: 2',
  },
} as const;

const reviewsOn = (date: string, ratings: number[]): PastReview[] =>
  ratings.map((rating) => ({ at: new Date(`${date}T12:00:00Z`), rating, stateBefore: 2 }));

async function veteran(label: string): Promise<string> {
  const email = `${label.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`;
  const cookie = await signUpThroughGateway(env.stack.url, 'Vera Veteran', email);
  const api = trpcClient(env.stack.url, cookie);
  await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
  await api.mutate('cards.create', { front: 'Capital of Peru', back: 'Lima' });
  await writePastReviews(env.stack, await userIdOf(env.stack, email), [
    ...reviewsOn('2023-03-14', [3, 3, 1]),
    ...reviewsOn('2023-11-02', [4, 3]),
  ]);
  // A new day start recounts the learner's days from their log, the reviews written above among them.
  await api.mutate('settings.update', { dayStartHour: 0 });
  return cookie;
}

async function rowsOf(page: Page, name: string): Promise<string[][]> {
  const rows = page.getByRole('table', { name }).locator('tbody tr');
  const texts: string[][] = [];
  for (const row of await rows.all()) texts.push(await row.locator('th, td').allTextContents());
  return texts;
}

describe.each([
  ['a phone', PHONE],
  ['a laptop', LAPTOP],
] as const)('on %s', (screenName, screen) => {
  describe.each(['en', 'pt-BR'] as const)('in %s', (language) => {
    const words = WORDS[language];

    it('shows a history years old by month, and the heatmap of a year the learner chooses', async () => {
      const cookie = await veteran(`history-${language}`);
      const page = await openTestPage(env.browser, `history-${screenName}-${language}`, {
        ...screen,
        locale: words.locale,
        bypassCSP: true,
      });
      page.setDefaultTimeout(15_000);
      await useSessionCookie(page, env.stack.url, cookie);
      await page.goto(`${env.stack.url}/dashboard`);

      await page.getByTestId('history-summary').getByText(words.history).waitFor();
      expect(await rowsOf(page, words.table)).toEqual([
        ['2023-03', '3'],
        ['2023-11', '2'],
      ]);
      const heatmap = page.getByTestId('heatmap-summary');
      expect(await heatmap.textContent()).toBe(words.recent);
      await page.getByRole('combobox', { name: words.show }).selectOption('2023');
      await heatmap.getByText(words.year).waitFor();
      expect(await sticksOut(page)).toEqual([]);
      expect(await accessibilityViolations(page)).toEqual([]);
      if (process.env.ENGRAM_SCREENSHOTS) {
        await page.getByTestId('history-summary').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `/tmp/history-${screenName.replace(' ', '-')}-${language}.png` });
      }
    });
  });
});
