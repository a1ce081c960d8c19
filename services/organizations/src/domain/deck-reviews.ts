// The reviews of deck copies that progress is counted from (cards' ReviewRecorded, kept in deck_reviews). A review
// counts for a deck's organization only when its reviewer is a member of it: a member (in the roster identity's
// events keep) as the review is applied, who joined before the review was done. The copies of someone who left, or
// a review a device dates before its reviewer joined, add nothing to anyone's progress. A device's clock may run a
// little slow, as cards allows when it syncs (SYNC_CLOCK_SKEW_MS).
import { SYNC_CLOCK_SKEW_MS } from '@engram/contracts/offline';
import type { ReviewRecorded } from '@engram/proto/events/v1/cards';
import type { Prisma } from '../db.js';

type Tx = Prisma.TransactionClient;

/** Whether `userId` is a member of `organizationId` who had joined by `at`. */
async function memberAt(tx: Tx, organizationId: string, userId: string, at: Date): Promise<boolean> {
  const member = await tx.member.findUnique({
    where: { organizationId_userId: { organizationId, userId } },
    select: { joinedAt: true },
  });
  return member !== null && member.joinedAt.getTime() <= at.getTime() + SYNC_CLOCK_SKEW_MS;
}

/** Keeps `review` (of a copy of its deck) for progress, if its deck is there and its reviewer a member then. */
export async function recordDeckReview(tx: Tx, review: ReviewRecorded): Promise<void> {
  const deck = await tx.deck.findUnique({ where: { id: review.deckId }, select: { organizationId: true } });
  if (!deck) return;
  const reviewedAt = review.reviewedAt ?? new Date();
  if (!(await memberAt(tx, deck.organizationId, review.ownerId, reviewedAt))) return;
  await tx.deckReview.createMany({
    data: [
      {
        reviewId: review.reviewId,
        deckId: review.deckId,
        userId: review.ownerId,
        cardId: review.cardId,
        itemId: review.itemId,
        rating: review.rating,
        stateBefore: review.stateBefore,
        stateAfter: review.stateAfter,
        reviewedAt,
      },
    ],
    skipDuplicates: true,
  });
}
