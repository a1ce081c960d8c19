// Writing cards inside a transaction: a new card with its review items and tags, an edit of its type and
// text that brings the review items in line while keeping the progress of the ones that remain (an
// edited cloze keeps the FSRS state of every deletion it still has), and archiving, which the items follow.
// Each write also links the card to the files its text shows (linkMedia).
import type { NewCard } from '@engram/contracts/cards';
import { frontMaxLength } from '@engram/contracts/cards';
import { CARD_CONTENT_PROBLEMS, cardContentProblem } from '@engram/contracts/cloze';
import { isUuid } from '@engram/contracts/ids';
import type { CardType } from '@engram/contracts/learning';
import { mediaIdsIn } from '@engram/contracts/media';
import { cardOrdinals, NOTE_PROBLEMS, type NoteTypeShape, noteAsCard, noteProblem } from '@engram/contracts/note-types';
import { Invalid } from '@engram/kit/errors';
import type { Prisma } from '../generated/prisma/client.js';
import { noteTypeOf } from './note-types.js';
import { WITH_TAGS } from './to-proto.js';

export interface CardContent {
  type: CardType;
  front: string;
  back: string;
  /** A note's: its note type's id and shape, and its fields' values (front and back are its fields). */
  note?: { id: string; type: NoteTypeShape; fields: string[] };
}

/**
 * The content a note of note type `noteTypeId` with `fields` makes, checked: a stock type made of an Engram card type
 * is that card; any other a note. Another learner's note type is NOT_FOUND.
 */
export async function noteContent(
  tx: Prisma.TransactionClient,
  ownerId: string,
  noteTypeId: string,
  fields: string[],
): Promise<CardContent> {
  const type = await noteTypeOf(tx, ownerId, noteTypeId);
  const problem = noteProblem(type, fields);
  if (problem) throw new Invalid(NOTE_PROBLEMS[problem], 'INVALID_NOTE');
  const made = noteAsCard(noteTypeId, type, fields);
  if (made.type !== 'note') return { type: made.type, front: made.front, back: made.back };
  return { type: 'note', front: made.front, back: made.back, note: { id: noteTypeId, type, fields: made.fields } };
}

/** What a card's columns hold of its content: a note's note type and fields, null for any other card. */
const noteColumns = (content: CardContent) => ({
  noteTypeId: content.note?.id ?? null,
  fields: content.note?.fields ?? [],
});

/** The ordinals of the review items `content` makes. */
const ordinalsOf = (content: CardContent) =>
  cardOrdinals({ ...content, ...(content.note && { note: { type: content.note.type, fields: content.note.fields } }) });

/** The shared deck card a learner's card is a copy of. */
export interface DeckOrigin {
  deckId: string;
  originCardId: string;
}

export function assertContent(type: CardType, front: string): void {
  const max = frontMaxLength(type);
  if (front.length > max) throw new Invalid(`Front must be at most ${max} characters.`, 'INVALID_CARD');
  const problem = cardContentProblem(type, front);
  if (problem) throw new Invalid(CARD_CONTENT_PROBLEMS[problem], 'INVALID_CARD');
}

export async function insertCard(
  tx: Prisma.TransactionClient,
  ownerId: string,
  card: NewCard & { archived?: boolean; externalId?: string },
  now: Date,
  origin?: DeckOrigin,
) {
  const content: CardContent =
    card.noteTypeId !== undefined
      ? await noteContent(tx, ownerId, card.noteTypeId, card.fields ?? [])
      : { type: card.type, front: card.front, back: card.back };
  if (content.type === 'note' && !content.note) throw new Invalid('A note needs its note type.', 'INVALID_NOTE');
  if (content.type !== 'note') assertContent(content.type, content.front);
  const archived = card.archived ?? false;
  const created = await tx.card.create({
    data: {
      ownerId,
      type: content.type,
      front: content.front,
      back: content.back,
      ...noteColumns(content),
      archived,
      ...(card.externalId !== undefined && { externalId: card.externalId }),
      ...(origin && { deckId: origin.deckId, originCardId: origin.originCardId }),
      items: {
        create: ordinalsOf(content).map((ordinal) => ({ ownerId, ordinal, due: now, archived })),
      },
      tags: { create: [...new Set(card.tagIds)].map((tagId) => ({ tagId })) },
    },
    include: WITH_TAGS,
  });
  await linkMedia(tx, { ...created, originCardId: origin?.originCardId ?? null }, { fresh: true });
  return created;
}

