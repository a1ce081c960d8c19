// The import screen, in a real Chromium through the real gateway and every service: a new learner follows the
// empty card list to /import, drops a CSV file on the drop zone (a real drop event holding a File), watches
// it being sent, sees the preview with the guessed columns, changes one, imports it, watches the progress
// bar reach the end, reads what came in and the skipped row with its line, and finds the cards in the list.
// A file of another kind is refused before anything is sent; leaving the page and coming back follows the
// import again; an Anki package starts at once, and a broken one says why and offers another try. On a phone,
// in Portuguese, a wide file's preview scrolls inside its own box, nothing is wider than the screen and the
// skipped row is told in Portuguese; the screens pass axe's checks. A third file sent while two wait past the
// free plan's allowance is refused with a toast in Portuguese.
//
// Moving from Anki and back, on the same stack: a learner in São Paulo drops an Anki package (current layout,
// made by the test) on the import screen — a Basic note showing a picture with a sound on its back, a cloze
// note, a reversed note, tags, the deck Biology::Cells and review history on the last three days — and
// watches the progress bar reach its end and what came in. The one new card is practised: its picture is shown, its sound plays with the answer and R
// plays it again. The dashboard counts the imported reviews in the learner's days (table, heatmap, streak).
// The export panel then writes an Anki package whose download holds the cards, the deck and the files.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATED_NOTE_TYPES } from '@engram/anki/generate-collection';
import { openPackage } from '@engram/anki/open-package';
import type { AnkiCard, AnkiNote, AnkiRevlog } from '@engram/anki/types';
import { writePackage } from '@engram/anki/write-package';
import { IMPORT_KINDS_MESSAGE } from '@engram/contracts/media';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import { signUpThroughGateway } from '@engram/testkit/stack';
import { BACKGROUND_JOB_WAIT_MS } from '@engram/testkit/wait';
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it, onTestFinished } from 'vitest';
import { trpcClient } from '../support/trpc-client.ts';
import { newUser, signUpAndOnboard, useSessionCookie } from './support/auth.ts';
import { accessibilityViolations } from './support/axe.ts';
import { countsOf, dropFile } from './support/import-screen.ts';
import { sticksOut } from './support/layout.ts';
import { solidPng } from './support/png.ts';
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

