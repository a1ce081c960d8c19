// What Anki's tools change: a note's fields (updateNoteFields), its tags (addTags, removeTags), its cards' deck
// (changeDeck), suspension (suspend, unsuspend: Engram archives the card the item belongs to) and deletion
// (deleteNotes); and decks (createDeck). Every write names the owner: another learner's numbers change nothing.
import { newCard } from '@engram/contracts/cards';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { Stores } from '../db.js';
import { changeContent, noteContent, setArchived } from '../domain/card-writes.js';
import { tagKey } from '../domain/tag-name.js';
import { noteNotFound } from './anki-error.js';
import { assertTagCount, checkedTagName, DEFAULT_DECK_ID, isDefaultDeck, tagIdsFor, tagList } from './decks.js';
import { sidesToHtml, sidesToMarkdown } from './fields.js';
import { fieldIndexOf, noteTypeOfCard, noteTypesOf, valuesOf } from './note-types.js';
import { type AnkiConnectDeps, addNoteMedia } from './notes-add.js';
import { numbersOf } from './notes-read.js';

/** The learner's cards with these note numbers. */
const cardsNumbered = (stores: Stores, ownerId: string, ids: unknown) =>
  stores.db.card.findMany({ where: { ownerId, number: { in: numbersOf(ids).map(BigInt) } } });

/** The learner's cards that review items with these numbers belong to. */
async function cardIdsOfItems(stores: Stores, ownerId: string, ids: unknown): Promise<string[]> {
  const items = await stores.db.reviewItem.findMany({
    where: { ownerId, number: { in: numbersOf(ids).map(BigInt) } },
    select: { cardId: true },
  });
  return [...new Set(items.map((item) => item.cardId))];
}

/** updateNoteFields: the fields named (in any case) change, with the note's audio, picture and video appended. */
export async function updateNoteFields(deps: AnkiConnectDeps, ctx: CallContext, value: unknown): Promise<null> {
  const { stores } = deps;
  const ownerId = ctx.caller.userId;
  const note = (value ?? {}) as Record<string, unknown>;
  const [card] = await cardsNumbered(stores, ownerId, [note.id]);
  if (!card) throw noteNotFound(note.id);
  const noteType = noteTypeOfCard(await noteTypesOf(stores.db, ownerId), card);
  const current = valuesOf(card);
  const values = await sidesToHtml(stores.db, ownerId, current);
  const changed = new Set<number>();
  const fields = note.fields && typeof note.fields === 'object' ? (note.fields as Record<string, unknown>) : {};
  for (const [name, field] of Object.entries(fields)) {
    const index = fieldIndexOf(noteType, name);
    if (index === undefined) continue;
    values[index] = String(field ?? '');
    changed.add(index);
  }
  const before = [...values];
  await addNoteMedia(deps, ctx, noteType, note, values);
  values.forEach((value, index) => {
    if (value !== before[index]) changed.add(index);
  });
  if (changed.size === 0) return null;
  const converted = await sidesToMarkdown(stores.db, ownerId, values);
  const next = current.map((value, index) => (changed.has(index) ? (converted[index] ?? '') : value));
  if (card.type === 'note' && card.noteTypeId) {
    const noteTypeId = card.noteTypeId;
    parseInput(newCard, { noteTypeId, fields: next, tagIds: [] });
    await stores.db.$transaction(async (tx) =>
      changeContent(tx, card, await noteContent(tx, ownerId, noteTypeId, next), new Date()),
    );
    return null;
  }
  const [front = '', back = ''] = next;
  parseInput(newCard, { front, back, type: card.type, tagIds: [] });
  await stores.db.$transaction((tx) => changeContent(tx, card, { type: card.type, front, back }, new Date()));
  return null;
}

/** deleteNotes: the learner's notes go, with their cards (their past reviews stay in the history). */
export async function deleteNotes(stores: Stores, ownerId: string, ids: unknown): Promise<null> {
  await stores.db.card.deleteMany({ where: { ownerId, number: { in: numbersOf(ids).map(BigInt) } } });
  return null;
}

