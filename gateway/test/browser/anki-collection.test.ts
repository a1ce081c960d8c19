// Moving from Anki and back (issue 27), in a real Chromium through the real gateway and every service: a
// learner in São Paulo drops an Anki package (current layout, made by the test) on the import screen — a
// Basic note showing a picture with a sound on its back, a cloze note, a reversed note, tags, the deck
// Biology::Cells and review history on the last three days — and watches the progress bar reach its end and
// what came in. The one new card is practised: its picture is shown, its sound plays with the answer and R
// plays it again. The dashboard counts the imported reviews in the learner's days (table, heatmap, streak).
// The export panel then writes an Anki package whose download holds the cards, the deck and the files.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATED_NOTE_TYPES } from '@engram/anki/generate-collection';
import { openPackage } from '@engram/anki/open-package';
import type { AnkiCard, AnkiNote, AnkiRevlog } from '@engram/anki/types';
import { writePackage } from '@engram/anki/write-package';
import { openTestPage, useBrowserStack } from '@engram/testkit/browser';
import type { Locator } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it, onTestFinished } from 'vitest';
import { newUser, signUpAndOnboard } from './support/auth.ts';
import { countsOf, dropFile } from './support/import-screen.ts';
import { solidPng } from './support/png.ts';

const env = useBrowserStack();

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

/** Records every value the import's progress bar takes ("now/max"), in order; counts sounds played. */
const RECORD = `
  window.progressSeen = [];
  new MutationObserver(() => {
    const bar = document.querySelector('[role=progressbar][aria-label="Import progress"]');
    if (!bar) return;
    const seen = bar.getAttribute('aria-valuenow') + '/' + bar.getAttribute('aria-valuemax');
    if (window.progressSeen.at(-1) !== seen) window.progressSeen.push(seen);
  }).observe(document, { subtree: true, childList: true, attributes: true });
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
    await page.getByRole('heading', { name: 'Biology.apkg is imported' }).waitFor({ timeout: 30_000 });
    const bar = page.getByRole('progressbar', { name: 'Import progress' });
    expect([await bar.getAttribute('aria-valuenow'), await bar.getAttribute('aria-valuemax')]).toEqual(['3', '3']);
    await page.getByText('3 of 3 notes').waitFor();
    const seen = ((await page.evaluate('window.progressSeen')) as string[])
      .filter((value) => value !== 'null/null')
      .map((value) => Number(value.split('/')[0]));
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
    await download.waitFor({ timeout: 30_000 });
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
  }, 90_000);
});
