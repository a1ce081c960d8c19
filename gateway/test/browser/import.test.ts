// The import screen, in a real Chromium through the real gateway and every service: a new learner follows the
// empty card list to /import, drops a CSV file on the drop zone (a real drop event holding a File), watches
// it being sent, sees the preview with the guessed columns, changes one, imports it, watches the progress
// bar reach the end, reads what came in and the skipped row with its line, and finds the cards in the list.
// A file of another kind is refused before anything is sent; leaving the page and coming back follows the
// import again; an Anki package starts at once, and a broken one says why and offers another try. On a phone,
// in Portuguese, a wide file's preview scrolls inside its own box and nothing is wider than the screen; the
// screens pass axe's checks.

import { IMPORT_KINDS_MESSAGE } from '@engram/contracts/media';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import type { BrowserContextOptions } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { newUser, signUpAndOnboard } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { countsOf, dropFile } from './support/import-screen.ts';
import { sticksOut } from './support/layout.ts';
import { PHONE } from './support/screens.ts';

const env = useBrowserStack();

/** German words: 300 rows under a header, the third without a front (line 4 of the file). */
const GERMAN = [
  'Word;Meaning;Topic',
  'der Hund;the dog;animals',
  'die Katze;the cat;animals',
  ';the bird;animals',
  ...Array.from({ length: 297 }, (_, index) => `das Wort ${index + 1};word ${index + 1};vocabulary`),
].join('\n');

/** Records every value the page's progress bars take ("label now/max"), in order. */
const RECORD_PROGRESS = `
  window.progressSeen = [];
  new MutationObserver(() => {
    for (const bar of document.querySelectorAll('[role=progressbar]')) {
      const seen = bar.getAttribute('aria-label') + ' ' + bar.getAttribute('aria-valuenow') + '/' + bar.getAttribute('aria-valuemax');
      if (window.progressSeen.at(-1) !== seen) window.progressSeen.push(seen);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
`;

