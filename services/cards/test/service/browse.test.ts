// The Browse screen's calls: a learner's cards found with Anki's search syntax and sorted, counted, changed in
// bulk and put back with undo (tags, archiving, deleting, due dates, forgetting, presets), saved searches, and
// cards whose first side is the same; never another learner's.
import { randomUUID } from 'node:crypto';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

function learner() {
  const id = `browse-${randomUUID()}`;
  return { id, as: cards.as(id) };
}

type Learner = ReturnType<typeof learner>;

async function tag({ as }: Learner, name: string) {
  return (await as.createTag({ name })).tag!.id;
}

async function card({ as }: Learner, front: string, options: { back?: string; type?: string; tagIds?: string[] } = {}) {
  return (
    await as.createCard({
      front,
      back: options.back ?? 'back',
      type: options.type ?? 'basic',
      tagIds: options.tagIds ?? [],
    })
  ).card!;
}

const fronts = async ({ as }: Learner, query: string, extra: Record<string, unknown> = {}) =>
  (await as.browseCards({ query, pageSize: 100, ...extra })).items.map((item) => item.front);

describe('searching and sorting', () => {
  it('finds cards with Anki’s syntax, newest first, a page at a time, and counts them', async () => {
    const l = learner();
    const spanish = await tag(l, 'Spanish::Verbs');
    await card(l, 'hablar', { back: 'to speak', tagIds: [spanish] });
    await card(l, 'comer', { back: 'to eat', tagIds: [spanish] });
    await card(l, 'The capital of {{c1::France}} is {{c2::Paris}}', { back: '', type: 'cloze' });
    expect(await fronts(l, '')).toEqual(['The capital of {{c1::France}} is {{c2::Paris}}', 'comer', 'hablar']);
    expect(await fronts(l, 'tag:spanish')).toEqual(['comer', 'hablar']);
    expect(await fronts(l, 'deck:Spanish -speak')).toEqual(['comer']);
    expect(await fronts(l, 'card:2')).toEqual(['The capital of {{c1::France}} is {{c2::Paris}}']);
    expect(await fronts(l, 'front:habl*', { ascending: true })).toEqual(['hablar']);
    expect((await l.as.countCards({ query: 'tag:spanish or paris' })).count).toBe(3);

    const first = await l.as.browseCards({ query: '', pageSize: 2 });
    expect(first.items).toHaveLength(2);
    const second = await l.as.browseCards({ query: '', pageSize: 2, cursor: first.nextCursor });
    expect(second.items.map((item) => item.front)).toEqual(['hablar']);
    expect(second.nextCursor).toBe('');
    expect(first.items[0]).toMatchObject({ state: 'new', reps: 0, intervalDays: 0, archived: false });
    expect(first.items[0]?.number).toBeGreaterThan(0);
  });

  it("finds a note by its note type, its own fields and its templates' names", async () => {
    const l = learner();
    const vocabulary = {
      name: 'Vocabulary',
      kind: 'standard',
      fields: ['Word', 'Meaning'],
      templates: [
        { name: 'Recognise', front: '{{Word}}', back: '{{Meaning}}' },
        { name: 'Recall', front: '{{Meaning}}', back: '{{Word}}' },
      ],
    };
    const type = await l.as.createNoteType(vocabulary);
    const gato = (await l.as.createCard({ noteTypeId: type.id, fieldValues: ['gato', 'cat'] })).card!;
    const perro = (await l.as.createCard({ noteTypeId: 'optional-reversed', fieldValues: ['perro', 'dog', 'y'] }))
      .card!;
    const basic = await card(l, 'Word', { back: 'gato' });
    const ids = async (query: string) =>
      (await l.as.browseCards({ query, pageSize: 100 })).items.map((item) => item.id).sort();
    expect(await ids('word:gato')).toEqual([gato.id]);
    expect(await ids('meaning:CAT')).toEqual([gato.id]);
    expect(await ids('meaning:c*')).toEqual([gato.id]);
    // A basic card's Back is its back side; a note of a type without a Back field has none.
    expect(await ids('back:gato')).toEqual([basic.id]);
    expect(await ids('back:dog')).toEqual([perro.id]);
    expect(await ids('"add reverse:y"')).toEqual([perro.id]);
    expect(await ids('note:vocab*')).toEqual([gato.id]);
    expect(await ids('note:basic')).toEqual([basic.id]);
    expect(await ids('"note:Basic (optional reversed card)"')).toEqual([perro.id]);
    expect(await ids('-note:vocabulary')).toEqual([basic.id, perro.id].sort());
    expect(await ids('card:recall')).toEqual([gato.id]);
    expect(await ids('"card:card 2"')).toEqual([perro.id]);
    expect(await ids('"card:card 1"')).toEqual([basic.id, perro.id].sort());
    // Another learner's note type of the same name finds none of theirs, nor theirs this one's.
    const other = learner();
    await other.as.createNoteType(vocabulary);
    expect((await other.as.browseCards({ query: 'note:vocabulary', pageSize: 100 })).items).toEqual([]);
  });

  it('sorts by front, reps and due', async () => {
    const l = learner();
    await card(l, 'banana');
    await card(l, 'Apple');
    await card(l, 'cherry');
    expect(await fronts(l, '', { sort: 'front', ascending: true })).toEqual(['Apple', 'banana', 'cherry']);
    const due = await l.as.listDue({ limit: 10 });
    const banana = due.items.find((item) => item.front === 'banana');
    await l.as.review({ id: banana?.id, rating: 'good', reviewId: randomUUID(), durationMs: 1000 });
    expect((await fronts(l, '', { sort: 'reps' }))[0]).toBe('banana');
    expect((await fronts(l, '', { sort: 'due', ascending: true }))[0]).toBe('banana');
  });

  it('keeps each card’s due, the soonest of its learned directions, whoever changes its review items', async () => {
    const l = learner();
    const perro = await card(l, 'perro', { back: 'dog', type: 'reversed' });
    await card(l, 'gato');
    const dueOfPerro = async () => (await l.as.browseCards({ query: 'perro', pageSize: 10 })).items[0]?.due;
    const itemsOfPerro = () =>
      cards.db.reviewItem.findMany({ where: { cardId: perro.id }, orderBy: { ordinal: 'asc' } });
    expect(await dueOfPerro()).toBeUndefined();

    const [forward, backward] = await itemsOfPerro();
    await l.as.review({ id: forward!.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1000 });
    expect(await dueOfPerro()).toEqual((await itemsOfPerro())[0]!.due);
    await l.as.review({ id: backward!.id, rating: 'again', reviewId: randomUUID(), durationMs: 1000 });
    const [easy, again] = await itemsOfPerro();
    expect(again!.due.getTime()).toBeLessThan(easy!.due.getTime());
    expect(await dueOfPerro()).toEqual(again!.due);
    // Soonest first puts the cards with no due (all new) last; latest first is its reverse.
    expect(await fronts(l, '', { sort: 'due', ascending: true })).toEqual(['perro', 'gato']);
    expect(await fronts(l, '', { sort: 'due' })).toEqual(['gato', 'perro']);

    // An import or an operator writes review items straight: the card follows.
    const later = new Date(Date.now() + 100 * 86_400_000);
    await cards.db.$executeRaw`UPDATE review_items SET due = ${later}, state = 2 WHERE card_id = ${perro.id}::uuid`;
    expect(await dueOfPerro()).toEqual(later);

    const forgotten = await l.as.bulkEdit({ action: 'forget', query: 'perro' });
    expect(await dueOfPerro()).toBeUndefined();
    await l.as.undoBulkEdit({ undoId: forgotten.undoId });
    expect(await dueOfPerro()).toEqual(later);
  });

  it('finds a card by its sides as they are now, not as they were', async () => {
    const l = learner();
    const edited = await card(l, 'Qué hora es', { back: 'What time is it' });
    expect(await fronts(l, 'que')).toEqual(['Qué hora es']);
    await l.as.updateCard({ id: edited.id, fields: ['front', 'back'], front: 'Dónde está', back: 'Where is it' });
    expect(await fronts(l, 'que or time')).toEqual([]);
    expect(await fronts(l, 'DONDE where')).toEqual(['Dónde está']);
    expect(await fronts(l, 'back:"where is*"')).toEqual(['Dónde está']);
  });

  it('refuses a malformed search with the problem', async () => {
    const { as } = learner();
    const error = await grpcFailure(as.browseCards({ query: '(dog' }));
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.message).toBe('This parenthesis is not closed.');
  });
});

