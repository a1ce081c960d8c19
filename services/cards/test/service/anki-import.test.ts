// Importing an Anki package as the work queue's job runs it (runImport), against real PostgreSQL and the S3
// stand-in, with packages the tests generate in every layout Anki writes: every note comes as cards with its
// tags and deck, suspended cards archived, the files its notes show kept as the learner's files, its review
// history as review logs and each item's memory state; importing it again updates without duplicating and
// keeps the progress made since; a missing or refused file is left out with its reason; and every hostile or
// broken file, or files over the learner's storage, fail with a clear message and change nothing.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { crc32 } from 'node:zlib';
import { ANKI_PACKAGE_ERRORS } from '@engram/anki/errors';
import {
  GENERATED_CREATED,
  GENERATED_NOTE_TYPES,
  type GenerateOptions,
  generateCollection,
  generatedGuid,
  generatedMp3,
  generatedNote,
  generatedRows,
} from '@engram/anki/generate-collection';
import { isPreview, isReview } from '@engram/anki/memory-state';
import { openPackage, type PackageLimits } from '@engram/anki/open-package';
import { LEGACY_CONF, legacyDecks, legacyModels, SCHEMA11_SQL } from '@engram/anki/schema';
import type { AnkiLayout } from '@engram/anki/types';
import { collectionOf, writePackage } from '@engram/anki/write-package';
import { newMemoryState } from '@engram/contracts/memory-state';
import { createLogger } from '@engram/kit/logger';
import { deflatedZeros } from '@engram/testkit/hostile-files';
import { waitUntil } from '@engram/testkit/wait';
import type pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnkiCardToImport, ankiBatchWriter } from '../../src/imports/anki-writes.js';
import { runImport } from '../../src/imports/run-import.js';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;
let dir: string;
const logger = createLogger({ service: 'cards-anki-import-test', level: process.env.LOG_LEVEL ?? 'silent' });

beforeAll(async () => {
  // Each test runs its imports itself (runImport): the harness runs no queue that could take the same job up
  // (its recovery, every second, would claim a job a test has just handed back, and the test's run be refused).
  cards = await startCardsHarness({ jobs: false });
  dir = await mkdtemp(join(tmpdir(), 'engram-anki-import-'));
}, 60_000);