/** suspend/unsuspend: false when every card named already was (or is not the learner's), as AnkiConnect answers. */
export async function setSuspended(
  stores: Stores,
  ownerId: string,
  ids: unknown,
  suspended: boolean,
): Promise<boolean> {
  const cardIds = await cardIdsOfItems(stores, ownerId, ids);
  const changing = await stores.db.card.findMany({
    where: { ownerId, id: { in: cardIds }, archived: !suspended },
    select: { id: true },
  });
  if (changing.length === 0) return false;
  await stores.db.$transaction((tx) => setArchived(tx, { ids: changing.map((card) => card.id), ownerId }, suspended));
  return true;
}

/** addTags: the tags (space-separated, made where missing) go on the learner's notes named. */
export async function addTags(stores: Stores, ownerId: string, ids: unknown, tags: unknown): Promise<null> {
  const names = tagList(tags);
  const cards = await cardsNumbered(stores, ownerId, ids);
  if (names.length === 0 || cards.length === 0) return null;
  await stores.db.$transaction(async (tx) => {
    const tagIds = await tagIdsFor(tx, ownerId, names);
    await tx.cardTag.createMany({
      data: cards.flatMap((card) => tagIds.map((tagId) => ({ cardId: card.id, tagId }))),
      skipDuplicates: true,
    });
    const counts = await tx.cardTag.groupBy({
      by: ['cardId'],
      where: { cardId: { in: cards.map((card) => card.id) } },
      _count: true,
    });
    for (const count of counts) assertTagCount(count._count);
  });
  return null;
}

/** removeTags: the tags named (in any case) come off the learner's notes named; the tags themselves stay. */
export async function removeTags(stores: Stores, ownerId: string, ids: unknown, tags: unknown): Promise<null> {
  const keys = tagList(tags).map(tagKey);
  const cards = await cardsNumbered(stores, ownerId, ids);
  if (keys.length === 0 || cards.length === 0) return null;
  await stores.db.cardTag.deleteMany({
    where: { cardId: { in: cards.map((card) => card.id) }, tag: { ownerId, nameKey: { in: keys }, ankiDeck: false } },
  });
  return null;
}

/** getTags: the learner's tags that are not decks, by name. */
export async function getTags(stores: Stores, ownerId: string): Promise<string[]> {
  const tags = await stores.db.tag.findMany({ where: { ownerId, ankiDeck: false }, orderBy: { nameKey: 'asc' } });
  return tags.map((tag) => tag.name);
}

/** createDeck: the deck's id, made (as a tag marked as a deck) when the learner has none of that name. */
export async function createDeck(stores: Stores, ownerId: string, deck: unknown): Promise<number> {
  const name = checkedTagName(deck);
  if (isDefaultDeck(name)) return DEFAULT_DECK_ID;
  await stores.db.$transaction((tx) => tagIdsFor(tx, ownerId, [], [name]));
  const tag = await stores.db.tag.findFirstOrThrow({ where: { ownerId, nameKey: tagKey(name) } });
  return Number(tag.number);
}

/** changeDeck: the notes of the cards named leave their decks for `deck` (made where missing). */
export async function changeDeck(stores: Stores, ownerId: string, ids: unknown, deck: unknown): Promise<null> {
  const name = checkedTagName(deck);
  const cardIds = await cardIdsOfItems(stores, ownerId, ids);
  if (cardIds.length === 0) return null;
  await stores.db.$transaction(async (tx) => {
    const [deckTag] = await tagIdsFor(tx, ownerId, [], [name]);
    await tx.cardTag.deleteMany({ where: { cardId: { in: cardIds }, tag: { ownerId, ankiDeck: true } } });
    if (deckTag) {
      await tx.cardTag.createMany({
        data: cardIds.map((cardId) => ({ cardId, tagId: deckTag })),
        skipDuplicates: true,
      });
      const counts = await tx.cardTag.groupBy({ by: ['cardId'], where: { cardId: { in: cardIds } }, _count: true });
      for (const count of counts) assertTagCount(count._count);
    }
  });
  return null;
}