/** The counts the import's progress bar showed, in order (none while it only waited for the job to start). */
async function importProgressSeen(page: Page): Promise<number[]> {
  return ((await page.evaluate('window.progressSeen')) as string[])
    .filter((value) => value.startsWith('Import progress ') && !value.endsWith('null/null'))
    .map((value) => Number(value.split(' ').at(-1)?.split('/')[0]));
}

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
    // The held PUT's handler goes on after release: wait for it, or unrouting would handle its route a second time.
    await page.unrouteAll({ behavior: 'wait' });

    // The preview: the layout found, the first rows, each column's guess.
    await page.getByRole('heading', { name: 'Which column holds what?' }).waitFor();
    expect(await page.getByTestId('import-layout').textContent()).toBe('CSV file in UTF-8, separated by semicolons');
    await page.getByRole('cell', { name: 'der Hund' }).waitFor();
    const column = (name: string) => page.getByRole('combobox', { name, exact: true });
    expect([await column('Word').inputValue(), await column('Meaning').inputValue()]).toEqual(['front', 'back']);
    expect(await column('Topic').inputValue()).toBe('ignore');

    // Two fronts cannot be imported; the problems show as the columns are chosen.
    const start = page.getByRole('button', { name: 'Import german.csv' });
    await column('Meaning').selectOption('front');
    await page.getByText('Front: Only one column can hold this; now columns 1 and 2 do.').waitFor();
    expect(await start.isDisabled()).toBe(true);
    // A front with no back column holds both sides, as Mochi writes its cards: the screen says how it is read.
    await column('Meaning').selectOption('ignore');
    await page.getByTestId('import-split').getByText('split at a line of three dashes (---)').waitFor();
    expect(await start.isDisabled()).toBe(false);
    await column('Meaning').selectOption('back');
    await page.getByTestId('import-split').waitFor({ state: 'detached' });
    await column('Topic').selectOption('tags');
    await page.getByText('Before importing').waitFor({ state: 'detached' });

    // The import runs; its bar ends full, and what came in and what was skipped are shown and announced.
    await start.click();
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    await page.getByRole('heading', { name: 'german.csv is imported' }).waitFor({ timeout: BACKGROUND_JOB_WAIT_MS });
    expect([await bar.getAttribute('aria-valuenow'), await bar.getAttribute('aria-valuemax')]).toEqual(['300', '300']);
    await page.getByText('300 of 300 rows').waitFor();
    // Every count the bar showed on the way (none while it only waited) went up, never back.
    const seen = await importProgressSeen(page);
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
  });

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
    await page.getByRole('heading', { name: 'again.csv is imported' }).waitFor({ timeout: BACKGROUND_JOB_WAIT_MS });
    expect(await zone.count()).toBe(0);
    await page.getByText('2 of 2 rows').waitFor();
  });

  it('starts an Anki package at once, and when it fails says why and offers another file', async () => {
    const page = await openTestPage(env.browser, 'import-broken');
    page.setDefaultTimeout(15_000);
    await signUpAndOnboard(page, env.stack.url, newUser('brokenimport'));
    await page.goto(`${env.stack.url}/import`);
    const zone = page.getByRole('button', { name: /^Drop a file here, or choose one/ });
    await dropFile(page, zone, 'broken.apkg', 'not an Anki package', 'application/octet-stream');

    const failed = page.getByTestId('import-failed');
    await failed
      .getByRole('heading', { name: 'broken.apkg could not be imported' })
      .waitFor({ timeout: BACKGROUND_JOB_WAIT_MS });
    const reason = (await failed.locator('p').textContent()) ?? '';
    expect(reason.length).toBeGreaterThan(10);
    expect(await page.getByTestId('import-announcement').textContent()).toBe(`The import failed: ${reason}`);
    await page.getByRole('list', { name: 'Your imports' }).getByText('Failed', { exact: true }).waitFor();

    await failed.getByRole('button', { name: 'Try another file' }).click();
    await zone.waitFor();
  });
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
  await useSessionCookie(page, env.stack.url, cookie);
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
    await page
      .getByRole('heading', { name: 'biologia.csv foi importado' })
      .waitFor({ timeout: BACKGROUND_JOB_WAIT_MS });
    // What was skipped is said in Portuguese too.
    await page.getByText('Linha 4: O verso está vazio.').waitFor();
    expect(await page.getByTestId('import-announcement').textContent()).toBe(
      'Importação concluída. Notas importadas: 5. Ignorados: 1.',
    );
    expect(await sticksOut(page)).toEqual([]);
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});

describe('files sent to import and waiting, in Portuguese', () => {
  it('says so in a toast when they take all the room the plan gives them', async () => {
    const page = await learnerPage('import-waiting', { viewport: { width: 1280, height: 800 } }, 'pt-BR');
    await page.goto(`${env.stack.url}/import`);
    const zone = page.getByRole('button', { name: /^Solte um arquivo aqui ou escolha um/ });
    // A free plan lets two files wait: each of these is previewed, then left for another.
    for (const name of ['primeiro.csv', 'segundo.csv']) {
      await dropFile(page, zone, name, 'Frente,Verso\nsim,yes\n');
      await page.getByRole('heading', { name: 'Qual coluna contém o quê?' }).waitFor();
      await page.getByRole('button', { name: 'Escolher outro arquivo' }).click();
    }
    await dropFile(page, zone, 'terceiro.csv', 'Frente,Verso\nnão,no\n');
    await page
      .getByText(
        'Seus arquivos esperando para ser importados já ocupam todo o espaço que seu plano dá a eles. ' +
          'Importe-os ou espere que expirem, 3 horas depois de enviados, e então envie este.',
      )
      .waitFor();
    await zone.waitFor();
  });
});

/** São Paulo keeps UTC−3 all year (no daylight saving since 2019), so noon there is 15:00 UTC. */
const TIMEZONE = 'America/Sao_Paulo';
const UTC_OFFSET = '-03:00';
/** Engram's default: a study day starts at 04:00 (as Anki's does), so 02:00 still counts as the day before. */
const DAY_START_HOUR = 4;
const DAY_MS = 86_400_000;