/** Gives a stored card new content; its review items follow when the type, the front or a note's fields changed. */
export async function changeContent(
  tx: Prisma.TransactionClient,
  card: { id: string; ownerId: string; type: CardType; front: string; archived: boolean },
  next: CardContent,
  now: Date,
): Promise<void> {
  // Checked when it changes: a card saved under an older, looser rule keeps its other edits.
  const changed = next.type !== card.type || next.front !== card.front || next.note !== undefined;
  if (changed && next.type !== 'note') assertContent(next.type, next.front);
  const updated = await tx.card.update({
    where: { id: card.id },
    data: { type: next.type, front: next.front, back: next.back, ...noteColumns(next) },
  });
  if (changed) await reconcileItems(tx, card, ordinalsOf(next), now);
  await linkMedia(tx, updated);
}

/**
 * Links a card to the files its text shows (`/media/<id>/…`): its owner's own files and, for a copy of a
 * shared deck's card, the files the copied card shows (its publisher's). Any other id stays unlinked, so
 * typing another learner's file id into a card never shows their file. `fresh`: a new card, with no links yet.
 */
export async function linkMedia(
  tx: Prisma.TransactionClient,
  card: { id: string; ownerId: string; front: string; back: string; originCardId: string | null },
  { fresh = false } = {},
): Promise<void> {
  const ids = mediaIdsIn(`${card.front}\n${card.back}`);
  if (!fresh) {
    await tx.cardMedia.deleteMany({ where: { cardId: card.id, ...(ids.length > 0 && { mediaId: { notIn: ids } }) } });
  }
  if (ids.length === 0) return;
  const shown = await tx.mediaFile.findMany({
    where: {
      id: { in: ids },
      OR: [
        { ownerId: card.ownerId },
        ...(card.originCardId && isUuid(card.originCardId) ? [{ cards: { some: { cardId: card.originCardId } } }] : []),
      ],
    },
    select: { id: true },
  });
  await tx.cardMedia.createMany({
    data: shown.map((media) => ({ cardId: card.id, mediaId: media.id })),
    skipDuplicates: true,
  });
}

/** Brings a card's review items to `wanted`: those that remain keep their progress, new ones start new. */
export async function reconcileItems(
  tx: Prisma.TransactionClient,
  card: { id: string; ownerId: string; archived: boolean },
  wanted: number[],
  now: Date,
): Promise<void> {
  await tx.reviewItem.deleteMany({ where: { cardId: card.id, ordinal: { notIn: wanted } } });
  await tx.reviewItem.createMany({
    data: wanted.map((ordinal) => ({
      cardId: card.id,
      ownerId: card.ownerId,
      ordinal,
      due: now,
      archived: card.archived,
    })),
    skipDuplicates: true,
  });
}

/**
 * Archives or restores cards (of `ownerId` when given): archived cards are never due, and their review
 * items carry the flag too, so due lists and counts read items alone. Returns how many cards matched.
 */
export async function setArchived(
  tx: Prisma.TransactionClient,
  cards: { ids: string[]; ownerId?: string },
  archived: boolean,
): Promise<number> {
  if (cards.ids.length === 0) return 0;
  const owned = { ...(cards.ownerId !== undefined && { ownerId: cards.ownerId }) };
  const { count } = await tx.card.updateMany({ where: { id: { in: cards.ids }, ...owned }, data: { archived } });
  await tx.reviewItem.updateMany({ where: { cardId: { in: cards.ids }, ...owned }, data: { archived } });
  return count;
}
