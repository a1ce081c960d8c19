// Issue 28's settings screen, in a real Chromium through the real gateway and every service: a learner with a
// year of reviews behind them (drawn from a memory that forgets faster than FSRS-6's defaults expect) optimizes
// their parameters, sees the figures before and after, reads the simulator's chart and table, applies the
// recommended retention, is offered (never forced) a reschedule with its preview, and practice then labels the
// rating buttons with their own parameters. A preset for a tag is made, changed and deleted. On a phone, in
// Portuguese, the same screen fits and reads. The screen is in sections, one shown at a time, each with one Save.
import { randomBytes } from 'node:crypto';
import { FORGETFUL_PARAMETERS, syntheticLearner } from '@engram/cards/optimizer/synthetic-learner';
import { DEFAULT_SETTINGS } from '@engram/contracts/learning';
import { DEFAULT_PARAMETERS, newMemoryState, nextIntervals } from '@engram/contracts/scheduler';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import { BACKGROUND_JOB_WAIT_MS } from '@engram/testkit/wait';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { useSessionCookie } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { userIdOf, writeHistory } from './support/database.ts';
import { sticksOut } from './support/layout.ts';
import { LAPTOP, PHONE } from './support/screens.ts';

const env = useBrowserStack();

const TOKYO = { timeZone: 'Asia/Tokyo', dayStartHour: 4 };
const DAY_MS = 86_400_000;

/** A learner in Tokyo with 300 cards to learn, fuzz off (labels exact), and a year of reviews behind them. */
async function learnerWithHistory(label: string) {
  const email = `${label}-${randomBytes(4).toString('hex')}@example.com`;
  const cookie = await signUpThroughGateway(env.stack.url, 'Fiona Fit', email);
  const api = trpcClient(env.stack.url, cookie);
  await api.mutate('settings.completeOnboarding', { timezone: TOKYO.timeZone });
  await api.mutate('settings.update', { fuzz: false });
  // Enough cards to learn for a year of study to simulate.
  const cards = Array.from({ length: 300 }, (_, n) => ({ front: `River ${n}`, back: `Sea ${n}` }));
  await api.mutate('cards.createMany', { cards });
  const firstDay = new Date(Date.now() - 366 * DAY_MS).toISOString().slice(0, 10);
  const history = syntheticLearner({
    parameters: FORGETFUL_PARAMETERS,
    firstDay,
    days: 365,
    newPerDay: 10,
    ...TOKYO,
    seed: 28,
  });
  await writeHistory(env.stack, await userIdOf(env.stack, email), history);
  return { cookie, api };
}

async function openSettings(
  name: string,
  screen: BrowserContextOptions,
  locale: string,
  cookie: string,
  section?: 'scheduling' | 'presets' | 'device',
) {
  // The accessibility checker is a script the app's Content-Security-Policy would rightly refuse.
  const page = await openTestPage(env.browser, name, { ...screen, locale, bypassCSP: true });
  page.setDefaultTimeout(20_000);
  await useSessionCookie(page, env.stack.url, cookie);
  await page.goto(`${env.stack.url}/settings${section ? `?section=${section}` : ''}`);
  return page;
}

/** The label of the Easy button on the first card of a practice session, in a browser of its own. */
async function easyLabel(name: string, cookie: string): Promise<string> {
  const page = await openSettings(name, LAPTOP, 'en-US', cookie);
  await page.goto(`${env.stack.url}/practice/new`);
  await page.getByRole('link', { name: 'Start' }).click();
  await page.waitForURL(/\/practice\/session/);
  await page.getByRole('button', { name: 'Show answer' }).click();
  const label = page.getByTestId('interval-easy');
  await label.waitFor();
  const text = (await label.textContent()) ?? '';
  return text;
}

const tableRows = async (page: Page, name: string) => {
  const rows = page.getByRole('table', { name }).locator('tbody tr');
  const texts: string[][] = [];
  for (const row of await rows.all()) texts.push(await row.locator('th, td').allTextContents());
  return texts;
};