describe('bulk edits, each undone', () => {
  it('adds and removes tags, then puts them back', async () => {
    const l = learner();
    const verbs = await tag(l, 'verbs');
    const a = await card(l, 'a');
    const b = await card(l, 'b', { tagIds: [verbs] });
    const added = await l.as.bulkEdit({ action: 'add_tags', cardIds: [a.id, b.id], tagIds: [verbs] });
    expect(added.changed).toBe(1);
    expect(await fronts(l, 'tag:verbs')).toEqual(['b', 'a']);
    await l.as.undoBulkEdit({ undoId: added.undoId });
    expect(await fronts(l, 'tag:verbs')).toEqual(['b']);

    const removed = await l.as.bulkEdit({ action: 'remove_tags', query: 'tag:verbs', tagIds: [verbs] });
    expect(await fronts(l, 'tag:verbs')).toEqual([]);
    expect((await l.as.undoBulkEdit({ undoId: removed.undoId })).restored).toBe(1);
    expect(await fronts(l, 'tag:verbs')).toEqual(['b']);
    // Once undone, a change cannot be undone again.
    expect((await grpcFailure(l.as.undoBulkEdit({ undoId: removed.undoId }))).code).toBe(status.NOT_FOUND);
  });

  it('archives, deletes and brings back cards with their progress, tags and numbers', async () => {
    const l = learner();
    const keep = await tag(l, 'keep');
    const a = await card(l, 'alpha', { tagIds: [keep] });
    const b = await card(l, 'beta', { type: 'reversed' });
    const due = await l.as.listDue({ limit: 10 });
    const alphaItem = due.items.find((item) => item.front === 'alpha');
    await l.as.review({ id: alphaItem?.id, rating: 'good', reviewId: randomUUID(), durationMs: 1000 });

    const archived = await l.as.bulkEdit({ action: 'archive', cardIds: [a.id, b.id] });
    expect(archived.changed).toBe(2);
    expect(await fronts(l, 'is:suspended')).toEqual(['beta', 'alpha']);
    expect((await l.as.listDue({ limit: 10 })).items).toEqual([]);
    await l.as.undoBulkEdit({ undoId: archived.undoId });
    expect(await fronts(l, 'is:suspended')).toEqual([]);

    const before = await cards.db.card.findMany({
      where: { ownerId: l.id },
      include: { items: true, tags: true },
      orderBy: { number: 'asc' },
    });
    const deleted = await l.as.bulkEdit({ action: 'delete', query: '' });
    expect(deleted.changed).toBe(2);
    expect(await fronts(l, '')).toEqual([]);
    // The review stays in the history while the card is gone.
    expect(await cards.db.reviewLog.count({ where: { ownerId: l.id } })).toBe(1);
    await l.as.undoBulkEdit({ undoId: deleted.undoId });
    const after = await cards.db.card.findMany({
      where: { ownerId: l.id },
      include: { items: true, tags: true },
      orderBy: { number: 'asc' },
    });
    expect(after).toEqual(before);
  });

  it('sets due dates in a range from today and forgets cards, then puts their progress back', async () => {
    const l = learner();
    for (const front of ['one', 'two', 'three']) await card(l, front);
    const due = await l.as.listDue({ limit: 10 });
    for (const item of due.items) {
      await l.as.review({ id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1000 });
    }
    const items = () => cards.db.reviewItem.findMany({ where: { ownerId: l.id }, orderBy: { number: 'asc' } });
    const reviewed = await items();

    const set = await l.as.bulkEdit({ action: 'set_due', query: '', dueFromDays: 2, dueToDays: 4 });
    expect(set.changed).toBe(3);
    const dayMs = 86_400_000;
    for (const item of await items()) {
      const days = Math.round((item.due.getTime() - Date.now()) / dayMs);
      expect(days).toBeGreaterThanOrEqual(1);
      expect(days).toBeLessThanOrEqual(5);
    }
    await l.as.undoBulkEdit({ undoId: set.undoId });
    expect(await items()).toEqual(reviewed);

    const forgotten = await l.as.bulkEdit({ action: 'forget', query: 'one or two' });
    expect(forgotten.changed).toBe(2);
    expect(await fronts(l, 'is:new', { sort: 'front', ascending: true })).toEqual(['one', 'two']);
    await l.as.undoBulkEdit({ undoId: forgotten.undoId });
    expect(await items()).toEqual(reviewed);
  });

  it('moves cards to a preset by its tag, and back', async () => {
    const l = learner();
    const japanese = await tag(l, 'japanese');
    const hard = await tag(l, 'hard');
    const preset = await l.as.createPreset({
      fields: ['name', 'tag_ids'],
      preset: { name: 'Japanese', tagIds: [japanese] },
    });
    await l.as.createPreset({ fields: ['name', 'tag_ids'], preset: { name: 'Hard', tagIds: [hard] } });
    const a = await card(l, 'neko', { tagIds: [hard] });
    const moved = await l.as.bulkEdit({ action: 'set_preset', cardIds: [a.id], presetId: preset.id });
    expect(moved.changed).toBe(1);
    expect(await fronts(l, 'tag:japanese -tag:hard')).toEqual(['neko']);
    const { presets } = await l.as.getSettings();
    const standard = presets.find((each) => each.isDefault);
    const out = await l.as.bulkEdit({ action: 'set_preset', cardIds: [a.id], presetId: standard!.id });
    expect(await fronts(l, 'tag:japanese or tag:hard')).toEqual([]);
    await l.as.undoBulkEdit({ undoId: out.undoId });
    await l.as.undoBulkEdit({ undoId: moved.undoId });
    expect(await fronts(l, 'tag:hard -tag:japanese')).toEqual(['neko']);
  });

  it('refuses too many tags on a card, changing nothing', async () => {
    const l = learner();
    const tagIds = [];
    for (let i = 0; i < 21; i += 1) tagIds.push(await tag(l, `t${i}`));
    const a = await card(l, 'crowded', { tagIds: tagIds.slice(0, 20) });
    const error = await grpcFailure(l.as.bulkEdit({ action: 'add_tags', cardIds: [a.id], tagIds: [tagIds[20]!] }));
    expect(error.message).toBe('A card can have at most 20 tags.');
    expect(await cards.db.cardTag.count({ where: { cardId: a.id } })).toBe(20);
  });

  it("never touches another learner's cards, tags or changes", async () => {
    const alice = learner();
    const bob = learner();
    const aliceTag = await tag(alice, 'mine');
    const a = await card(alice, 'private', { tagIds: [aliceTag] });
    expect((await grpcFailure(bob.as.bulkEdit({ action: 'delete', cardIds: [a.id] }))).code).toBe(status.NOT_FOUND);
    const bobCard = await card(bob, 'bob');
    expect(
      (await grpcFailure(bob.as.bulkEdit({ action: 'add_tags', cardIds: [bobCard.id], tagIds: [aliceTag] }))).code,
    ).toBe(status.NOT_FOUND);
    const own = await alice.as.bulkEdit({ action: 'archive', cardIds: [a.id] });
    expect((await grpcFailure(bob.as.undoBulkEdit({ undoId: own.undoId }))).code).toBe(status.NOT_FOUND);
    expect(await fronts(bob, '')).toEqual(['bob']);
    expect(await cards.db.card.count({ where: { id: a.id, archived: true } })).toBe(1);
  });
});