const [BASIC, REVERSED, CLOZE] = GENERATED_NOTE_TYPES;
const DECKS = [
  { id: 1, name: 'Default' },
  { id: 1_700_000_002_001, name: 'Biology' },
  { id: 1_700_000_002_002, name: 'Biology::Cells' },
];
const CELLS = 1_700_000_002_002;

/** A day as `YYYY-MM-DD`, `days` after `date`. */
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The learner's study day now: the date in their timezone, four hours back. */
const studyToday = (now: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TIMEZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(now.getTime() - DAY_START_HOUR * 3_600_000),
  );

/** A day as the dashboard's heatmap names it ("Nov 22"). */
const shortDate = (date: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

/** Half a second of silent MP3 frames (MPEG-1 layer III, 128 kbit/s, 44.1 kHz), which Chromium plays. */
function silentMp3(): Buffer {
  const frame = Buffer.alloc(417);
  Buffer.from('fffb9064', 'hex').copy(frame);
  return Buffer.concat(Array.from({ length: 20 }, () => frame));
}

const PICTURE = solidPng(64, 48, [40, 160, 90]);
const SOUND = silentMp3();

/**
 * The collection: the Basic note is new (due now); the others' cards were reviewed at noon on the study days
 * `today − 3`, `− 2` and `− 1` (2, 1 and 3 reviews) and carry Anki's FSRS state, due in ten days.
 */
function collection(today: string) {
  const created = Date.parse(`${addDays(today, -30)}T00:00:00Z`) / 1000;
  const at = (daysAgo: number, minute: number) =>
    Date.parse(`${addDays(today, -daysAgo)}T12:00:00${UTC_OFFSET}`) + minute * 60_000;
  const notes: AnkiNote[] = [
    {
      id: 1_710_000_000_001,
      guid: 'cell-picture',
      noteTypeId: BASIC!.id,
      fields: ['Which organelle is this?<br><img src="cell.png">', 'The mitochondrion[sound:cell.mp3]'],
      tags: ['organelles'],
      modified: created,
    },
    {
      id: 1_710_000_000_002,
      guid: 'cell-cloze',
      noteTypeId: CLOZE!.id,
      fields: ['The {{c1::nucleus}} holds the cell’s {{c2::DNA}}.', ''],
      tags: ['organelles'],
      modified: created,
    },
    {
      id: 1_710_000_000_003,
      guid: 'cell-membrane',
      noteTypeId: REVERSED!.id,
      fields: ['cell membrane', 'the boundary of a cell'],
      tags: ['membranes'],
      modified: created,
    },
  ];
  // [card id, note id, ordinal, its reviews as [days ago, minute after noon, ease]]
  const reviewed: [number, number, number, [number, number, number][]][] = [
    [
      1_720_000_000_002,
      notes[1]!.id,
      0,
      [
        [3, 0, 3],
        [1, 0, 3],
      ],
    ],
    [1_720_000_000_003, notes[1]!.id, 1, [[2, 0, 3]]],
    [
      1_720_000_000_004,
      notes[2]!.id,
      0,
      [
        [3, 1, 4],
        [1, 1, 3],
      ],
    ],
    [1_720_000_000_005, notes[2]!.id, 1, [[1, 2, 2]]],
  ];
  const revlog: AnkiRevlog[] = reviewed.flatMap(([cardId, , , reviews]) =>
    reviews.map(([daysAgo, minute, ease], index) => ({
      id: at(daysAgo, minute),
      cardId,
      ease,
      interval: index + 1,
      lastInterval: index,
      factor: 2500,
      timeMs: 6000,
      type: index === 0 ? 0 : 1,
    })),
  );
  const cards: AnkiCard[] = [
    {
      id: 1_720_000_000_001,
      noteId: notes[0]!.id,
      ordinal: 0,
      deckId: CELLS,
      queue: 0,
      type: 0,
      due: 1,
      interval: 0,
      easeFactor: 0,
      reps: 0,
      lapses: 0,
      fsrs: undefined,
    },
    ...reviewed.map(([id, noteId, ordinal, reviews]) => ({
      id,
      noteId,
      ordinal,
      deckId: CELLS,
      queue: 2,
      type: 2,
      due: 40,
      interval: 10,
      easeFactor: 2500,
      reps: reviews.length,
      lapses: 0,
      fsrs: {
        stability: 12,
        difficulty: 5,
        desiredRetention: 0.9,
        lastReview: Math.max(...reviews.map(([daysAgo, minute]) => at(daysAgo, minute))) / 1000,
      },
    })),
  ];
  return {
    created,
    noteTypes: [BASIC!, REVERSED!, CLOZE!],
    decks: DECKS,
    notes,
    cards,
    revlog,
    media: [
      { name: 'cell.png', data: PICTURE },
      { name: 'cell.mp3', data: SOUND },
    ],
  };
}

/** What the Anki journey's page records: its progress bars (RECORD_PROGRESS) and the sounds it played. */
const RECORD = `${RECORD_PROGRESS}
  window.plays = 0;
  document.addEventListener('play', () => window.plays++, true);
`;

const naturalWidths = (images: Locator) =>
  images.evaluateAll((all) => all.map((image) => Reflect.get(image, 'naturalWidth')));

describe('moving from Anki and back', () => {
  it('imports a dropped package with its files and history, practises it, shows the history, and exports it', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'engram-anki-browser-'));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    const today = studyToday(new Date());
    const apkg = join(folder, 'Biology.apkg');
    await writePackage(apkg, collection(today), { layout: 'anki21b' });

    const page = await openTestPage(env.browser, 'anki-collection', { timezoneId: TIMEZONE });
    page.setDefaultTimeout(15_000);
    await page.addInitScript(RECORD);
    await signUpAndOnboard(page, env.stack.url, newUser('ankimover'));
    await page.getByText(`Days counted in ${TIMEZONE}.`).waitFor();

    // 1. The package dropped on the import screen starts at once; its bar ends full, and what came in shows.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
    const zone = page.getByRole('button', { name: /^Drop a file here, or choose one/ });
    await dropFile(page, zone, 'Biology.apkg', await readFile(apkg));
    await page.getByRole('heading', { name: 'Biology.apkg is imported' }).waitFor({ timeout: BACKGROUND_JOB_WAIT_MS });
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    expect([await bar.getAttribute('aria-valuenow'), await bar.getAttribute('aria-valuemax')]).toEqual(['3', '3']);
    await page.getByText('3 of 3 notes').waitFor();
    const seen = await importProgressSeen(page);
    expect(seen.at(-1)).toBe(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(await countsOf(page.getByTestId('import-counts'))).toEqual([
      'Notes 3',
      'Cards 3',
      'Reviews 6',
      'Images and sounds 2',
    ]);
    expect(await page.getByTestId('import-announcement').textContent()).toBe(
      'Import finished. Notes imported: 3. Skipped: 0.',
    );

    // 2. Practice the deck, now a tag: only its new card is due; its picture loads, its sound plays with the
    // answer and R plays it again.
    await page.getByRole('link', { name: 'Practice now' }).click();
    const tags = page.getByRole('list', { name: 'Tags' }).getByRole('button');
    await expect
      .poll(async () => (await tags.allTextContents()).sort())
      .toEqual(['Biology::Cells', 'membranes', 'organelles']);
    await tags.filter({ hasText: 'Biology::Cells' }).click();
    await page.getByTestId('due-count').getByText('Due now: 1').waitFor();
    await page.getByRole('link', { name: 'Start' }).click();
    const question = page.getByRole('region', { name: 'Question' });
    await question.getByText('Which organelle is this?').waitFor();
    await expect.poll(() => naturalWidths(question.locator('img'))).toEqual([64]);
    expect(await page.evaluate('window.plays')).toBe(0);
    await page.keyboard.press('Space');
    const answer = page.getByRole('region', { name: 'Answer' });
    await answer.getByText('The mitochondrion').waitFor();
    expect(await answer.locator('audio.card-sound').count()).toBe(1);
    const plays = () => page.evaluate('window.plays');
    await expect.poll(plays).toBe(1);
    await page.keyboard.press('r');
    await expect.poll(plays).toBe(2);
    // Easy: the new card graduates for days rather than coming back within the session's learn-ahead.
    await page.keyboard.press('4');
    await page.getByRole('heading', { name: 'Session complete' }).waitFor();

    // 3. The dashboard counts the imported reviews on their days, today's practice after them.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    const table = page.getByRole('table', { name: 'Reviews per day by rating' });
    await table.waitFor({ state: 'attached' });
    const days = [addDays(today, -3), addDays(today, -2), addDays(today, -1), today];
    // Date, reviews, then again, hard, good and easy.
    const rows = async () => {
      const shown: string[][] = [];
      for (const row of await table.locator('tbody tr').all())
        shown.push(await row.locator('th, td').allTextContents());
      return shown;
    };
    await expect.poll(rows).toEqual(
      [
        [days[0], 2, 0, 0, 1, 1],
        [days[1], 1, 0, 0, 1, 0],
        [days[2], 3, 0, 1, 2, 0],
        [days[3], 1, 0, 0, 0, 1],
      ].map((row) => row.map(String)),
    );
    const heatmap = page.getByRole('region', { name: 'Your year' });
    await heatmap.getByText('Reviews in the last year: 7 · days with reviews: 4').waitFor();
    // The year's last four squares are those days, today last.
    const squares = await heatmap.locator('svg rect title').allTextContents();
    expect(squares.slice(-5)).toEqual([
      `${shortDate(addDays(today, -4))}: 0`,
      `${shortDate(days[0]!)}: 2`,
      `${shortDate(days[1]!)}: 1`,
      `${shortDate(days[2]!)}: 3`,
      `${shortDate(days[3]!)}: 1`,
    ]);
    expect(await page.getByTestId('streak-current').textContent()).toBe('4');

    // 4. Export: an Anki package of every card, downloaded from its link and opened as Anki would.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
    await page.getByRole('radio', { name: /^Anki package \(\.apkg\)/ }).check();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const download = page.getByRole('link', { name: /^Download .+\.apkg$/ });
    await download.waitFor({ timeout: BACKGROUND_JOB_WAIT_MS });
    expect(await page.getByRole('progressbar', { name: 'Export progress' }).getAttribute('aria-valuenow')).toBe('100');
    const response = await fetch(new URL((await download.getAttribute('href')) ?? '', env.stack.url));
    expect(response.status).toBe(200);
    const exported = join(folder, 'exported.apkg');
    await writeFile(exported, Buffer.from(await response.arrayBuffer()));

    const reader = await openPackage(exported);
    try {
      expect(reader.counts()).toEqual({ notes: 3, cards: 5, revlog: 7 });
      const decks = new Map(reader.decks().map((deck) => [deck.id, deck.name]));
      expect([...decks.values()]).toEqual(expect.arrayContaining(['Biology', 'Biology::Cells']));
      const cards = [...reader.cards()].flat();
      expect(cards.map((card) => decks.get(card.deckId))).toEqual(Array(5).fill('Biology::Cells'));
      const notes = [...reader.notes()].flat();
      const picture = notes.find((note) => note.fields[0]?.includes('Which organelle is this?'));
      expect(picture?.fields[0]).toContain('<img src="cell.png"');
      expect(picture?.fields[1]).toContain('[sound:cell.mp3]');
      expect(picture?.tags).toContain('organelles');
      expect(notes.map((note) => note.guid).sort()).toEqual(['cell-cloze', 'cell-membrane', 'cell-picture']);
      // The memory state Anki had for the cards not practised here comes back as it went in.
      const others = cards.filter((card) => card.noteId !== picture?.id);
      expect(others.map((card) => card.fsrs?.stability)).toEqual([12, 12, 12, 12]);

      const media = new Map(reader.media().map((file) => [file.name, file.path]));
      expect([...media.keys()].sort()).toEqual(['cell.mp3', 'cell.png']);
      expect((await sharp(media.get('cell.png')).metadata()).width).toBe(64);
      expect(await readFile(media.get('cell.mp3') ?? '')).toEqual(SOUND);
    } finally {
      reader.close();
    }
  });
});
