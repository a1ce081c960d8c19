// Issue 12's Generate screen, in a real Chromium through the real gateway and every service, with the
// offline generator (no AWS settings): from the dashboard's usage panel to pasted notes, proposals
// streaming in under a progress indicator, one edited, one deselected, one re-tagged, "Save 3 cards",
// the usage figure updated, and exactly the saved cards due in a practice session.
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { describe, expect, it } from 'vitest';
import { newUser, signUpAndOnboard } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';

const env = useBrowserStack();

const NOTES = [
  '# Chemistry',
  '',
  'An atom is the smallest unit of an element.',
  'A molecule is a group of atoms bonded together.',
  'An ion is an atom with an electric charge.',
  'Isotopes: atoms of one element with different numbers of neutrons.',
].join('\n');

describe('generating cards from notes', () => {
  it('streams proposals, lets the learner edit, deselect and tag them, and saves exactly the chosen cards', async () => {
    const page = await openTestPage(env.browser, 'generate-cards', { bypassCSP: true });
    page.setDefaultTimeout(10_000);
    const { stack } = env;
    await signUpAndOnboard(page, stack.url, newUser('generate'));

    // The dashboard shows the usage figure, labelled as the offline generator, and leads to the screen.
    await page.getByText('0 of 200 generated cards used this period · Offline generator').waitFor();
    await page.getByRole('region', { name: 'Generate cards' }).getByRole('link', { name: 'Generate' }).click();
    await page.waitForURL(`${stack.url}/generate`);
    await page.getByRole('heading', { name: 'Generate cards', level: 1 }).waitFor();
    await page.getByText('0 of 200 generated cards used this period').waitFor();
    await page.getByText('Offline generator').first().waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // Every state the proposals list and the progress indicator pass through is recorded as it happens.
    // (A script in the page's own terms: this test's TypeScript knows no DOM.)
    await page.evaluate(`(() => {
      const seen = { progress: false, counts: [] };
      window.generation = seen;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="generation-progress"]')) seen.progress = true;
        const count = document.querySelectorAll('[data-testid="proposal"]').length;
        if (seen.counts.at(-1) !== count) seen.counts.push(count);
      }).observe(document.body, { childList: true, subtree: true });
    })()`);
    await page.getByRole('textbox', { name: 'Notes' }).fill(NOTES);
    await page.getByRole('spinbutton', { name: 'Number of cards' }).fill('4');
    await page.getByRole('checkbox', { name: 'Reversed' }).uncheck();
    await page.getByRole('checkbox', { name: 'Cloze' }).uncheck();
    await page.getByRole('button', { name: 'Generate', exact: true }).click();

    const proposals = page.getByTestId('proposal');
    await page.getByTestId('generation-outcome').waitFor();
    expect(await page.getByTestId('generation-outcome').innerText()).toBe(
      '4 proposed; 0 left out as malformed or duplicates.',
    );
    expect(await proposals.count()).toBe(4);
    const seen = (await page.evaluate('window.generation')) as { progress: boolean; counts: number[] };
    expect(seen.progress).toBe(true);
    expect(seen.counts.at(-1)).toBe(4);
    const fronts = await Promise.all(
      (await proposals.getByRole('textbox', { name: 'Front' }).all()).map((field) => field.inputValue()),
    );
    expect(fronts).toEqual([
      'What is an atom?',
      'What is a molecule?',
      'What is an ion?',
      'What does “Isotopes” mean?',
    ]);
    expect(await proposals.first().locator('blockquote').innerText()).toContain(
      'An atom is the smallest unit of an element.',
    );
    expect(await accessibilityViolations(page)).toEqual([]);

    // Edit the first, drop the second, re-tag the third.
    await proposals.nth(0).getByRole('textbox', { name: 'Front' }).fill('What is an atom, exactly?');
    await proposals.nth(1).getByRole('checkbox', { name: 'Keep card 2' }).uncheck();
    await proposals.nth(2).getByRole('textbox', { name: 'Tags (comma-separated)' }).fill('chemistry, charge');
    await page.getByRole('button', { name: 'Save 3 cards' }).click();
    await page.getByText('Saved 3 cards to your collection.').waitFor();
    await expect.poll(() => proposals.count()).toBe(0);
    await page.getByText('4 of 200 generated cards used this period').waitFor();

    // The collection holds exactly the saved cards, the new tag included, and they are due now.
    await page.goto(`${stack.url}/dashboard`);
    const list = page.getByRole('list', { name: 'Your cards' });
    await list.getByText('What is an atom, exactly?').waitFor();
    expect(
      await list
        .getByRole('listitem')
        .filter({ hasText: /What (is|does)/ })
        .count(),
    ).toBe(3);
    expect(await list.getByText('What is a molecule?').count()).toBe(0);
    await list
      .getByRole('listitem')
      .filter({ hasText: 'What is an ion?' })
      .getByText('charge', { exact: true })
      .waitFor();

    await page.goto(`${stack.url}/practice/session`);
    const question = page.getByRole('region', { name: 'Question' });
    const asked: string[] = [];
    for (let i = 0; i < 3; i++) {
      await question.waitFor();
      asked.push((await question.innerText()).trim());
      await page.keyboard.press('Space');
      await page.getByRole('region', { name: 'Answer' }).waitFor();
      await page.keyboard.press('4');
    }
    await page.waitForURL(/\/practice\/done\?/);
    expect(asked.sort()).toEqual(['What does “Isotopes” mean?', 'What is an atom, exactly?', 'What is an ion?']);
    expect(new URL(page.url()).searchParams.get('cardCount')).toBe('3');
  });
});