describe('saved searches and duplicates', () => {
  it('saves, replaces by name in any case, lists and deletes searches; refuses a malformed one', async () => {
    const l = learner();
    const saved = await l.as.saveSearch({ name: 'Due verbs', query: 'is:due tag:verbs' });
    await l.as.saveSearch({ name: 'due VERBS', query: 'is:due tag:verbs -is:suspended' });
    await l.as.saveSearch({ name: 'Leeches', query: 'tag:leech' });
    expect((await l.as.listSavedSearches()).items.map(({ name, query }) => [name, query])).toEqual([
      ['due VERBS', 'is:due tag:verbs -is:suspended'],
      ['Leeches', 'tag:leech'],
    ]);
    expect((await grpcFailure(l.as.saveSearch({ name: 'x', query: '(' }))).message).toBe(
      'This parenthesis is not closed.',
    );
    // Another learner cannot delete it.
    expect((await grpcFailure(learner().as.deleteSavedSearch({ id: saved.search!.id }))).code).toBe(status.NOT_FOUND);
    await l.as.deleteSavedSearch({ id: saved.search!.id });
    expect((await l.as.listSavedSearches()).items.map(({ name }) => name)).toEqual(['Leeches']);
    expect((await learner().as.listSavedSearches()).items).toEqual([]);
  });

  it('groups cards whose first side matches once markup, accents and case are set aside', async () => {
    const l = learner();
    await card(l, '**Café**');
    await card(l, 'cafe');
    await card(l, 'thé');
    await card(l, '<i>The</i>  ', { back: 'other' });
    await card(l, 'the');
    await card(l, 'tea');
    const { groups } = await l.as.findDuplicates({});
    expect(groups.map((group) => [group.key, group.cards.map((each) => each.front)])).toEqual([
      ['the', ['thé', '<i>The</i>', 'the']],
      ['cafe', ['**Café**', 'cafe']],
    ]);
  });

  it('keeps the first-side key of a front changed by SQL from any schema, as an operator would change it', async () => {
    const l = learner();
    const a = await card(l, 'before');
    const url = new URL(cards.databaseUrl);
    const schema = url.searchParams.get('schema') ?? 'public';
    url.searchParams.delete('schema');
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await client.query(`UPDATE "${schema}".cards SET front = 'Après' WHERE id = $1`, [a.id]);
    } finally {
      await client.end();
    }
    expect((await cards.db.card.findUniqueOrThrow({ where: { id: a.id } })).firstKey).toBe('apres');
  });
});