describe('the import screen', () => {
  it('imports a dropped CSV file: preview, mapping, progress, what came in and what was skipped', async () => {
    const page = await openTestPage(env.browser, 'import-csv');
    page.setDefaultTimeout(15_000);
    await page.addInitScript(RECORD_PROGRESS);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') sent.push(request.url());
    });
    await signUpAndOnboard(page, env.stack.url, newUser('importer'));

    // A new learner's empty card list leads to the import screen.
    await page.getByRole('link', { name: 'Bring your cards from Anki or a CSV file' }).click();
    await page.waitForURL(`${env.stack.url}/import`);
    await page.getByRole('heading', { name: 'Import cards', level: 1 }).waitFor();
    await page.getByText('Nothing imported yet.').waitFor();
    const zone = page.getByRole('button', { name: /^Drop a file here, or choose one/ });

    // Another kind of file is refused with the contract's words, and nothing is sent.
    await dropFile(page, zone, 'notes.pdf', 'not a collection', 'application/pdf');
    await page.getByText(IMPORT_KINDS_MESSAGE).waitFor();
    expect(sent).toEqual([]);

    // The CSV file: its bytes are held on their way to the store until the sending bar has shown.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      () => true,
      async (route) => {
        if (route.request().method() !== 'PUT') return route.fallback();
        await held;
        return route.continue();
      },
    );
    await dropFile(page, zone, 'german.csv', GERMAN);
    await page.getByRole('progressbar', { name: 'Sending the file' }).waitFor();
    await page.getByText(/^Sending german\.csv… \d+%$/).waitFor();
    release();
    await page.unrouteAll();

    // The preview: the layout found, the first rows, each column's guess.
    await page.getByRole('heading', { name: 'Which column holds what?' }).waitFor();
    expect(await page.getByTestId('import-layout').textContent()).toBe('CSV file in UTF-8, separated by semicolons');
    await page.getByRole('cell', { name: 'der Hund' }).waitFor();
    const column = (name: string) => page.getByRole('combobox', { name, exact: true });
    expect([await column('Word').inputValue(), await column('Meaning').inputValue()]).toEqual(['front', 'back']);
    expect(await column('Topic').inputValue()).toBe('ignore');

    // Two fronts and no back cannot be imported; the problems show as the columns are chosen.
    const start = page.getByRole('button', { name: 'Import german.csv' });
    await column('Meaning').selectOption('front');
    await page.getByText('Front: Only one column can hold this; now columns 1 and 2 do.').waitFor();
    await page.getByText('Back: Choose a column.').waitFor();
    expect(await start.isDisabled()).toBe(true);
    await column('Meaning').selectOption('back');
    await column('Topic').selectOption('tags');
    await page.getByText('Before importing').waitFor({ state: 'detached' });

    // The import runs; its bar ends full, and what came in and what was skipped are shown and announced.
    await start.click();
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    await page.getByRole('heading', { name: 'german.csv is imported' }).waitFor({ timeout: 60_000 });
    expect([await bar.getAttribute('aria-valuenow'), await bar.getAttribute('aria-valuemax')]).toEqual(['300', '300']);
    await page.getByText('300 of 300 rows').waitFor();
    // Every count the bar showed on the way (none while it only waited) went up, never back.
    const seen = ((await page.evaluate('window.progressSeen')) as string[])
      .filter((value) => value.startsWith('Import progress ') && !value.endsWith('null/null'))
      .map((value) => Number(value.split(' ').at(-1)?.split('/')[0]));
    expect(seen.at(-1)).toBe(300);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(await countsOf(page.getByTestId('import-counts'))).toEqual([
      'Notes 299',
      'Cards 299',
      'Reviews 0',
      'Images and sounds 0',
    ]);
    expect(await countsOf(page.getByTestId('import-skipped'))).toEqual(['Skipped 1']);
    await page
      .getByRole('list', { name: 'What was skipped, and why' })
      .getByText('Line 4: The front is empty.')
      .waitFor();
    expect(await page.getByTestId('import-announcement').textContent()).toBe(
      'Import finished. Notes imported: 299. Skipped: 1.',
    );
    const past = page.getByRole('list', { name: 'Your imports' }).getByRole('listitem');
    await past.filter({ hasText: 'Imported' }).waitFor();
    expect(await past.count()).toBe(1);
    expect(await past.textContent()).toMatch(/^german\.csv.* · Notes: 299 · Cards: 299 · Skipped: 1\s*Imported$/);

    // The cards are in the list, tagged from the column chosen.
    await page.getByRole('link', { name: 'See your cards' }).click();
    await page.waitForURL(`${env.stack.url}/dashboard`);
    await page.getByRole('searchbox', { name: 'Search cards' }).fill('der Hund');
    const card = page.getByRole('list', { name: 'Your cards' }).getByRole('listitem').filter({ hasText: 'the dog' });
    await card.getByRole('list', { name: 'Tags' }).getByText('animals', { exact: true }).waitFor();
  }, 120_000);

  it('follows the import again when the learner leaves the page and comes back', async () => {
    const page = await openTestPage(env.browser, 'import-resume');
    page.setDefaultTimeout(15_000);
    await signUpAndOnboard(page, env.stack.url, newUser('resumer'));
    await page.goto(`${env.stack.url}/import`);
    const zone = page.getByRole('button', { name: /^Drop a file here, or choose one/ });
    await dropFile(page, zone, 'again.csv', 'front,back\nder Baum,the tree\ndie Blume,the flower');
    await page.getByRole('button', { name: 'Import again.csv' }).click();
    await page.getByRole('list', { name: 'Your imports' }).getByText('again.csv').waitFor();

    // Away to the dashboard and back, as the learner would, while it runs or just after.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { name: 'Your cards' }).waitFor();
    await page.goBack();
    await page.getByTestId(/^import-(queued|running|done)$/).waitFor();
    await page.getByRole('heading', { name: 'again.csv is imported' }).waitFor({ timeout: 60_000 });
    expect(await zone.count()).toBe(0);
    await page.getByText('2 of 2 rows').waitFor();
  }, 120_000);

  it('starts an Anki package at once, and when it fails says why and offers another file', async () => {
    const page = await openTestPage(env.browser, 'import-broken');
    page.setDefaultTimeout(15_000);
    await signUpAndOnboard(page, env.stack.url, newUser('brokenimport'));
    await page.goto(`${env.stack.url}/import`);
    const zone = page.getByRole('button', { name: /^Drop a file here, or choose one/ });
    await dropFile(page, zone, 'broken.apkg', 'not an Anki package', 'application/octet-stream');

    const failed = page.getByTestId('import-failed');
    await failed.getByRole('heading', { name: 'broken.apkg could not be imported' }).waitFor({ timeout: 60_000 });
    const reason = (await failed.locator('p').textContent()) ?? '';
    expect(reason.length).toBeGreaterThan(10);
    expect(await page.getByTestId('import-announcement').textContent()).toBe(`The import failed: ${reason}`);
    await page.getByRole('list', { name: 'Your imports' }).getByText('Failed', { exact: true }).waitFor();

    await failed.getByRole('button', { name: 'Try another file' }).click();
    await zone.waitFor();
  }, 120_000);
});

