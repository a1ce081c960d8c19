// Syncing the reviews a device did without the network (cards.syncReviews). Each is applied exactly once, by its
// review id, at the time it was done: the batch in the order the reviews happened, each through the review's own
// path (record-review.ts; one done before the item's latest review is placed among them, late-review.ts). A review
// the server cannot apply is a conflict with its reason, and changes nothing: its card was deleted (or is not the
// caller's), its time is ahead of the server's clock by more than a clock's skew or older than SYNC_MAX_AGE_DAYS,
// or its review id names another review. A retried sync finds each review recorded and answers it as a duplicate.
import {
  SYNC_CLOCK_SKEW_MS,
  SYNC_MAX_AGE_DAYS,
  SYNC_REASONS,
  type SyncedReview,
  type SyncReviewsInput,
} from '@engram/contracts/offline';
import { Conflict, NotFound } from '@engram/kit/errors';
import type { SyncResult, SyncReviewsResponse } from '@engram/proto/cards/v1/review';
import type pg from 'pg';
import { applyReview } from './record-review.js';

const DAY_MS = 86_400_000;

const conflict = (review: SyncedReview, reason: string, message: string): SyncResult => ({
  reviewId: review.reviewId,
  status: 'conflict',
  item: undefined,
  reason,
  message,
});

/** One review, at its time (a device clock running a little fast counts as now). */
async function syncOne(pool: pg.Pool, ownerId: string, review: SyncedReview, now: Date): Promise<SyncResult> {
  const at = review.reviewedAt;
  if (at.getTime() > now.getTime() + SYNC_CLOCK_SKEW_MS) {
    return conflict(review, SYNC_REASONS.inFuture, 'The review time is in the future; check the device clock.');
  }
  if (at.getTime() < now.getTime() - SYNC_MAX_AGE_DAYS * DAY_MS) {
    return conflict(review, SYNC_REASONS.tooOld, `Reviews older than ${SYNC_MAX_AGE_DAYS} days cannot be synced.`);
  }
  try {
    const { answer, duplicate } = await applyReview(pool, ownerId, review, at > now ? now : at);
    return {
      reviewId: review.reviewId,
      status: duplicate ? 'duplicate' : 'recorded',
      item: answer.item,
      reason: '',
      message: '',
    };
  } catch (error) {
    if (error instanceof NotFound) {
      return conflict(review, SYNC_REASONS.itemGone, 'This card was deleted, so the review could not be kept.');
    }
    if (error instanceof Conflict) {
      return conflict(review, SYNC_REASONS.idReused, 'This review id was already used for another review.');
    }
    throw error;
  }
}

/** Applies `input`'s reviews for `ownerId` in the order they were done; answers them in the order sent. */
export async function syncReviews(
  pool: pg.Pool,
  ownerId: string,
  input: SyncReviewsInput,
): Promise<SyncReviewsResponse> {
  const now = new Date();
  const byTime = input.reviews
    .map((review, index) => ({ review, index }))
    .sort((a, b) => a.review.reviewedAt.getTime() - b.review.reviewedAt.getTime() || a.index - b.index);
  const results: SyncResult[] = new Array(input.reviews.length);
  for (const { review, index } of byTime) results[index] = await syncOne(pool, ownerId, review, now);
  return { results };
}
