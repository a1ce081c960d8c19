// AnkiConnect's actions on a learner's cards, as the tools that speak it use them (the gateway's endpoint and the
// tools' whole call sequences are tested in end-to-end/api/anki-connect.test.ts): decks and note types, adding
// a word with its sound and screenshot, duplicates by scope, Anki's search, reading notes and cards back, and
// changing them; never another learner's.

import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordedFile } from '@engram/testkit/media-files';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;
let files: Server;
let filesUrl: string;
const png = () =>
  sharp({ create: { width: 8, height: 6, channels: 3, background: '#3a7' } })
    .png()
    .toBuffer();

beforeAll(async () => {
  cards = await startCardsHarness();
  const picture = await png();
  files = createServer((req, res) => {
    if (req.url === '/word.mp3') return res.end(recordedFile('tone.mp3'));
    if (req.url === '/shot.png') return res.end(picture);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  files?.close();
  await cards?.stop();
});

/** A learner of their own, and their AnkiConnect actions. */
function learner() {
  const id = `anki-${randomUUID()}`;
  const as = cards.as(id);
  return { id, anki: as.anki, as };
}

/** The AnkiConnect error an action gives. */
async function errorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the action succeeded');
}

const basic = (front: string, back = 'meaning', deckName = 'Default', extra: Record<string, unknown> = {}) => ({
  deckName,
  modelName: 'Basic',
  fields: { Front: front, Back: back },
  tags: [],
  ...extra,
});

describe('decks and note types', () => {
  it("shows a new learner Anki's Default deck, then their tags as decks with their ids", async () => {
    const { anki, as } = learner();
    expect(await anki('deckNames')).toEqual(['Default']);
    await as.createTag({ name: 'Spanish' });
    const id = await anki('createDeck', { deck: 'Japanese::Vocab' });
    expect(await anki('deckNames')).toEqual(['Default', 'Japanese::Vocab', 'Spanish']);
    const ids = (await anki('deckNamesAndIds')) as Record<string, number>;
    expect(ids['Japanese::Vocab']).toBe(id);
    expect(ids.Default).toBe(1);
    // Made again, the deck is the same one.
    expect(await anki('createDeck', { deck: 'japanese::vocab' })).toBe(id);
  });

  it('offers the stock note types with their fields, and names the one it cannot find', async () => {
    const { anki } = learner();
    expect(await anki('modelNames')).toEqual([
      'Basic',
      'Basic (and reversed card)',
      'Basic (optional reversed card)',
      'Basic (type in the answer)',
      'Cloze',
      'Image Occlusion',
    ]);
    expect(await anki('modelFieldNames', { modelName: 'Cloze' })).toEqual(['Text', 'Back Extra']);
    expect(await anki('modelFieldNames', { modelName: 'Image Occlusion' })).toEqual(['Occlusion', 'Back Extra']);
    expect(await anki('modelFieldNames', { modelName: 'basic' })).toEqual(['Front', 'Back']);
    expect(await anki('modelFieldNames', { modelName: 'Basic (type in the answer)' })).toEqual(['Front', 'Back']);
    expect(await errorOf(anki('modelFieldNames', { modelName: 'Japanese (recognition)' }))).toBe(
      'model was not found: Japanese (recognition)',
    );
    expect(await anki('modelFieldNames', { modelName: 'Basic (optional reversed card)' })).toEqual([
      'Front',
      'Back',
      'Add Reverse',
    ]);
    const ids = (await anki('modelNamesAndIds')) as Record<string, number>;
    expect(Object.keys(ids)).toHaveLength(6);
    expect(new Set(Object.values(ids)).size).toBe(6);
  });
});

describe("the learner's own note types", () => {
  it('are offered by name with their fields, take notes with every field, and read back and change as those notes', async () => {
    const { id, anki, as } = learner();
    const other = learner();
    const words = await as.createNoteType({
      name: 'Japanese (recognition)',
      fields: ['Expression', 'Reading', 'Meaning'],
      templates: [
        { name: 'Recognition', front: '{{Expression}}', back: '{{Reading}}\n\n{{Meaning}}' },
        { name: 'Recall', front: '{{Meaning}}', back: '{{Expression}}' },
      ],
    });
    const names = (await anki('modelNames')) as string[];
    expect(names.at(-1)).toBe('Japanese (recognition)');
    expect(await anki('modelFieldNames', { modelName: 'japanese (recognition)' })).toEqual([
      'Expression',
      'Reading',
      'Meaning',
    ]);
    const ids = (await anki('modelNamesAndIds')) as Record<string, number>;
    expect(Number.isSafeInteger(ids['Japanese (recognition)'])).toBe(true);
    // Another learner's note type is not theirs to see or use.
    expect(await other.anki('modelNames')).not.toContain('Japanese (recognition)');
    const note = {
      deckName: 'Default',
      modelName: 'Japanese (recognition)',
      fields: { Expression: '猫', reading: 'ねこ', Meaning: '<b>cat</b>' },
      tags: ['yomitan'],
    };
    expect(await errorOf(other.anki('addNote', { note }))).toBe('model was not found: Japanese (recognition)');

    const noteId = (await anki('addNote', { note })) as number;
    const card = await cards.db.card.findFirstOrThrow({ where: { ownerId: id }, include: { items: true } });
    expect(card).toMatchObject({ type: 'note', noteTypeId: words.id, fields: ['猫', 'ねこ', '**cat**'] });
    expect(card.items.map((item) => item.ordinal).sort()).toEqual([0, 1]);
    // The same expression again is a duplicate of that note type.
    expect(await errorOf(anki('addNote', { note }))).toBe('cannot create note because it is a duplicate');

    const [info] = (await anki('notesInfo', { notes: [noteId] })) as {
      modelName: string;
      fields: Record<string, { value: string; order: number }>;
      cards: number[];
    }[];
    expect(info?.modelName).toBe('Japanese (recognition)');
    expect(info?.fields).toEqual({
      Expression: { value: '猫', order: 0 },
      Reading: { value: 'ねこ', order: 1 },
      Meaning: { value: '<strong>cat</strong>', order: 2 },
    });
    const cardsInfo = (await anki('cardsInfo', { cards: info?.cards ?? [] })) as Record<string, unknown>[];
    expect(cardsInfo.map((each) => [each.template, each.ord, each.question])).toEqual([
      ['Recognition', 0, '猫'],
      ['Recall', 1, '<strong>cat</strong>'],
    ]);

    await anki('updateNoteFields', { note: { id: noteId, fields: { Meaning: 'cat (animal)' } } });
    const changed = await cards.db.card.findFirstOrThrow({ where: { ownerId: id }, include: { items: true } });
    expect(changed.fields).toEqual(['猫', 'ねこ', 'cat (animal)']);
    expect(changed.items.map((item) => item.id).sort()).toEqual(card.items.map((item) => item.id).sort());
  });
});

describe('a note of Basic (type in the answer)', () => {
  it('is a typed card, asked by its front with its back to type, and reads back as that note type', async () => {
    const { id, anki } = learner();
    const typing = (front: string, back: string) => ({
      ...basic(front, back),
      modelName: 'Basic (type in the answer)',
    });
    const noteId = (await anki('addNote', { note: typing('Capital of <i>Peru</i>?', 'Lima') })) as number;
    const [second] = (await anki('addNotes', { notes: [typing('Capital of Chile?', 'Santiago')] })) as number[];

    const added = await cards.db.card.findMany({
      where: { ownerId: id },
      include: { items: true },
      orderBy: { number: 'asc' },
    });
    expect(added.map((card) => [Number(card.number), card.type, card.front, card.back])).toEqual([
      [noteId, 'typed', 'Capital of *Peru*?', 'Lima'],
      [second, 'typed', 'Capital of Chile?', 'Santiago'],
    ]);
    expect(added.map((card) => card.items.map((item) => item.ordinal))).toEqual([[0], [0]]);

    const [note] = (await anki('notesInfo', { notes: [noteId] })) as {
      modelName: string;
      fields: Record<string, { value: string; order: number }>;
      cards: number[];
    }[];
    expect(note?.modelName).toBe('Basic (type in the answer)');
    expect(note?.fields).toEqual({
      Front: { value: 'Capital of <em>Peru</em>?', order: 0 },
      Back: { value: 'Lima', order: 1 },
    });
    const [card] = (await anki('cardsInfo', { cards: note?.cards ?? [] })) as Record<string, unknown>[];
    // As Anki renders its stock type for its reviewer: the box to type Back in marked, the answer without the front's.
    expect(card).toMatchObject({
      modelName: 'Basic (type in the answer)',
      template: 'Card 1',
      ord: 0,
      question: 'Capital of <em>Peru</em>?\n\n[[type:Back]]',
      answer: 'Capital of <em>Peru</em>?\n\n<hr id=answer>\n\n[[type:Back]]',
    });
  });
});

describe('adding a word as a dictionary pop-up does', () => {
  it('keeps its sound and screenshot as the learner’s files and puts the card in tonight’s practice', async () => {
    const { id, anki, as } = learner();
    await anki('createDeck', { deck: 'Japanese' });
    const sound = 'yomitan_audio_0f1e2d3c.mp3';
    expect(await anki('storeMediaFile', { filename: sound, data: recordedFile('tone.mp3').toString('base64') })).toBe(
      sound,
    );
    const noteId = await anki('addNote', {
      note: {
        deckName: 'Japanese',
        modelName: 'Basic',
        fields: { front: '読む', Back: '<b>to read</b><br>本を読む', Ignored: 'x' },
        tags: ['yomitan', 'jlpt::n5'],
        options: { allowDuplicate: false, duplicateScope: 'collection' },
        audio: [{ filename: sound, data: recordedFile('tone.mp3').toString('base64'), fields: ['Front'] }],
        picture: [
          {
            filename: 'yomitan_browser_screenshot_2026-11-30.png',
            data: (await png()).toString('base64'),
            fields: ['Back'],
          },
        ],
      },
    });
    expect(typeof noteId).toBe('number');

    const card = await cards.db.card.findFirstOrThrow({
      where: { ownerId: id, number: BigInt(noteId as number) },
      include: { tags: { include: { tag: true } }, media: true },
    });
    expect(card.front).toMatch(
      /^読む!\[yomitan_audio_0f1e2d3c\]\(\/media\/[0-9a-f-]{36}\/yomitan_audio_0f1e2d3c\.mp3\)$/,
    );
    expect(card.back).toContain('**to read**');
    expect(card.back).toMatch(/!\[\]\(\/media\/[0-9a-f-]{36}\/yomitan_browser_screenshot_2026-11-30\.png\)/);
    expect(card.media).toHaveLength(2);
    expect(card.tags.map(({ tag }) => tag.name).sort()).toEqual(['Japanese', 'jlpt::n5', 'yomitan']);
    // The same sound stored twice is one file.
    expect(await cards.db.mediaFile.count({ where: { ownerId: id } })).toBe(2);

    const due = await as.listDue({ limit: 10 });
    expect(due.items.map((item) => item.front)).toContain(card.front);

    // Read back as Anki's HTML, the files named as the tool stored them.
    const [info] = (await anki('notesInfo', { notes: [noteId] })) as {
      fields: Record<string, { value: string; order: number }>;
      tags: string[];
      cards: number[];
      modelName: string;
    }[];
    expect(info?.modelName).toBe('Basic');
    expect(info?.fields.Front).toEqual({ value: `読む[sound:${sound}]`, order: 0 });
    expect(info?.fields.Back?.value).toContain('<img src="yomitan_browser_screenshot_2026-11-30.png"');
    expect(info?.tags).toEqual(['jlpt::n5', 'yomitan']);
    expect(info?.cards).toHaveLength(1);
    const kept = await cards.db.mediaFile.findFirstOrThrow({ where: { ownerId: id, name: sound } });
    expect(await anki('retrieveMediaFile', { filename: sound })).toBe(kept.id);
    expect(await anki('retrieveMediaFile', { filename: 'never-stored.mp3' })).toBe(false);
  });

  it('fetches a file from its url, and refuses a path on the tool’s device or a file that is neither picture nor sound', async () => {
    const { anki } = learner();
    expect(await anki('storeMediaFile', { filename: 'word.mp3', url: `${filesUrl}/word.mp3` })).toBe('word.mp3');
    expect(await errorOf(anki('storeMediaFile', { filename: 'gone.mp3', url: `${filesUrl}/gone.mp3` }))).toMatch(
      /answered 404/,
    );
    expect(await errorOf(anki('storeMediaFile', { filename: 'a.png', path: '/home/me/a.png' }))).toMatch(
      /a path names a file on your device/,
    );
    expect(await errorOf(anki('storeMediaFile', { filename: 'a.png' }))).toBe(
      'You must provide a "data", "path", or "url" field.',
    );
    expect(await errorOf(anki('storeMediaFile', { filename: 'notes.pdf', data: 'AAAA' }))).toMatch(
      /Engram keeps pictures .* and sounds .*, not notes\.pdf/,
    );
    // Stored again under its name, other bytes replace the first; kept apart, they get Anki's hashed name.
    expect(await anki('storeMediaFile', { filename: 'shot.png', url: `${filesUrl}/shot.png` })).toBe('shot.png');
    const other = await sharp({ create: { width: 5, height: 5, channels: 3, background: '#a37' } })
      .png()
      .toBuffer();
    const stored = await anki('storeMediaFile', {
      filename: 'shot.png',
      data: other.toString('base64'),
      deleteExisting: false,
    });
    expect(stored).toBe(`shot-${createHash('sha1').update(other).digest('hex')}.png`);
    expect(await anki('storeMediaFile', { filename: 'shot.png', data: other.toString('base64') })).toBe('shot.png');
  });

  it('shows a file a note named before it was stored, once the tool stores it (notes first, files after)', async () => {
    const { id, anki } = learner();
    const noteId = (await anki('addNote', {
      note: basic('Mitochondria', 'The powerhouse <img src="cell (1).png"> [sound:cell.mp3]'),
    })) as number;
    const waiting = await cards.db.card.findFirstOrThrow({ where: { ownerId: id, number: BigInt(noteId) } });
    expect(waiting.back).toContain('](media:cell%20\\(1\\).png)');
    // Read back meanwhile as Anki has it.
    const [info] = (await anki('notesInfo', { notes: [noteId] })) as { fields: Record<string, { value: string }> }[];
    expect(info?.fields.Back?.value).toBe('The powerhouse <img src="cell (1).png"> [sound:cell.mp3]');

    await anki('storeMediaFile', { filename: 'cell (1).png', data: (await png()).toString('base64') });
    await anki('storeMediaFile', { filename: 'cell.mp3', data: recordedFile('tone.mp3').toString('base64') });
    const shown = await cards.db.card.findFirstOrThrow({
      where: { ownerId: id, number: BigInt(noteId) },
      include: { media: true },
    });
    expect(shown.back).not.toContain('media:');
    expect(shown.back.match(/\/media\/[0-9a-f-]{36}\//g)).toHaveLength(2);
    expect(shown.media).toHaveLength(2);
  });

  it('refuses, in AnkiConnect’s words, a missing note type or deck and an empty first field', async () => {
    const { anki } = learner();
    expect(await errorOf(anki('addNote', { note: basic('x', 'y', 'Nowhere') }))).toBe('deck was not found: Nowhere');
    expect(await errorOf(anki('addNote', { note: { ...basic('x'), modelName: 'Nope' } }))).toBe(
      'model was not found: Nope',
    );
    expect(await errorOf(anki('addNote', { note: basic('  ') }))).toBe('cannot create note because it is empty');
    expect(await errorOf(anki('addNote', { note: basic('x'.repeat(3000)) }))).toBe(
      'Front must be at most 2000 characters.',
    );
    // Bounded work for the process that serves everyone: a field far past a card side, too many notes at once.
    expect(await errorOf(anki('addNote', { note: basic('x', 'y'.repeat(70_000)) }))).toBe(
      'a field is at most 64 KB of HTML',
    );
    expect(await errorOf(anki('notesInfo', { notes: Array.from({ length: 2_001 }, (_, i) => i + 1) }))).toBe(
      'at most 2,000 ids at once: ask for the rest in another call',
    );
    expect(await errorOf(anki('guiEditNote', { note: 1 }))).toBe('unsupported action');
    expect(await errorOf(anki('loadProfile', { name: 'x' }))).toBe('unsupported action');
  });
});

describe('duplicates', () => {
  it('finds a duplicate by its first field, whatever its markup, case or accents, within the scope asked', async () => {
    const { anki } = learner();
    await anki('createDeck', { deck: 'Spanish' });
    await anki('createDeck', { deck: 'Spanish::Verbs' });
    await anki('addNote', { note: basic('<b>Café</b>', 'coffee', 'Spanish::Verbs') });

    const again = basic('cafe ', 'coffee', 'Spanish');
    expect(await anki('canAddNotes', { notes: [again] })).toEqual([false]);
    expect(await anki('canAddNotesWithErrorDetail', { notes: [again, basic('té', 'tea')] })).toEqual([
      { canAdd: false, error: 'cannot create note because it is a duplicate' },
      { canAdd: true },
    ]);
    expect(await errorOf(anki('addNote', { note: again }))).toBe('cannot create note because it is a duplicate');

    const inDeck = (checkChildren: boolean) =>
      basic('café', 'coffee', 'Spanish', {
        options: { duplicateScope: 'deck', duplicateScopeOptions: { deckName: 'Spanish', checkChildren } },
      });
    expect(await anki('canAddNotes', { notes: [inDeck(false), inDeck(true)] })).toEqual([true, false]);
    // Another note type is another note, unless every type is asked for.
    const reversed = { ...basic('café'), modelName: 'Basic (and reversed card)' };
    expect(await anki('canAddNotes', { notes: [reversed] })).toEqual([true]);
    expect(
      await anki('canAddNotes', {
        notes: [{ ...reversed, options: { duplicateScopeOptions: { checkAllModels: true } } }],
      }),
    ).toEqual([false]);
    // allowDuplicate adds it anyway.
    expect(await anki('addNote', { note: { ...again, options: { allowDuplicate: true } } })).toEqual(
      expect.any(Number),
    );
  });

  it('adds every note of addNotes, or none with their errors', async () => {
    const { id, anki } = learner();
    const ids = await anki('addNotes', { notes: [basic('one'), basic('two')] });
    expect(ids).toEqual([expect.any(Number), expect.any(Number)]);
    expect(await errorOf(anki('addNotes', { notes: [basic('three'), basic('one')] }))).toBe(
      "['cannot create note because it is a duplicate']",
    );
    expect(await cards.db.card.count({ where: { ownerId: id } })).toBe(2);
  });
});

describe("Anki's search", () => {
  it('finds notes and cards by words, fields, decks, tags, states, ids and numbers', async () => {
    const { id, anki, as } = learner();
    await anki('createDeck', { deck: 'Geo::Europe' });
    const paris = (await anki('addNote', {
      note: { ...basic('Paris', 'capital of France', 'Geo::Europe'), tags: ['capital'] },
    })) as number;
    const dog = (await anki('addNote', {
      note: { ...basic('dog', 'Hund'), modelName: 'Basic (and reversed card)' },
    })) as number;
    const cloze = (await anki('addNote', {
      note: { deckName: 'Default', modelName: 'Cloze', fields: { Text: '{{c1::Rome}} is in {{c2::Italy}}' } },
    })) as number;
    const find = (query: string) => anki('findNotes', { query }) as Promise<number[]>;

    expect(await find('')).toEqual([paris, dog, cloze]);
    expect(await find('capital')).toEqual([paris]);
    expect(await find('"capital of"')).toEqual([paris]);
    expect(await find('front:paris')).toEqual([paris]);
    expect(await find('front:par')).toEqual([]);
    expect(await find('front:par*')).toEqual([paris]);
    expect(await find('text:*rome*')).toEqual([cloze]);
    expect(await find('deck:Geo')).toEqual([paris]);
    expect(await find('deck:default')).toEqual([dog, cloze]);
    expect(await find('tag:capital')).toEqual([paris]);
    expect(await find('-tag:capital is:new')).toEqual([dog, cloze]);
    expect(await find('dog or rome')).toEqual([dog, cloze]);
    expect(await find('(dog or paris) -hund')).toEqual([paris]);
    expect(await find(`nid:${paris},${cloze}`)).toEqual([paris, cloze]);
    expect(await find('added:1')).toEqual([paris, dog, cloze]);
    expect(await find('is:due')).toEqual([]);

    const dogCards = (await anki('findCards', { query: `nid:${dog}` })) as number[];
    expect(dogCards).toHaveLength(2);
    expect(await anki('findCards', { query: `nid:${dog} card:2` })).toEqual([dogCards[1]]);
    expect(await anki('findCards', { query: `nid:${cloze} card:2` })).toHaveLength(1);
    expect(await find(`cid:${dogCards[0]}`)).toEqual([dog]);

    // Answered today: rated:1, with its rating, and its interval.
    const due = await as.listDue({ limit: 10 });
    const parisItem = due.items.find((item) => item.front === 'Paris');
    await as.review({ id: parisItem?.id, rating: 'easy', reviewId: randomUUID(), durationMs: 3000 });
    expect(await find('rated:1')).toEqual([paris]);
    expect(await find('rated:1:4')).toEqual([paris]);
    expect(await find('rated:1:1')).toEqual([]);
    expect(await find('is:review prop:ivl>=1 prop:reps=1')).toEqual([paris]);
    expect(await find('prop:due>0')).toEqual([paris]);

    expect(await errorOf(find('(dog'))).toBe('Invalid search: This parenthesis is not closed.');
    expect(id).toBeTruthy();
  });
});

describe('reading and changing notes and cards', () => {
  it('reads cards with their note, deck, queue and interval; suspends, tags, moves, edits and deletes them', async () => {
    const { id, anki } = learner();
    await anki('createDeck', { deck: 'French' });
    const note = (await anki('addNote', {
      note: { ...basic('chat', 'cat', 'French'), modelName: 'Basic (and reversed card)', tags: ['animals'] },
    })) as number;
    const [forward, backward] = (await anki('findCards', { query: `nid:${note}` })) as number[];
    const [info] = (await anki('cardsInfo', { cards: [backward, 999_999_999] })) as Record<string, unknown>[];
    expect(info).toMatchObject({
      cardId: backward,
      note,
      deckName: 'French',
      modelName: 'Basic (and reversed card)',
      ord: 1,
      question: 'cat',
      queue: 0,
      type: 0,
      interval: 0,
      flags: 0,
    });
    expect(((await anki('cardsInfo', { cards: [999_999_999] })) as unknown[])[0]).toEqual({});

    expect(await anki('suspend', { cards: [forward] })).toBe(true);
    expect(await anki('suspend', { cards: [forward] })).toBe(false);
    expect(await anki('areSuspended', { cards: [forward, backward, 1] })).toEqual([true, true, null]);
    expect(await anki('findNotes', { query: 'is:suspended' })).toEqual([note]);
    expect(await anki('unsuspend', { cards: [backward] })).toBe(true);
    expect(await anki('areSuspended', { cards: [forward] })).toEqual([false]);

    await anki('addTags', { notes: [note], tags: 'vocab  french::a1' });
    await anki('removeTags', { notes: [note], tags: 'ANIMALS' });
    expect(await anki('getTags')).toEqual(['animals', 'french::a1', 'vocab']);
    expect(((await anki('notesInfo', { notes: [note] })) as { tags: string[] }[])[0]?.tags).toEqual([
      'french::a1',
      'vocab',
    ]);

    await anki('changeDeck', { cards: [forward], deck: 'French::Animals' });
    expect(await anki('findNotes', { query: '"deck:French::Animals"' })).toEqual([note]);
    expect(((await anki('cardsInfo', { cards: [backward] })) as { deckName: string }[])[0]?.deckName).toBe(
      'French::Animals',
    );

    expect(await anki('updateNoteFields', { note: { id: note, fields: { Back: 'the <i>cat</i>' } } })).toBeNull();
    const card = await cards.db.card.findFirstOrThrow({ where: { ownerId: id, number: BigInt(note) } });
    expect([card.front, card.back]).toEqual(['chat', 'the *cat*']);
    expect(await errorOf(anki('updateNoteFields', { note: { id: 424242424242, fields: { Back: 'x' } } }))).toBe(
      'Note was not found: 424242424242',
    );

    expect(await anki('deleteNotes', { notes: [note] })).toBeNull();
    expect(await anki('findNotes', { query: '' })).toEqual([]);
  });

  it("never reads or changes another learner's notes, whatever numbers are sent", async () => {
    const alice = learner();
    const bob = learner();
    const note = (await alice.anki('addNote', { note: basic('secret', 'mine') })) as number;
    const [item] = (await alice.anki('findCards', { query: '' })) as number[];

    expect(await bob.anki('findNotes', { query: `nid:${note}` })).toEqual([]);
    expect(await bob.anki('notesInfo', { notes: [note] })).toEqual([{}]);
    expect(await bob.anki('cardsInfo', { cards: [item] })).toEqual([{}]);
    expect(await bob.anki('suspend', { cards: [item] })).toBe(false);
    await bob.anki('addTags', { notes: [note], tags: 'bob' });
    await bob.anki('changeDeck', { cards: [item], deck: 'Bob' });
    await bob.anki('deleteNotes', { notes: [note] });
    expect(await errorOf(bob.anki('updateNoteFields', { note: { id: note, fields: { Front: 'x' } } }))).toBe(
      `Note was not found: ${note}`,
    );
    const card = await cards.db.card.findFirstOrThrow({
      where: { number: BigInt(note) },
      include: { tags: true, items: true },
    });
    expect([card.front, card.tags.length, card.items[0]?.archived]).toEqual(['secret', 0, false]);
  });
});
