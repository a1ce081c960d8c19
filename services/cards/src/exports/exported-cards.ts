// The learner's cards as an export reads them: a page at a time (by id), each with its tag names, its review
// items and its reviews that were not undone, and the files its text shows; so an export of 40,000 cards holds
// one page in memory, never the collection.
import type { EngramExportCard } from '@engram/anki/from-engram';
import type { Db } from '../db.js';
import type { Prisma } from '../generated/prisma/client.js';

const PAGE = 500;

export interface ExportedFile {
  id: string;
  name: string;
  objectKey: string;
}

export interface ExportedCard extends EngramExportCard {
  deckId: string | null;
  files: ExportedFile[];
}

/** Which of `ownerId`'s cards an export takes: all, or those with one of `tagIds`. */
export const exportedWhere = (ownerId: string, tagIds: string[]): Prisma.CardWhereInput => ({
  ownerId,
  ...(tagIds.length > 0 && { tags: { some: { tagId: { in: tagIds } } } }),
});

/** The cards, a page at a time. */
export async function* exportedCards(db: Db, ownerId: string, tagIds: string[]): AsyncGenerator<ExportedCard[]> {
  let after: string | undefined;
  for (;;) {
    const cards = await db.card.findMany({
      where: { ...exportedWhere(ownerId, tagIds), ...(after && { id: { gt: after } }) },
      orderBy: { id: 'asc' },
      take: PAGE,
      include: {
        tags: { include: { tag: { select: { name: true } } } },
        items: true,
        media: { include: { media: { select: { id: true, name: true, objectKey: true } } } },
      },
    });
    if (cards.length === 0) return;
    after = cards.at(-1)?.id;
    // By item (review_logs' index), the owner's as their cards are: by card, or with the owner, PostgreSQL scans
    // every review of the learner for each page.
    const reviews = await db.reviewLog.findMany({
      where: { itemId: { in: cards.flatMap((card) => card.items.map((item) => item.id)) }, undoneAt: null },
      orderBy: [{ reviewedAt: 'asc' }, { seq: 'asc' }],
    });
    const reviewsOf = Map.groupBy(reviews, (review) => review.cardId);
    yield cards.map((card) => {
      const ordinalOf = new Map(card.items.map((item) => [item.id, item.ordinal]));
      return {
        id: card.id,
        type: card.type,
        front: card.front,
        back: card.back,
        tags: card.tags.map((link) => link.tag.name).sort((a, b) => a.localeCompare(b)),
        archived: card.archived,
        createdAt: card.createdAt,
        updatedAt: card.updatedAt,
        guid: card.externalId?.startsWith('anki:') ? card.externalId.slice('anki:'.length) : null,
        deckId: card.deckId,
        items: card.items
          .sort((a, b) => a.ordinal - b.ordinal)
          .map((item) => ({
            ordinal: item.ordinal,
            state: item.state,
            due: item.due,
            stability: item.stability,
            difficulty: item.difficulty,
            reps: item.reps,
            lapses: item.lapses,
            lastReview: item.lastReview,
            scheduledDays: item.scheduledDays,
          })),
        reviews: (reviewsOf.get(card.id) ?? []).flatMap((review) => {
          const itemOrdinal = ordinalOf.get(review.itemId);
          if (itemOrdinal === undefined) return [];
          return [
            {
              id: review.id,
              itemOrdinal,
              reviewedAt: review.reviewedAt,
              rating: review.rating,
              durationMs: review.durationMs,
              stateBefore: review.stateBefore,
              stateAfter: review.stateAfter,
              scheduledDays: review.scheduledDays,
              elapsedDays: review.elapsedDays,
              lastElapsedDays: review.lastElapsedDays,
              dueAfter: review.dueAfter,
            },
          ];
        }),
        files: card.media.map((link) => link.media),
      };
    });
  }
}