afterAll(async () => {
  await cards?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const learner = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

/** Imports `bytes` as `ownerId` and answers the finished import's row. */
async function importPackage(
  ownerId: string,
  bytes: Buffer,
  options: { name?: string; quotaBytes?: number; packageLimits?: Partial<PackageLimits> } = {},
) {
  const job = await cards.queueImport(ownerId, bytes, options.name ?? 'collection.apkg', options.quotaBytes);
  const deps = {
    db: cards.db,
    pool: cards.pool,
    store: cards.store,
    logger,
    ...(options.packageLimits && { packageLimits: options.packageLimits }),
  };
  await runImport(deps, job.id, { signal: new AbortController().signal });
  return cards.db.import.findUniqueOrThrow({ where: { id: job.id } });
}

async function generated(options: GenerateOptions) {
  const file = join(dir, `${randomUUID()}.apkg`);
  await generateCollection(file, options);
  return readFile(file);
}

/** A card's text with its files' ids left out: `/media/ID/name`. */
const withoutIds = (text: string) => text.replace(/\/media\/[0-9a-f-]{36}\//g, '/media/ID/');

async function importedCards(ownerId: string) {
  const rows = await cards.db.card.findMany({
    where: { ownerId },
    include: { tags: { include: { tag: true } }, items: { orderBy: { ordinal: 'asc' } }, media: true },
    orderBy: { externalId: 'asc' },
  });
  return new Map(rows.map((row) => [row.externalId!, row]));
}

/** What the learner keeps of everything an import can write. */
async function everything(ownerId: string) {
  const owned = { where: { ownerId } };
  return {
    cards: await cards.db.card.count(owned),
    tags: await cards.db.tag.count(owned),
    items: await cards.db.reviewItem.count(owned),
    logs: await cards.db.reviewLog.count(owned),
    days: await cards.db.reviewDay.count(owned),
    media: await cards.db.mediaFile.count(owned),
  };
}

const DECK_TAGS = [[], ['Languages'], ['Languages::Spanish'], ['Science']];

describe('importing an Anki package', () => {
  const packages: [AnkiLayout, 'apkg' | 'colpkg'][] = [
    ['anki2', 'apkg'],
    ['anki21', 'colpkg'],
    ['anki21b', 'apkg'],
    ['anki21b', 'colpkg'],
  ];
  for (const [layout, format] of packages) {
    it(`brings every note of a ${layout} .${format} as cards with their tags, files, history and memory state`, async () => {
      const ann = learner('ann');
      const options: GenerateOptions = {
        layout,
        notes: 12,
        reviewsPerCard: 3,
        media: 4,
        withFsrsState: layout === 'anki21b',
        suspendEvery: 5,
      };
      const done = await importPackage(ann, await generated(options), { name: `collection.${format}` });
      const rows = generatedRows(options);
      const revlog = [...rows.revlog];
      const reviews = revlog.filter(isReview);
      expect(done).toMatchObject({ status: 'done', progressDone: 12, progressTotal: 12, problems: [] });
      expect(done.counts).toEqual({ notes: 12, cards: 12, reviews: reviews.length, media: 4, skipped: 0 });

      const imported = await importedCards(ann);
      expect(imported.size).toBe(12);
      const vocabularyType = await cards.db.noteType.findFirst({ where: { ownerId: ann } });
      expect(vocabularyType).toMatchObject({
        name: 'Vocabulary',
        fields: ['Word', 'Meaning', 'Example'],
        templates: [
          { name: 'Recognise', front: '{{Word}}', back: '{{Meaning}}{{#Example}}\\\n*{{Example}}*{{/Example}}' },
          { name: 'Recall', front: '{{Meaning}}', back: '{{text:Word}}' },
        ],
        externalId: 'anki:1700000000004',
      });
      for (let i = 0; i < 12; i++) {
        const note = generatedNote(i, 4);
        const kind = i % 4;
        const guid = generatedGuid(i);
        const card = (id: string) => {
          const row = imported.get(`anki:${id}`)!;
          return {
            type: row.type,
            front: withoutIds(row.front),
            back: withoutIds(row.back),
            archived: row.archived,
            tags: row.tags.map(({ tag }) => tag.name).sort(),
            ordinals: row.items.map((item) => item.ordinal),
            itemsArchived: row.items.map((item) => item.archived),
          };
        };
        const tags = [...note.tags, ...DECK_TAGS[kind]!].sort();
        const archived = i % 5 === 4;
        const shape = (type: string, front: string, back: string, ordinals: number[]) => ({
          type,
          front,
          back,
          archived,
          tags,
          ordinals,
          itemsArchived: ordinals.map(() => archived),
        });
        const image = i < 4 ? `![](/media/ID/image-${i}.png)` : '';
        const sound = i < 4 ? `![sound ${i}](/media/ID/sound%20${i}.mp3)` : '';
        if (kind === 0) expect(card(guid)).toEqual(shape('basic', `What is ${i} + 1?${image}`, `**${i + 1}**`, [0]));
        if (kind === 1)
          expect(card(guid)).toEqual(shape('reversed', `word ${i}`, `palabra ${i} & more${sound}`, [0, 1]));
        if (kind === 2) {
          const text = `The {{c1::capital}} of country ${i} is {{c2::city ${i}::a city}}.${image}`;
          expect(card(guid)).toEqual(shape('cloze', text, `Extra ${i}`, [1, 2]));
        }
        if (kind === 3) {
          // A note of the collection's own "Vocabulary" type: a note of the learner's note type made from it.
          const example = i % 8 === 3 ? `example ${i}` : '';
          const back = [`meaning ${i}`, example].filter(Boolean).join('\n\n');
          expect(card(guid)).toEqual(shape('note', `vocab ${i}${sound}`, back, [0, 1]));
          const row = imported.get(`anki:${guid}`)!;
          expect(row.fields.map(withoutIds)).toEqual([`vocab ${i}${sound}`, `meaning ${i}`, example]);
          expect(row.noteTypeId).toBe(vocabularyType?.id);
        }
      }

      // Each file the notes show is the learner's, linked to its cards, and opens as what it is.
      const files = await cards.db.mediaFile.findMany({ where: { ownerId: ann }, orderBy: { name: 'asc' } });
      expect(files.map((file) => [file.name, file.kind])).toEqual([
        ['image-0.png', 'image'],
        ['image-2.png', 'image'],
        ['sound 1.mp3', 'audio'],
        ['sound 3.mp3', 'audio'],
      ]);
      const first = imported.get(`anki:${generatedGuid(0)}`)!;
      const shown = /\/media\/([0-9a-f-]{36})\//.exec(first.front)![1]!;
      expect(first.media.map((link) => link.mediaId)).toEqual([shown]);
      const opened = await cards.as(ann).openMedia({ id: shown });
      const image = Buffer.from(await (await fetch(opened.url)).arrayBuffer());
      expect(await sharp(image).metadata()).toMatchObject({ format: 'png', width: 1, height: 1 });
      const vocab = imported.get(`anki:${generatedGuid(3)}`)!;
      expect(vocab.media).toHaveLength(1);
      const sound = await cards.as(ann).openMedia({ id: vocab.media[0]!.mediaId });
      expect(sound).toMatchObject({ contentType: 'audio/mpeg', size: 417 });

      // Every review is a review log at its time with its rating; the dashboard's days count them all.
      const logs = await cards.db.reviewLog.findMany({ where: { ownerId: ann }, orderBy: { reviewedAt: 'asc' } });
      expect(logs.map((log) => [log.reviewedAt.getTime(), log.rating])).toEqual(
        reviews.sort((a, b) => a.id - b.id).map((entry) => [entry.id, entry.ease]),
      );
      // Previews in filtered decks are marked, so the optimizer leaves them out as Anki's FSRS does.
      expect(logs.filter((log) => log.preview).map((log) => log.reviewedAt.getTime())).toEqual(
        reviews.filter(isPreview).map((entry) => entry.id),
      );
      const days = await cards.db.reviewDay.findMany({ where: { ownerId: ann } });
      expect(days.reduce((sum, day) => sum + day.reviews, 0)).toBe(reviews.length);

      // Memory state: Anki's own stability and difficulty where it kept them, else the replayed history's.
      const ankiCards = [...rows.cards];
      for (const ankiCard of ankiCards) {
        const i = ankiCard.noteId - generatedNote(0, 0).id;
        const kind = i % 4;
        const externalId = `anki:${generatedGuid(i)}`;
        const ordinal = kind === 2 ? ankiCard.ordinal + 1 : ankiCard.ordinal;
        const item = imported.get(externalId)!.items.find((row) => row.ordinal === ordinal)!;
        const history = reviews.filter((entry) => entry.cardId === ankiCard.id);
        const moved = history.filter((entry) => !isPreview(entry));
        if (ankiCard.fsrs) {
          expect(item).toMatchObject({ stability: ankiCard.fsrs.stability, difficulty: ankiCard.fsrs.difficulty });
          expect(item.due).toEqual(new Date((GENERATED_CREATED + ankiCard.due * 86_400) * 1000));
        } else if (moved.length > 0) {
          expect(item.stability).toBeGreaterThan(0);
          expect(item.reps).toBe(moved.length);
          expect(item.lastReview).toEqual(new Date(moved.at(-1)!.id));
        } else {
          expect(item).toMatchObject({ state: 0, stability: 0, reps: 0, lastReview: null });
        }
      }
    });
  }

  it('imports the same package again as an update: no card, review log or file twice, and progress made since kept', async () => {
    const ann = learner('ann');
    const options: GenerateOptions = { layout: 'anki21b', notes: 8, reviewsPerCard: 2, media: 4, withFsrsState: true };
    const file = join(dir, `${randomUUID()}.apkg`);
    await generateCollection(file, options);
    const first = await importPackage(ann, await readFile(file));
    const before = await everything(ann);
    expect(before).toMatchObject({ cards: 8, media: 4 });

    // The learner practises a card in Engram, then the note's answer is changed in Anki.
    const practised = (await importedCards(ann)).get(`anki:${generatedGuid(0)}`)!;
    await cards
      .as(ann)
      .review({ id: practised.items[0]!.id, rating: 'good', reviewId: randomUUID(), durationMs: 3000 });
    const afterPractice = await cards.db.reviewItem.findUniqueOrThrow({ where: { id: practised.items[0]!.id } });
    const changed = join(dir, `${randomUUID()}.apkg`);
    const reader = await openPackage(file);
    try {
      const collection = collectionOf(reader);
      const notes = function* () {
        for (const note of collection.notes) {
          yield note.guid === generatedGuid(0) ? { ...note, fields: [note.fields[0]!, '<b>one</b>'] } : note;
        }
      };
      await writePackage(changed, { ...collection, notes: notes() }, { layout: 'anki21b' });
    } finally {
      reader.close();
    }
    const second = await importPackage(ann, await readFile(changed));
    expect(second.counts).toEqual(first.counts);
    // The practice today is one more log and one more day; nothing of the package is there twice.
    expect(await everything(ann)).toEqual({ ...before, logs: before.logs + 1, days: before.days + 1 });
    const updated = (await importedCards(ann)).get(`anki:${generatedGuid(0)}`)!;
    expect(updated).toMatchObject({ id: practised.id, back: '**one**' });
    expect(await cards.db.reviewItem.findUniqueOrThrow({ where: { id: practised.items[0]!.id } })).toEqual(
      afterPractice,
    );
  });

  it('keeps a card whose only front is a sound, the sound its front', async () => {
    const ann = learner('ann');
    const basic = GENERATED_NOTE_TYPES[0]!;
    const file = join(dir, `${randomUUID()}.apkg`);
    await writePackage(file, {
      created: GENERATED_CREATED,
      noteTypes: [basic],
      decks: [{ id: 1, name: 'Default' }],
      notes: [
        { id: 1, guid: 'heard', noteTypeId: basic.id, fields: ['[sound:bonjour.mp3]', 'hello'], tags: [], modified: 0 },
      ],
      cards: [],
      revlog: [],
      media: [{ name: 'bonjour.mp3', data: generatedMp3(1) }],
    });
    const done = await importPackage(ann, await readFile(file));
    expect(done.counts).toMatchObject({ notes: 1, cards: 1, media: 1, skipped: 0 });
    const card = (await importedCards(ann)).get('anki:heard')!;
    expect(withoutIds(card.front)).toBe('![bonjour](/media/ID/bonjour.mp3)');
    expect(card.back).toBe('hello');
  });

  it("takes a collection's Basic with a field added as a note type of its own, numbered beside the stock Basic", async () => {
    const ann = learner('ann');
    const basic = GENERATED_NOTE_TYPES[0]!;
    // As an Anki from before stock kinds were kept wrote it (anki-apkg-parser's packages hold one).
    const withSource = {
      ...basic,
      originalStockKind: undefined,
      fields: ['Front', 'Back', 'Source'],
      templates: [{ ...basic.templates[0]!, afmt: `${basic.templates[0]!.afmt}<br>{{Source}}` }],
    };
    const file = join(dir, `${randomUUID()}.apkg`);
    await writePackage(file, {
      created: GENERATED_CREATED,
      noteTypes: [withSource],
      decks: [{ id: 1, name: 'Default' }],
      notes: [{ id: 1, guid: 'sourced', noteTypeId: basic.id, fields: ['f', 'b', 'book'], tags: [], modified: 0 }],
      cards: [],
      revlog: [],
      media: [],
    });
    const done = await importPackage(ann, await readFile(file));
    expect(done.counts).toMatchObject({ notes: 1, cards: 1, skipped: 0 });
    const types = await cards.db.noteType.findMany({ where: { ownerId: ann } });
    expect(types.map((type) => [type.name, type.fields])).toEqual([['Basic (2)', ['Front', 'Back', 'Source']]]);
    expect((await importedCards(ann)).get('anki:sourced')).toMatchObject({ noteTypeId: types[0]!.id });
  });

  it('keeps a typed answer that leaves accents aside ({{type:nc:Back}}) as a note type of its own', async () => {
    const ann = learner('ann');
    const basic = GENERATED_NOTE_TYPES[0]!;
    const accentless = {
      ...basic,
      name: 'Basic (type in the answer)',
      originalStockKind: 'basicTyping' as const,
      templates: [
        {
          ord: 0,
          name: 'Card 1',
          qfmt: '{{Front}}\n\n{{type:nc:Back}}',
          afmt: '{{Front}}\n\n<hr id=answer>\n\n{{type:nc:Back}}',
        },
      ],
    };
    const file = join(dir, `${randomUUID()}.apkg`);
    await writePackage(file, {
      created: GENERATED_CREATED,
      noteTypes: [accentless],
      decks: [{ id: 1, name: 'Default' }],
      notes: [
        { id: 1, guid: 'cafe', noteTypeId: basic.id, fields: ['Coffee in French', 'café'], tags: [], modified: 0 },
      ],
      cards: [],
      revlog: [],
      media: [],
    });
    const done = await importPackage(ann, await readFile(file));
    expect(done.counts).toMatchObject({ notes: 1, cards: 1, skipped: 0 });
    const [item] = (await cards.as(ann).listDue({})).items;
    expect(item).toMatchObject({ type: 'note', typedAnswer: 'café', typedIgnoreAccents: true });
  });

  it('leaves out reviews dated in the future, with a notice, and schedules the card from the reviews kept', async () => {
    const ann = learner('ann');
    const basic = GENERATED_NOTE_TYPES[0]!;
    const now = Date.now();
    const [dayAgo, hourAgo, tomorrow, nextWeek] = [
      now - 86_400_000,
      now - 3_600_000,
      now + 86_400_000,
      now + 7 * 86_400_000,
    ];
    const review = (at: number, ease: number) => ({
      id: at,
      cardId: 10,
      ease,
      interval: 1,
      lastInterval: 0,
      factor: 2500,
      timeMs: 4000,
      type: 0,
    });
    const file = join(dir, `${randomUUID()}.apkg`);
    await writePackage(file, {
      created: GENERATED_CREATED,
      noteTypes: [basic],
      decks: [{ id: 1, name: 'Default' }],
      notes: [{ id: 1, guid: 'ahead', noteTypeId: basic.id, fields: ['front', 'back'], tags: [], modified: 0 }],
      // Anki's own state, worked out from a review a week ahead: not the card's.
      cards: [
        {
          id: 10,
          noteId: 1,
          ordinal: 0,
          deckId: 1,
          queue: 2,
          type: 2,
          due: 0,
          interval: 30,
          easeFactor: 2500,
          reps: 4,
          lapses: 0,
          fsrs: { stability: 90, difficulty: 3, desiredRetention: 0.9, lastReview: Math.floor(nextWeek / 1000) },
        },
      ],
      revlog: [review(dayAgo, 3), review(hourAgo, 3), review(tomorrow, 4), review(nextWeek, 4)],
      media: [],
    });
    const done = await importPackage(ann, await readFile(file));
    expect(done.status).toBe('done');
    expect(done.counts).toMatchObject({ notes: 1, cards: 1, reviews: 2, skipped: 0 });
    expect(done.problems).toEqual([
      expect.objectContaining({
        reason: 'reviewsInFuture',
        values: { count: '2' },
        message: 'Reviews dated in the future were left out (2): the clock of the device that made them was ahead.',
      }),
    ]);
    const logs = await cards.db.reviewLog.findMany({ where: { ownerId: ann }, orderBy: { reviewedAt: 'asc' } });
    expect(logs.map((log) => log.reviewedAt.getTime())).toEqual([dayAgo, hourAgo]);
    const [item] = (await importedCards(ann)).get('anki:ahead')!.items;
    expect(item!.lastReview?.getTime()).toBe(hourAgo);
    expect(item!.stability).not.toBe(90);
    expect(
      (await cards.db.reviewDay.findMany({ where: { ownerId: ann } })).every((day) => day.day.getTime() <= now),
    ).toBe(true);
  });

  it('leaves out a file missing from the package or not what its name says, and imports the rest', async () => {
    const ann = learner('ann');
    const basic = GENERATED_NOTE_TYPES[0]!;
    const fronts = ['A cat <img src="cat.png">', 'Listen [sound:missing.mp3]', 'A fake <img src="fake.png">'];
    const file = join(dir, `${randomUUID()}.apkg`);
    await writePackage(file, {
      created: GENERATED_CREATED,
      noteTypes: [basic],
      decks: [{ id: 1, name: 'Default' }],
      notes: fronts.map((front, i) => ({
        id: 100 + i,
        guid: `media${i}`,
        noteTypeId: basic.id,
        fields: [front, 'back'],
        tags: [],
        modified: GENERATED_CREATED,
      })),
      cards: [],
      revlog: [],
      media: [
        {
          name: 'cat.png',
          data: await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fa0' } })
            .png()
            .toBuffer(),
        },
        { name: 'fake.png', data: Buffer.from('this is text, not a picture') },
      ],
    });
    const done = await importPackage(ann, await readFile(file));
    expect(done.status).toBe('done');
    expect(done.counts).toEqual({ notes: 3, cards: 3, reviews: 0, media: 1, skipped: 2 });
    expect(done.problems).toEqual([
      {
        line: 2,
        reason: 'fileMissing',
        values: { name: 'missing.mp3' },
        message: 'The file "missing.mp3" is not in the package, so it was left out.',
      },
      {
        line: 3,
        reason: 'fileUnreadable',
        values: { name: 'fake.png' },
        message: 'The file "fake.png" was left out: it could not be read as the image or sound its name says.',
      },
    ]);
    const imported = await importedCards(ann);
    expect(withoutIds(imported.get('anki:media0')!.front)).toBe('A cat ![](/media/ID/cat.png)');
    expect(imported.get('anki:media1')!.front).toBe('Listen missing.mp3');
    expect(imported.get('anki:media2')!.front).toBe('A fake fake.png');
  });

  it('leaves out a note larger than the limit, saying so, and imports the rest', async () => {
    const ann = learner('ann');
    const basic = GENERATED_NOTE_TYPES[0]!;
    const file = join(dir, `${randomUUID()}.apkg`);
    await writePackage(file, {
      created: GENERATED_CREATED,
      noteTypes: [basic],
      decks: [{ id: 1, name: 'Default' }],
      notes: ['before', 'x'.repeat(300_000), 'after'].map((front, i) => ({
        id: 100 + i,
        guid: `size${i}`,
        noteTypeId: basic.id,
        fields: [front, 'back'],
        tags: [],
        modified: GENERATED_CREATED,
      })),
      cards: [],
      revlog: [],
      media: [],
    });
    // The package's note limit, lowered, stands for the 4 MB a real note would pass.
    const done = await importPackage(ann, await readFile(file), { packageLimits: { maxNoteBytes: 100_000 } });
    expect(done).toMatchObject({ status: 'done', counts: { notes: 2, cards: 2, skipped: 1 } });
    expect(done.problems).toEqual([
      {
        line: 2,
        reason: 'noteTooLarge',
        values: { limit: '98 KB' },
        message: 'The note is larger than 98 KB with its cards and reviews, so it was left out.',
      },
    ]);
    expect([...(await importedCards(ann)).keys()]).toEqual(['anki:size0', 'anki:size2']);
  });

  it('gathers the statistics of the tables it wrote after a large import, so the next queries are planned for its rows', async () => {
    const analyzed = async () => {
      const { rows } = await cards.pool.query<{ count: string }>(
        `SELECT analyze_count::text AS count FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = 'review_logs'`,
      );
      return Number(rows[0]?.count ?? 0);
    };
    const before = await analyzed();
    const small = await importPackage(
      learner('sam'),
      await generated({ layout: 'anki2', notes: 10, reviewsPerCard: 1 }),
    );
    expect(small.status).toBe('done');
    // 1,000 notes make 1,000 cards.
    const large = await importPackage(
      learner('lea'),
      await generated({ layout: 'anki2', notes: 1000, reviewsPerCard: 1 }),
    );
    expect(large.counts).toMatchObject({ notes: 1000 });
    expect((large.counts as { cards: number }).cards).toBeGreaterThanOrEqual(1000);
    await waitUntil('the statistics were gathered', async () => (await analyzed()) > before, 10_000);
    // Only the large import gathered them: a small one leaves that to autovacuum.
    expect(await analyzed()).toBe(before + 1);
  });

  it("fails and changes nothing when the files do not fit in the learner's storage", async () => {
    const ann = learner('ann');
    const failed = await importPackage(
      ann,
      await generated({ layout: 'anki2', notes: 8, reviewsPerCard: 2, media: 4 }),
      {
        quotaBytes: 200,
      },
    );
    expect(failed.status).toBe('failed');
    expect(failed.problems).toEqual([
      {
        reason: 'quotaReached',
        values: { quota: expect.stringMatching(/ MB$/), used: expect.stringMatching(/ MB$/) },
        message: expect.stringMatching(/^The images and sounds of this collection do not fit in your storage/),
      },
    ]);
    expect(await everything(ann)).toEqual({ cards: 0, tags: 0, items: 0, logs: 0, days: 0, media: 0 });
  });
});

/** A zip of these entries, stored, or deflated as given (whatever sizes it declares), written by hand. */
function zipOf(entries: { name: string; data?: Buffer; deflated?: { data: Buffer; size: number; crc: number } }[]) {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const data = entry.deflated?.data ?? entry.data ?? Buffer.alloc(0);
    const size = entry.deflated?.size ?? data.length;
    const crc = entry.deflated?.crc ?? crc32(data);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(entry.deflated ? 8 : 0, 8);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(size, 22);
    header.writeUInt16LE(name.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(entry.deflated ? 8 : 0, 10);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(data.length, 20);
    record.writeUInt32LE(size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    locals.push(header, name, data);
    central.push(record, name);
    offset += header.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A collection entry of a few hundred KB that unpacks to `megabytes` MB of zeros. */
function zipBomb(megabytes: number) {
  const zlib = deflatedZeros(megabytes);
  let crc = 0;
  const mb = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++) crc = crc32(mb, crc);
  const deflated = { data: zlib.subarray(2, zlib.length - 4), size: megabytes * 1024 * 1024, crc };
  return zipOf([{ name: 'collection.anki2', deflated }]);
}

describe('an Image Occlusion note', () => {
  it('becomes one occlusion card asking each of its cards with its history, its picture and shapes as Anki wrote them', async () => {
    const ann = learner('ann');
    // Anki's Image Occlusion note type (fields and the template's canvas, as Anki 23.10 and later write them).
    const occlusion = {
      id: 77,
      name: 'Image Occlusion',
      kind: 'cloze' as const,
      originalStockKind: undefined,
      fields: ['Occlusion', 'Image', 'Header', 'Back Extra', 'Comments'],
      templates: [
        {
          ord: 0,
          name: 'Image Occlusion',
          qfmt: '{{#Header}}<div>{{Header}}</div>{{/Header}}<div style="display: none">{{cloze:Occlusion}}</div><div id="image-occlusion-container">{{Image}}<canvas id="image-occlusion-canvas"></canvas></div>',
          afmt: '{{#Header}}<div>{{Header}}</div>{{/Header}}<div style="display: none">{{cloze:Occlusion}}</div><div id="image-occlusion-container">{{Image}}</div>{{Back Extra}}',
        },
      ],
    };
    const picture = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#1060c0' } })
      .png()
      .toBuffer();
    const shapes =
      '{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.4:oi=1}}<br>' +
      '{{c2::image-occlusion:ellipse:left=.6:top=.2:rx=.1:ry=.2:oi=1}}';
    const review = (cardId: number, at: number) => ({
      id: at,
      cardId,
      ease: 3,
      interval: 1,
      lastInterval: 0,
      factor: 0,
      timeMs: 4000,
      type: 0,
    });
    const card = (id: number, ordinal: number) => ({
      id,
      noteId: 1,
      ordinal,
      deckId: 1,
      queue: 1,
      type: 1,
      due: 0,
      interval: 0,
      easeFactor: 0,
      reps: 1,
      lapses: 0,
      fsrs: undefined,
    });
    const file = join(dir, `${randomUUID()}.apkg`);
    await writePackage(file, {
      created: GENERATED_CREATED,
      noteTypes: [occlusion],
      decks: [{ id: 1, name: 'Default' }],
      notes: [
        {
          id: 1,
          guid: 'heart',
          noteTypeId: 77,
          fields: [shapes, '<img src="heart.png">', 'The heart', 'Left and right', ''],
          tags: [],
          modified: 0,
        },
      ],
      cards: [card(10, 0), card(11, 1)],
      revlog: [review(10, 1_700_000_000_000), review(11, 1_700_000_060_000)],
      media: [{ name: 'heart.png', data: picture }],
    });
    const done = await importPackage(ann, await readFile(file));
    expect(done).toMatchObject({ status: 'done', counts: { notes: 1, cards: 1, reviews: 2, skipped: 0 } });

    // One occlusion card: the header, then its picture and Anki's shapes as Anki wrote them; a review item for
    // each of Anki's cards, each with its review.
    const imported = await importedCards(ann);
    expect([...imported.keys()]).toEqual(['anki:heart']);
    const heart = imported.get('anki:heart')!;
    expect(heart.type).toBe('occlusion');
    expect(withoutIds(heart.front)).toBe(
      [
        'The heart',
        '',
        '```occlusion',
        '![](/media/ID/heart.png)',
        '{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.4:oi=1}}',
        '{{c2::image-occlusion:ellipse:left=.6:top=.2:rx=.1:ry=.2:oi=1}}',
        '```',
      ].join('\n'),
    );
    expect(heart.back).toBe('Left and right');
    const items = await cards.db.reviewItem.findMany({ where: { cardId: heart.id }, orderBy: { ordinal: 'asc' } });
    expect(items.map((item) => [item.ordinal, item.reps])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(await cards.db.reviewLog.count({ where: { ownerId: ann } })).toBe(2);
    // The picture is the package's own, not drawn on: the masks are drawn as the card is shown.
    const kept = await cards.db.mediaFile.findFirstOrThrow({ where: { ownerId: ann, name: 'heart.png' } });
    expect(Number(kept.size)).toBeGreaterThan(0);
    expect(await cards.db.mediaFile.count({ where: { ownerId: ann } })).toBe(1);
  });
});

describe('a hostile or broken file fails with its message and changes nothing', () => {
  async function withNote(field: string, media: { name: string; data: Buffer }[] = []) {
    const basic = GENERATED_NOTE_TYPES[0]!;
    const file = join(dir, `${randomUUID()}.apkg`);
    await writePackage(file, {
      created: GENERATED_CREATED,
      noteTypes: [basic],
      decks: [{ id: 1, name: 'Default' }],
      notes: [{ id: 1, guid: 'one', noteTypeId: basic.id, fields: [field, 'back'], tags: [], modified: 0 }],
      cards: [],
      revlog: [],
      media,
    });
    return readFile(file);
  }

  /** A package of a legacy collection made by `schema` (with Anki's col row): a schema of a hostile file's choosing. */
  async function collectionWith(schema: string) {
    const path = join(dir, `${randomUUID()}.anki2`);
    const db = new DatabaseSync(path);
    db.exec(schema);
    db.prepare("INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, ?, ?, ?, '{}', '{}')").run(
      LEGACY_CONF,
      legacyModels(GENERATED_NOTE_TYPES, 1, 0),
      legacyDecks([{ id: 1, name: 'Default' }], 0),
    );
    if (!/CREATE VIEW notes/.test(schema)) {
      // A generated flds is the file's to compute, not ours to give.
      const flds = /flds text GENERATED/.test(schema) ? [] : ['flds'];
      db.exec(`INSERT INTO notes (id, guid, mid, mod, usn, tags, sfld, csum, flags, data${flds.map((c) => `, ${c}`).join('')})
        VALUES (1, 'g', ${GENERATED_NOTE_TYPES[0]!.id}, 0, 0, '', '', 0, 0, ''${flds.map(() => ", 'a\x1fb'").join('')})`);
    }
    db.close();
    const data = await readFile(path);
    await rm(path);
    return zipOf([{ name: 'collection.anki2', data }]);
  }

  const cases: [string, keyof typeof ANKI_PACKAGE_ERRORS, () => Promise<Buffer>, Partial<PackageLimits>?][] = [
    ['not a zip', 'notZip', async () => Buffer.from('just some text, not a zip at all')],
    ['a zip bomb', 'zipBomb', async () => zipBomb(300)],
    [
      'a ../ media name',
      'unsafeName',
      () => withNote('<img src="x.png">', [{ name: '../x.png', data: Buffer.from('x') }]),
    ],
    [
      'a corrupt database',
      'corruptDatabase',
      async () => zipOf([{ name: 'collection.anki2', data: Buffer.alloc(64 * 1024, 7) }]),
    ],
    [
      'a collection whose notes compute their fields, 50 MB each (a generated column)',
      'schemaGeneratedColumn',
      async () =>
        collectionWith(
          SCHEMA11_SQL.replace('flds text NOT NULL', "flds text GENERATED ALWAYS AS (printf('%.*c', 50000000, 'x'))"),
        ),
    ],
    [
      'a collection with a view in place of its notes',
      'schemaView',
      async () =>
        collectionWith(
          `${SCHEMA11_SQL.replace(/CREATE TABLE notes [^;]*;/, '')}
          CREATE VIEW notes AS SELECT 1 AS id, 'g' AS guid, 1 AS mid, 0 AS mod, '' AS tags, zeroblob(900000000) AS flds;`,
        ),
    ],
    [
      'a collection with a trigger',
      'schemaTrigger',
      async () => collectionWith(`${SCHEMA11_SQL} CREATE TRIGGER t AFTER DELETE ON notes BEGIN SELECT 1; END;`),
    ],
    [
      'a collection with a virtual table',
      'schemaVirtualTable',
      async () => collectionWith(`${SCHEMA11_SQL} CREATE VIRTUAL TABLE search USING fts5(flds);`),
    ],
    ['an unknown layout', 'unknownLayout', async () => zipOf([{ name: 'notes.txt', data: Buffer.from('hello') }])],
  ];
  for (const [what, error, file, packageLimits] of cases) {
    it(what, async () => {
      const ann = learner('ann');
      const failed = await importPackage(ann, await file(), { ...(packageLimits && { packageLimits }) });
      expect(failed).toMatchObject({
        status: 'failed',
        problems: [{ reason: error, message: ANKI_PACKAGE_ERRORS[error] }],
      });
      expect(await everything(ann)).toEqual({ cards: 0, tags: 0, items: 0, logs: 0, days: 0, media: 0 });
    });
  }
});

describe('writing a batch of imported cards', () => {
  it('goes in statements of at most its byte budget, every card written', async () => {
    const ann = learner('ann');
    const now = new Date();
    const batch: AnkiCardToImport[] = Array.from({ length: 40 }, (_, i) => ({
      externalId: `anki:chunk${i}`,
      type: 'basic',
      front: `${i} ${'x'.repeat(1_500)}`,
      back: 'back',
      archived: false,
      tags: ['chunked'],
      deck: undefined,
      mediaIds: [],
      items: [{ ordinal: 0, memory: newMemoryState(now), logs: [] }],
    }));
    const budget = 10_000;
    const client = await cards.pool.connect();
    // The real connection, its statements' parameters measured on their way (a COPY stream passed as it is).
    const cardStatements: number[] = [];
    const observed = {
      query: (text: unknown, values?: unknown[]) => {
        if (typeof text === 'string' && text.includes('INSERT INTO cards')) {
          cardStatements.push(Buffer.byteLength(JSON.stringify(values)));
        }
        return client.query(text as string, values);
      },
    } as unknown as pg.ClientBase;
    try {
      await client.query('BEGIN');
      const written = await ankiBatchWriter(observed, ann, now, { chunkBytes: budget }).write(batch);
      await client.query('COMMIT');
      expect(written).toEqual({ created: 40, updated: 0, reviews: 0 });
    } finally {
      client.release();
    }
    // About 1.6 KB a card: six a statement, not forty.
    expect(cardStatements.length).toBeGreaterThanOrEqual(7);
    for (const bytes of cardStatements) expect(bytes).toBeLessThanOrEqual(budget + 2_000);
    expect((await importedCards(ann)).size).toBe(40);
  });
});