describe('personal scheduling on the settings screen', () => {
  it('optimizes the learner’s parameters, shows the figures and the simulator, applies the recommended retention, and practice uses them', async () => {
    const { cookie, api } = await learnerWithHistory('fiona');
    // FSRS-6's defaults: a new card answered Easy comes back in 8 days.
    expect(await easyLabel('practice-before', cookie)).toBe('8d');
    const page = await openSettings('scheduling-laptop', LAPTOP, 'en-US', cookie, 'presets');
    const presets = page.getByRole('region', { name: 'Presets' });
    await presets.getByText('Reviews are scheduled with FSRS-6’s default parameters, the same for everyone.').waitFor();
    // Their history is of cards they have since deleted: left out, there is nothing to learn from.
    const excludeDeleted = presets.getByRole('checkbox', { name: 'Leave out the reviews of cards I deleted' });
    await excludeDeleted.check();
    await presets.getByRole('button', { name: 'Optimize parameters' }).click();
    await presets
      .getByText('Not enough reviews to learn from yet: 0 of the 400 it needs, 400 more to go.')
      .waitFor({ timeout: BACKGROUND_JOB_WAIT_MS });
    await presets.getByText('Reviews are scheduled with FSRS-6’s default parameters, the same for everyone.').waitFor();
    await excludeDeleted.uncheck();
    await presets.getByRole('button', { name: 'Optimize parameters' }).click();
    await presets.getByText('Your own parameters predict your reviews better: they are in use now.').waitFor({
      timeout: BACKGROUND_JOB_WAIT_MS,
    });
    await presets.getByText(/^Reviews are scheduled with parameters fitted to your own reviews on /).waitFor();
    const figures = presets.getByRole('table', { name: /How well each model predicted/ });
    const [logLoss, rmse] = await tableRows(page, (await figures.locator('caption').textContent()) ?? '');
    expect(logLoss?.[0]).toBe('Log loss (lower is better)');
    expect(rmse?.[0]).toBe('RMSE (lower is better)');
    for (const [, before, after] of [logLoss ?? [], rmse ?? []]) expect(Number(after)).toBeLessThan(Number(before));
    // Adopting new parameters offers to reschedule; these cards are all new, so nothing moves.
    await presets.getByText('Every reviewed card’s due date already fits this preset’s options.').waitFor();
    await presets.getByRole('button', { name: 'Not now' }).click();

    // The simulator: a line per desired retention, and the same year in a table.
    const simulated = await tableRows(page, 'The next year at each desired retention');
    expect(simulated.map(([retention]) => retention)).toEqual(['80%', '85%', '90% (yours)', '95%']);
    await presets.locator('figure canvas').first().waitFor();
    const minutes = simulated.map(([, perDay]) => Number(perDay));
    expect(minutes.at(-1)).toBeGreaterThan(minutes[0] ?? 0);

    // A stricter aim first, so that the recommendation (never above 95%) is another one.
    const retention = presets.getByRole('spinbutton', { name: 'Desired retention' });
    await retention.fill('0.97');
    await presets.getByRole('button', { name: 'Save preset' }).click();
    await page.getByText('Preset saved').waitFor();
    const recommendation = presets.getByText(/^Recommended: \d+%\./);
    await recommendation.waitFor();
    await presets.getByText(/^It never suggests less than 80%/).waitFor();
    const recommended = /^Recommended: (\d+)%/.exec((await recommendation.textContent()) ?? '')?.[1];
    await presets.getByRole('button', { name: `Use ${recommended}%` }).click();
    await page.getByText(`Desired retention set to ${recommended}%`).waitFor();
    await presets.getByRole('heading', { name: 'Reschedule this preset’s cards?' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    const settings = (await api.query('settings.get')) as {
      presets: { desiredRetention: number; optimizedAt: string | null; parameters: number[] }[];
    };
    expect(settings.presets[0]?.desiredRetention).toBe(Number(recommended) / 100);
    expect(settings.presets[0]?.optimizedAt).not.toBeNull();

    // Practice labels the buttons with the learner's own parameters at the retention applied: they forget
    // faster than FSRS-6's defaults expect, so Easy brings a new card back sooner than the defaults would.
    const now = new Date();
    const easyDays = (parameters: readonly number[]) => {
      const options = { ...DEFAULT_SETTINGS, desiredRetention: Number(recommended) / 100, parameters, fuzz: false };
      return Math.round(nextIntervals(options, newMemoryState(now), now).easy / 86_400);
    };
    const own = easyDays(settings.presets[0]?.parameters ?? []);
    expect(own).toBeLessThan(easyDays(DEFAULT_PARAMETERS));
    expect(own).toBeLessThan(30);
    expect(await easyLabel('practice-after', cookie)).toBe(`${own}d`);
  });

  it('makes a preset for a tag, with its own limits, and deletes it', async () => {
    const email = `tagged-${randomBytes(4).toString('hex')}@example.com`;
    const cookie = await signUpThroughGateway(env.stack.url, 'Tomas Tag', email);
    const api = trpcClient(env.stack.url, cookie);
    await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
    await api.mutate('cards.createTag', { name: 'Kanji' });
    const page = await openSettings('scheduling-tag', LAPTOP, 'en-US', cookie, 'presets');
    const presets = page.getByRole('region', { name: 'Presets' });
    await presets.getByRole('textbox', { name: 'New preset’s name' }).fill('Kanji');
    await presets.getByRole('button', { name: 'Create preset' }).click();
    await page.getByText('Preset created').waitFor();
    await presets.getByRole('heading', { name: 'Options of Kanji' }).waitFor();
    await presets.getByRole('checkbox', { name: 'Kanji' }).check();
    await presets.getByRole('spinbutton', { name: 'New cards a day' }).fill('10000');
    await presets.getByRole('button', { name: 'Save preset' }).click();
    await presets.getByText('A whole number from 0 to 9999.').waitFor();
    await presets.getByRole('spinbutton', { name: 'New cards a day' }).fill('5');
    await presets.getByRole('button', { name: 'Save preset' }).click();
    await page.getByText('Preset saved').waitFor();
    const saved = (await api.query('settings.get')) as {
      presets: { name: string; tagIds: string[]; newPerDay: number }[];
    };
    expect(saved.presets.map(({ name, tagIds, newPerDay }) => [name, tagIds.length, newPerDay])).toEqual([
      ['Default', 0, 20],
      ['Kanji', 1, 5],
    ]);

    await presets.getByRole('button', { name: 'Delete preset' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Kanji?' });
    await dialog.getByRole('button', { name: 'Delete preset' }).click();
    await page.getByText('Preset deleted').waitFor();
    await presets.getByRole('heading', { name: 'Options of Default' }).waitFor();
    expect(((await api.query('settings.get')) as { presets: unknown[] }).presets).toHaveLength(1);
  });

  it('makes Sunday a day off and Saturday lighter, and turns load balancing off', async () => {
    const email = `weekend-${randomBytes(4).toString('hex')}@example.com`;
    const cookie = await signUpThroughGateway(env.stack.url, 'Wanda Weekend', email);
    const api = trpcClient(env.stack.url, cookie);
    await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
    const page = await openSettings('scheduling-easy-days', LAPTOP, 'en-US', cookie, 'scheduling');
    const easyDays = page.getByRole('group', { name: 'Easy days' });
    await easyDays.getByRole('combobox', { name: 'Sunday' }).selectOption({ label: 'Day off' });
    await easyDays.getByRole('combobox', { name: 'Saturday' }).selectOption({ label: 'Lighter (half)' });
    await page.getByRole('checkbox', { name: 'Balance the load' }).uncheck();
    // Meanwhile the desired retention changed (it is the preset's): saving the settings leaves it as it is now.
    await api.mutate('settings.updatePreset', { desiredRetention: 0.85 });
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    const saved = (await api.query('settings.get')) as {
      easyDays: number[];
      loadBalance: boolean;
      desiredRetention: number;
    };
    expect(saved).toMatchObject({ easyDays: [1, 1, 1, 1, 1, 0.5, 0], loadBalance: false, desiredRetention: 0.85 });
    await page.reload();
    expect(await easyDays.getByRole('combobox', { name: 'Sunday' }).inputValue()).toBe('0');
  });

  it('fits a phone and reads in Portuguese', async () => {
    const { cookie } = await learnerWithHistory('telefone');
    const page = await openSettings('scheduling-phone', PHONE, 'pt-BR', cookie, 'presets');
    const presets = page.getByRole('region', { name: 'Predefinições' });
    await presets.getByRole('button', { name: 'Otimizar parâmetros' }).waitFor();
    await presets.getByRole('table', { name: 'O próximo ano em cada retenção desejada' }).waitFor();
    await presets.locator('figure canvas').first().waitFor();
    await presets.getByText(/^(Recomendada: |A sua retenção desejada)/).waitFor();
    expect(await sticksOut(page)).toEqual([]);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it.each([
    ['en', 'a laptop', LAPTOP],
    ['pt-BR', 'a phone', PHONE],
  ] as const)('is in sections, one shown at a time with one Save, in %s on %s', async (language, _screen, screen) => {
    const words =
      language === 'en'
        ? {
            locale: 'en-US',
            nav: 'Sections of the settings',
            sections: ['Your day', 'Scheduling', 'Presets', 'This device'],
            save: 'Save settings',
            saved: 'Settings saved',
            goal: 'Daily goal',
            steps: 'Learning steps',
            offline: 'Practice without the network',
          }
        : {
            locale: 'pt-BR',
            nav: 'Seções das configurações',
            sections: ['Seu dia', 'Agendamento', 'Predefinições', 'Este aparelho'],
            save: 'Salvar configurações',
            saved: 'Configurações salvas',
            goal: 'Meta diária',
            steps: 'Etapas de aprendizado',
            offline: 'Prática sem conexão',
          };
    const email = `sections-${randomBytes(4).toString('hex')}@example.com`;
    const cookie = await signUpThroughGateway(env.stack.url, 'Sara Secao', email);
    const api = trpcClient(env.stack.url, cookie);
    await api.mutate('settings.completeOnboarding', { timezone: 'UTC' });
    const page = await openSettings(`settings-sections-${language}`, screen, words.locale, cookie);
    const nav = page.getByRole('navigation', { name: words.nav });
    const current = () => nav.locator('[aria-current="page"]').textContent();
    const saves = () => page.getByRole('button', { name: words.save }).count();

    // The day first, alone, with its one Save.
    expect(await current()).toBe(words.sections[0]);
    const goal = page.getByRole('spinbutton', { name: words.goal });
    await goal.fill('25');
    expect(await page.getByRole('textbox', { name: words.steps, exact: true }).count()).toBe(0);
    expect(await saves()).toBe(1);
    expect(await sticksOut(page)).toEqual([]);

    // Scheduling: a change of the day not yet saved is kept, and goes with this section's Save.
    await nav.getByRole('link', { name: words.sections[1] }).click();
    await page.waitForURL(/\?section=scheduling$/);
    expect(await current()).toBe(words.sections[1]);
    await page.getByRole('textbox', { name: words.steps, exact: true }).fill('5m 30m');
    expect(await saves()).toBe(1);
    await page.getByRole('button', { name: words.save }).click();
    await page.getByText(words.saved).waitFor();
    expect(await api.query('settings.get')).toMatchObject({ dailyGoal: 25, learningSteps: ['5m', '30m'] });
    expect(await sticksOut(page)).toEqual([]);
    // The longest section; the whole screen was 4,800 px long on a phone when it was one page.
    expect(await page.evaluate<number>('document.documentElement.scrollHeight')).toBeLessThan(2_000);

    // Presets save each on their own; this device has nothing to save.
    await nav.getByRole('link', { name: words.sections[2] }).click();
    await page.getByRole('region', { name: words.sections[2] }).waitFor();
    expect(await saves()).toBe(0);
    await nav.getByRole('link', { name: words.sections[3] }).click();
    await page.getByRole('heading', { name: words.offline }).waitFor();
    expect(await saves()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);

    // Back to the day by its link, or by any section the page does not have.
    await page.goto(`${env.stack.url}/settings?section=nonsense`);
    await goal.waitFor();
    expect(await goal.inputValue()).toBe('25');
    expect(await current()).toBe(words.sections[0]);
  });
});
