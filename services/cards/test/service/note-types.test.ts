// Note types (issue 45): a learner's own kinds of note, with named fields and card templates. A note makes one
// review item per template it fills, editing it keeps its items' history, changing the note type changes every
// note of it, and another learner's note type is not there to use, change or delete.
import { randomUUID } from 'node:crypto';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsCaller, type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

const newLearner = (name: string) => {
  const id = `${name}-${randomUUID().slice(0, 8)}`;
  return { id, api: cards.as(id) };
};

/** A vocabulary note type as shared decks build them: word → meaning, meaning → word, an example when given. */
const VOCABULARY = {
  name: 'Vocabulary',
  kind: 'standard',
  fields: ['Word', 'Meaning', 'Example'],
  templates: [
    { name: 'Recognise', front: '{{Word}}', back: '{{Meaning}}{{#Example}}\n\n> {{Example}}{{/Example}}' },
    { name: 'Recall', front: '{{Meaning}}', back: '{{Word}}' },
  ],
  css: '.card { font-family: Georgia; color: navy; background: url(https://tracker.example/pixel.png) } @import url(x.css);',
};

const vocabulary = async (api: CardsCaller) => api.createNoteType(VOCABULARY);

/** What is due, by template (items made together are due together, in no set order). */
const due = async (api: CardsCaller) =>
  (await api.listDue()).items
    .map((item) => ({ ordinal: item.ordinal, front: item.front, back: item.back }))
    .sort((a, b) => a.ordinal - b.ordinal);

