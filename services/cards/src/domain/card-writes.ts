// Writing cards inside a transaction: a new card with its review items and tags, and the review items
// of an edited card brought in line with its type and text while keeping the progress of the ones
// that remain (an edited cloze keeps the FSRS state of every deletion it still has).
import type { NewCard } from '@engram/contracts/cards';
import type { CardType } from '@engram/contracts/learning';
import { Invalid } from '@engram/kit/errors';
import type { Prisma } from '../generated/prisma/client.js';
import { WITH_TAGS } from '../handlers/to-proto.js';
import { contentProblem, reviewOrdinals } from './card-content.js';

export function assertContent(type: CardType, front: string): void {
  const problem = contentProblem(type, front);
  if (problem) throw new Invalid(problem, 'INVALID_CARD');
}

export async function insertCard(tx: Prisma.TransactionClient, ownerId: string, card: NewCard, now: Date) {
  assertContent(card.type, card.front);
  return tx.card.create({
    data: {
      ownerId,
      type: card.type,
      front: card.front,
      back: card.back,
      items: { create: reviewOrdinals(card.type, card.front).map((ordinal) => ({ ownerId, ordinal, due: now })) },
      tags: { create: [...new Set(card.tagIds)].map((tagId) => ({ tagId })) },
    },
    include: WITH_TAGS,
  });
}

export async function reconcileItems(
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