/** A file wider than a phone: long column names and a very long word in every row. */
const WIDE = [
  'Frente,Verso,Etiquetas,Comentário bastante comprido,Outra observação,Fonte',
  ...Array.from({ length: 6 }, (_, index) =>
    [`Pergunta ${index + 1}`, index === 2 ? '' : `Resposta ${index + 1}`, 'biologia', 'x'.repeat(120), 'y', 'z'].join(
      ',',
    ),
  ),
].join('\n');

async function learnerPage(name: string, screen: BrowserContextOptions, locale: string) {
  const cookie = await signUpThroughGateway(env.stack.url, 'Telefone');
  await trpcClient(env.stack.url, cookie).mutate('settings.completeOnboarding', { timezone: 'UTC' });
  // The accessibility checker is a script the app's Content-Security-Policy would rightly refuse.
  const page = await openTestPage(env.browser, name, { ...screen, locale, bypassCSP: true });
  page.setDefaultTimeout(15_000);
  await page.context().addCookies(
    cookie.split('; ').map((pair) => {
      const [cookieName = '', value = ''] = pair.split('=');
      return { name: cookieName, value, url: env.stack.url };
    }),
  );
  return page;
}

describe('the import screen on a phone, in Portuguese', () => {
  it('fits a wide file’s preview in 390 px, scrolling it in its own box, and passes the accessibility checks', async () => {
    const page = await learnerPage('import-phone', PHONE, 'pt-BR');
    await page.goto(`${env.stack.url}/import`);
    await page.getByRole('heading', { name: 'Importar cartões', level: 1 }).waitFor();
    await page.getByText('Nada importado ainda.').waitFor();
    expect(await sticksOut(page)).toEqual([]);

    await dropFile(
      page,
      page.getByRole('button', { name: /^Solte um arquivo aqui ou escolha um/ }),
      'biologia.csv',
      WIDE,
    );
    await page.getByRole('heading', { name: 'Qual coluna contém o quê?' }).waitFor();
    expect(await page.getByTestId('import-layout').textContent()).toBe('Arquivo CSV em UTF-8, separado por vírgulas');
    expect(await sticksOut(page)).toEqual([]);
    const box = page.locator('table').locator('..');
    const [scrollWidth, clientWidth] = await box.evaluate((element) => [
      Number(Reflect.get(element, 'scrollWidth')),
      Number(Reflect.get(element, 'clientWidth')),
    ]);
    expect(scrollWidth).toBeGreaterThan(clientWidth ?? Number.POSITIVE_INFINITY);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Importar biologia.csv' }).tap();
    await page.getByRole('heading', { name: 'biologia.csv foi importado' }).waitFor({ timeout: 60_000 });
    await page.getByText('Linha 4: The back is empty.').waitFor();
    expect(await page.getByTestId('import-announcement').textContent()).toBe(
      'Importação concluída. Notas importadas: 5. Ignorados: 1.',
    );
    expect(await sticksOut(page)).toEqual([]);
    expect(await accessibilityViolations(page)).toEqual([]);
  }, 120_000);
});
