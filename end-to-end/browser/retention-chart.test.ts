// Issue 25's chart of true retention over time, in a real Chromium through the real gateway and every
// service: a learner with reviews of learned cards in past weeks sees each week's share recalled as a line
// beside their desired retention, the week and "N of M recalled" where they point, and the weeks in a table
// for screen readers, on a phone and a laptop, in English and Portuguese, without the page getting wider
// than the screen. A learner without such reviews is told what will appear there, and when.
import { randomBytes } from 'node:crypto';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { useSessionCookie } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { type PastReview, userIdOf, writePastReviews } from './support/database.ts';
import { onScreen, sticksOut } from './support/layout.ts';
import { LAPTOP, PHONE } from './support/screens.ts';

const env = useBrowserStack();

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** The Sunday that starts the week `weeks` before this one, for a learner in UTC whose day starts at midnight. */
function sundayWeeksAgo(weeks: number): string {
  const today = new Date().toISOString().slice(0, 10);
  return addDays(today, -new Date(`${today}T00:00:00Z`).getUTCDay() - 7 * weeks);
}
/** Reviews at noon on `date`, one per rating (1 Again … 4 Easy), of a card in `stateBefore`. */
const reviewsOn = (date: string, ratings: number[], stateBefore = 2): PastReview[] =>
  ratings.map((rating) => ({ at: new Date(`${date}T12:00:00Z`), rating, stateBefore }));

const WORDS = {
  en: {
    locale: 'en-US',
    panel: 'True retention',
    summary: 'Last 26 weeks: 78% (7 of 9 recalled)',
    aim: 'Your desired retention: 85%',
    table: 'True retention by week',
    week: 'Week of',
    lastWeek: '4 of 5 recalled (80%)',
    empty: 'No reviews of learned cards yet.',
    emptyAim: 'beside your desired retention of 90%',
  },
  'pt-BR': {
    locale: 'pt-BR',
    panel: 'Retenção real',
    summary: 'Últimas 26 semanas: 78% (7 de 9 lembrados)',
    aim: 'Sua retenção desejada: 85%',
    table: 'Retenção real por semana',
    week: 'Semana de',
    lastWeek: '4 de 5 lembrados (80%)',
    empty: 'Ainda não há revisões de cartões aprendidos.',
    emptyAim: 'ao lado da sua retenção desejada de 90%',
  },
} as const;
type Language = keyof typeof WORDS;

/** A learner in UTC, onboarded, with one card; `reviews` are written into their past and counted. */
async function learner(label: string, reviews: PastReview[] = []): Promise<string> {
  const email = `${label.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`;
  const cookie = await signUpThroughGateway(env.stack.url, 'Rita Recall', email);
  const api = trpcClient(env.stack.url, cookie);
  await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
  await api.mutate('cards.create', { front: 'Capital of Peru', back: 'Lima' });
  if (reviews.length > 0) {
    await writePastReviews(env.stack, await userIdOf(env.stack, email), reviews);
    // A new day start recounts the learner's days from their log, the reviews written above among them.
    await api.mutate('settings.update', { dayStartHour: 0, desiredRetention: 0.85 });
  }
  return cookie;
}

async function openDashboard(name: string, screen: BrowserContextOptions, language: Language, cookie: string) {
  // The accessibility checker is a script the app's Content-Security-Policy would rightly refuse.
  const page = await openTestPage(env.browser, name, { ...screen, locale: WORDS[language].locale, bypassCSP: true });
  page.setDefaultTimeout(15_000);
  await useSessionCookie(page, env.stack.url, cookie);
  await page.goto(`${env.stack.url}/dashboard`);
  return page;
}

/** The rows of a table, each as the texts of its cells. */
async function rowsOf(page: Page, name: string): Promise<string[][]> {
  const rows = page.getByRole('table', { name }).locator('tbody tr');
  const texts: string[][] = [];
  for (const row of await rows.all()) texts.push(await row.locator('th, td').allTextContents());
  return texts;
}

const SCREENS = [
  ['a phone', PHONE],
  ['a laptop', LAPTOP],
] as const;

describe.each(SCREENS)('on %s', (screenName, screen) => {
  describe.each(['en', 'pt-BR'] as const)('in %s', (language) => {
    const words = WORDS[language];

    it('shows true retention week by week beside the desired retention, with the week under the pointer and a table', async () => {
      const cookie = await learner(`weekly-${language}`, [
        // Three weeks ago, on the Tuesday: 3 of 4 recalled.
        ...reviewsOn(addDays(sundayWeeksAgo(3), 2), [3, 3, 2, 1]),
        // Last week, on the Wednesday: 4 of 5 recalled; cards still being learned or relearned do not count.
        ...reviewsOn(addDays(sundayWeeksAgo(1), 3), [3, 4, 3, 3, 1]),
        ...reviewsOn(addDays(sundayWeeksAgo(1), 3), [1, 1], 1),
        ...reviewsOn(addDays(sundayWeeksAgo(1), 3), [3], 3),
      ]);
      const page = await openDashboard(`retention-${screenName}-${language}`, screen, language, cookie);
      const panel = page.getByRole('region', { name: words.panel });
      await panel.getByText(words.summary).waitFor();
      expect(await panel.getByText(words.aim).isVisible()).toBe(true);
      expect(await rowsOf(page, words.table)).toEqual([
        [sundayWeeksAgo(3), '75%', '3', '4'],
        [sundayWeeksAgo(1), '80%', '4', '5'],
      ]);
      const plot = panel.locator('.u-over');
      expect(await onScreen(page, panel.locator('canvas'))).toBe(true);

      // Pointing at last week (the 25th of 26 weeks, each in an equal slice of the plot) reads it out.
      await plot.scrollIntoViewIfNeeded();
      const box = await plot.boundingBox();
      if (!box) throw new Error('the chart has no plot area');
      await page.mouse.move(box.x + (box.width * 24.5) / 26, box.y + box.height / 2);
      const summary = panel.getByTestId('retention-summary');
      await expect.poll(() => summary.textContent()).toContain(words.lastWeek);
      expect(await summary.textContent()).toContain(words.week);

      expect(await sticksOut(page)).toEqual([]);
      expect(await accessibilityViolations(page)).toEqual([]);
      if (screen === PHONE) {
        // The narrowest phone it is made for.
        await page.setViewportSize({ width: 360, height: 740 });
        await panel.getByText(words.aim).waitFor();
        expect(await onScreen(page, panel.locator('canvas'))).toBe(true);
        expect(await sticksOut(page)).toEqual([]);
      }
    });

    it('tells a learner without reviews of learned cards what will appear there, and when', async () => {
      const page = await openDashboard(
        `retention-empty-${screenName}-${language}`,
        screen,
        language,
        await learner('new'),
      );
      const panel = page.getByRole('region', { name: words.panel });
      const empty = panel.getByTestId('retention-empty');
      await empty.waitFor();
      expect(await empty.textContent()).toContain(words.empty);
      expect(await empty.textContent()).toContain(words.emptyAim);
      expect(await panel.locator('canvas').count()).toBe(0);
      expect(await sticksOut(page)).toEqual([]);
    });
  });
});