describe("a learner's note types", () => {
  it('are listed after the stock ones, with how many notes each has', async () => {
    const { api } = newLearner('list');
    const type = await vocabulary(api);
    await api.createCard({ noteTypeId: type.id, fieldValues: ['gato', 'cat', ''] });
    await api.createCard({ front: 'f', back: 'b' });
    const { items } = await api.listNoteTypes();
    expect(items.map((item) => [item.name, item.stock, item.notes])).toEqual([
      ['Basic', true, 1],
      ['Basic (and reversed card)', true, 0],
      ['Basic (optional reversed card)', true, 0],
      ['Cloze', true, 0],
      ['Basic (type in the answer)', true, 0],
      ['Image Occlusion', true, 0],
      ['Vocabulary', false, 1],
    ]);
    // Its styling is kept where it is safe: no outside address, no @-rule.
    expect(items.at(-1)?.css).toBe('.card { font-family: Georgia; color: navy; }');
  });

  it('make one review item per template a note fills, each asking as its template says', async () => {
    const { api } = newLearner('items');
    const type = await vocabulary(api);
    const { card } = await api.createCard({ noteTypeId: type.id, fieldValues: ['gato', 'cat', 'El gato duerme.'] });
    expect(card).toMatchObject({ type: 'note', noteTypeId: type.id, fieldValues: ['gato', 'cat', 'El gato duerme.'] });
    // Found by any of its fields, as the card list and search read its front and back.
    expect(card).toMatchObject({ front: 'gato', back: 'cat\n\nEl gato duerme.' });
    expect(await due(api)).toEqual([
      { ordinal: 0, front: 'gato', back: 'cat\n\n> El gato duerme.' },
      { ordinal: 1, front: 'cat', back: 'gato' },
    ]);
  });

  it('ask Basic (optional reversed card) backwards only once "Add Reverse" is filled, the first card keeping its history', async () => {
    const { api } = newLearner('optional');
    const { card } = await api.createCard({ noteTypeId: 'optional-reversed', fieldValues: ['chien', 'dog', ''] });
    const [first] = (await api.listDue()).items;
    expect(first).toMatchObject({ ordinal: 0, front: 'chien', back: 'dog' });
    await api.review({ id: first!.id, rating: 'good', reviewId: randomUUID(), durationMs: 1000 });
    await api.updateCard({ id: card!.id, fields: ['field_values'], fieldValues: ['chien', 'dog', 'y'] });
    const items = await cards.db.reviewItem.findMany({ where: { cardId: card!.id }, orderBy: { ordinal: 'asc' } });
    expect(items.map((item) => [item.ordinal, item.reps])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(items[0]!.id).toBe(first!.id);
  });

  it('take a note of a stock type made of an Engram card type as that card', async () => {
    const { api } = newLearner('stock');
    const { card } = await api.createCard({ noteTypeId: 'reversed', fieldValues: ['perro', 'dog'] });
    expect(card).toMatchObject({ type: 'reversed', front: 'perro', back: 'dog', noteTypeId: '', fieldValues: [] });
    expect((await due(api)).map((item) => item.front)).toEqual(['perro', 'dog']);
  });

  it('keep every review item and its history when a note is edited, and show the new text', async () => {
    const { api } = newLearner('edit');
    const type = await vocabulary(api);
    const { card } = await api.createCard({ noteTypeId: type.id, fieldValues: ['gato', 'cat', ''] });
    const before = (await api.listDue()).items.sort((a, b) => a.ordinal - b.ordinal);
    for (const item of before) await api.review({ id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 1 });
    await api.updateCard({ id: card!.id, fields: ['field_values'], fieldValues: ['el gato', 'the cat', ''] });
    const items = await cards.db.reviewItem.findMany({ where: { cardId: card!.id }, orderBy: { ordinal: 'asc' } });
    expect(items.map((item) => [item.id, item.reps])).toEqual(before.map((item) => [item.id, 1]));
    const stored = await cards.db.card.findUniqueOrThrow({ where: { id: card!.id } });
    expect(stored).toMatchObject({ front: 'el gato', back: 'the cat', fields: ['el gato', 'the cat', ''] });
    // A note is changed by its fields, not by a front of its own.
    const error = await grpcFailure(api.updateCard({ id: card!.id, fields: ['front'], front: 'x' }));
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.message).toBe('A note is changed by its fields.');
  });

  it('carry every note along when the note type changes: fields moved, new templates asked, removed ones gone', async () => {
    const { api } = newLearner('change');
    const type = await vocabulary(api);
    const { card } = await api.createCard({ noteTypeId: type.id, fieldValues: ['gato', 'cat', 'El gato duerme.'] });
    const recognise = (await api.listDue()).items.find((item) => item.ordinal === 0);
    await api.review({ id: recognise!.id, rating: 'good', reviewId: randomUUID(), durationMs: 1 });
    // "Meaning" becomes "Translation" and moves first; "Example" goes; a "Picture" field comes; "Recall" goes and a
    // template asking the picture comes.
    const changed = await api.updateNoteType({
      id: type.id,
      name: 'Words',
      fields: ['Translation', 'Word', 'Picture'],
      fieldSources: [1, 0, -1],
      templates: [
        { name: 'Recognise', front: '{{Word}}', back: '{{Translation}}' },
        { name: 'Picture', front: '{{Picture}}', back: '{{Word}}' },
        { name: 'Spell', front: '{{Translation}}\n\n{{type:Word}}', back: '{{type:Word}}' },
      ],
    });
    expect(changed).toMatchObject({ name: 'Words', fields: ['Translation', 'Word', 'Picture'], notes: 1 });
    const stored = await cards.db.card.findUniqueOrThrow({ where: { id: card!.id } });
    expect(stored).toMatchObject({ fields: ['cat', 'gato', ''], front: 'cat', back: 'gato' });
    const items = await cards.db.reviewItem.findMany({ where: { cardId: card!.id }, orderBy: { ordinal: 'asc' } });
    // Template 0 keeps its history; 1 (the picture) is empty; 2 is new.
    expect(items.map((item) => [item.ordinal, item.reps])).toEqual([
      [0, 1],
      [2, 0],
    ]);
    const spell = (await api.listDue()).items.find((item) => item.ordinal === 2);
    expect(spell).toMatchObject({ front: 'cat', back: 'gato', typedAnswer: 'gato', typedIgnoreAccents: false });
  });

  it("are another learner's to use, change or delete: never found by anyone else", async () => {
    const alice = newLearner('alice');
    const bob = newLearner('bob');
    const type = await vocabulary(alice.api);
    const uses = [
      () => bob.api.createCard({ noteTypeId: type.id, fieldValues: ['a', 'b', ''] }),
      () => bob.api.updateNoteType({ ...VOCABULARY, id: type.id, name: 'Mine now' }),
      () => bob.api.deleteNoteType({ id: type.id }),
    ];
    for (const use of uses) {
      const error = await grpcFailure(use());
      expect(error.code).toBe(status.NOT_FOUND);
      expect(error.message).toBe('Note type not found.');
    }
    expect((await bob.api.listNoteTypes()).items.some((item) => item.id === type.id)).toBe(false);
    expect(await cards.db.card.count({ where: { ownerId: bob.id } })).toBe(0);
    expect((await cards.db.noteType.findUniqueOrThrow({ where: { id: type.id } })).name).toBe('Vocabulary');
  });

  it('refuse what cannot work, in words, changing nothing', async () => {
    const { id, api } = newLearner('refusals');
    const refusal = async (call: Promise<unknown>) => {
      const error = await grpcFailure(call);
      return [error.code, error.message];
    };
    expect(
      await refusal(api.createNoteType({ ...VOCABULARY, templates: [{ name: 'C', front: '{{Wrd}}', back: '' }] })),
    ).toEqual([status.INVALID_ARGUMENT, 'A template names a field this note type does not have.']);
    const type = await vocabulary(api);
    expect(await refusal(vocabulary(api))).toEqual([
      status.ALREADY_EXISTS,
      'You already have a note type named "Vocabulary".',
    ]);
    // A stock type's name says which type is meant (AnkiConnect's modelName, the card form): none of theirs takes it.
    expect(await refusal(api.createNoteType({ ...VOCABULARY, name: ' basic ' }))).toEqual([
      status.ALREADY_EXISTS,
      '"basic" is the name of a stock note type: choose another.',
    ]);
    expect(await refusal(api.updateNoteType({ ...VOCABULARY, id: type.id, name: 'Image Occlusion' }))).toEqual([
      status.ALREADY_EXISTS,
      '"Image Occlusion" is the name of a stock note type: choose another.',
    ]);
    expect(await refusal(api.updateNoteType({ ...VOCABULARY, id: 'basic' }))).toEqual([
      status.INVALID_ARGUMENT,
      'Note type id is not valid.',
    ]);
    expect(await refusal(api.createCard({ noteTypeId: type.id, fieldValues: ['', 'cat', ''] }))).toEqual([
      status.INVALID_ARGUMENT,
      'Front is required.',
    ]);
    const oneWay = await api.createNoteType({
      ...VOCABULARY,
      name: 'One way',
      templates: [{ name: 'Meaning', front: '{{Meaning}}', back: '{{Word}}' }],
    });
    expect(await refusal(api.createCard({ noteTypeId: oneWay.id, fieldValues: ['gato', '', ''] }))).toEqual([
      status.INVALID_ARGUMENT,
      "This note makes no card: fill a field that one of its note type's card templates asks.",
    ]);
    await api.createCard({ noteTypeId: type.id, fieldValues: ['gato', 'cat', ''] });
    expect(await refusal(api.deleteNoteType({ id: type.id }))).toEqual([
      status.FAILED_PRECONDITION,
      'This note type has 1 note: delete it or change its note type first.',
    ]);
    expect(await refusal(api.updateNoteType({ ...VOCABULARY, id: type.id, fieldSources: [0, 1, 5] }))).toEqual([
      status.INVALID_ARGUMENT,
      'A field source names a field the note type does not have.',
    ]);
    expect(await cards.db.card.count({ where: { ownerId: id } })).toBe(1);
    expect(await cards.db.noteType.count({ where: { ownerId: id } })).toBe(2);
    // One no note uses goes.
    await api.deleteNoteType({ id: oneWay.id });
    expect(await cards.db.noteType.count({ where: { ownerId: id } })).toBe(1);
  });

  it("give the offline set each note's items as practice asks them", async () => {
    const { api } = newLearner('offline');
    const type = await vocabulary(api);
    await api.createCard({ noteTypeId: type.id, fieldValues: ['gato', 'cat', ''] });
    const { items } = await api.listOffline({});
    const kept = items.map(({ item }) => [item?.ordinal ?? -1, item?.front, item?.back] as const);
    expect(kept.sort((a, b) => a[0] - b[0])).toEqual([
      [0, 'gato', 'cat'],
      [1, 'cat', 'gato'],
    ]);
  });
});
