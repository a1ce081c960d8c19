// Writing cards inside a transaction: a new card with its review items and tags, an edit of its type and
// text that brings the review items in line while keeping the progress of the ones that remain (an
// edited cloze keeps the FSRS state of every deletion it still has), and archiving, which the items follow.
import type { NewCard } from '@engram/contracts/cards';
import { CLOZE_PROBLEMS, cardContentProblem, reviewOrdinals } from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';
import { Invalid } from '@engram/kit/errors';
import type { Prisma } from '../generated/prisma/client.js';
import { WITH_TAGS } from './to-proto.js';

export interface CardContent {
  type: CardType;
  front: string;
  back: string;
}

/** The shared deck card a learner's card is a copy of. */
export interface DeckOrigin {
  deckId: string;
  originCardId: string;
}

export function assertContent(type: CardType, front: string): void {
  const problem = cardContentProblem(type, front);
  if (problem) throw new Invalid(CLOZE_PROBLEMS[problem], 'INVALID_CARD');
}

export async function insertCard(
  tx: Prisma.TransactionClient,
  ownerId: string,
  card: NewCard,
  now: Date,
  origin?: DeckOrigin,
) {
  assertContent(card.type, card.front);
  return tx.card.create({
    data: {
      ownerId,
      type: card.type,
      front: card.front,
      back: card.back,
      ...(origin && { deckId: origin.deckId, originCardId: origin.originCardId }),
      items: { create: reviewOrdinals(card.type, card.front).map((ordinal) => ({ ownerId, ordinal, due: now })) },
      tags: { create: [...new Set(card.tagIds)].map((tagId) => ({ tagId })) },
    },
    include: WITH_TAGS,
  });
}

/** Gives a stored card new content; its review items follow when the type or the front changed. */
export async function changeContent(
  tx: Prisma.TransactionClient,
  card: { id: string; ownerId: string; type: CardType; front: string; archived: boolean },
  next: CardContent,
  now: Date,
): Promise<void> {
  // Checked when it changes: a card saved under an older, looser rule keeps its other edits.
  const changed = next.type !== card.type || next.front !== card.front;
  if (changed) assertContent(next.type, next.front);
  await tx.card.update({ where: { id: card.id }, data: { type: next.type, front: next.front, back: next.back } });
  if (changed) await reconcileItems(tx, { ...card, ...next }, now);
}

async function reconcileItems(
  tx: Prisma.TransactionClient,
  card: { id: string; ownerId: string; type: CardType; front: string; archived: boolean },
  now: Date,
): Promise<void> {
  const wanted = reviewOrdinals(card.type, card.front);
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
