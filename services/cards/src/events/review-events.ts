// ReviewRecorded, ReviewRestated and ReviewUndone: written to the outbox in the transaction that changes the review
// item, so other services (progress read models) see exactly the reviews that happened, and the shared
// deck of each reviewed copy (deck_id, empty for the learner's own cards).
import { ReviewRecorded, ReviewRestated, ReviewUndone } from '@engram/contracts/events';
import { enqueueEvent, outboxRow, type SqlExecutor } from '@engram/kit/events/outbox';
import type {
  ReviewRecorded as ReviewRecordedPayload,
  ReviewRestated as ReviewRestatedPayload,
  ReviewUndone as ReviewUndonePayload,
} from '@engram/proto/events/v1/cards';
import { Actor_Kind } from '@engram/proto/events/v1/envelope';

const byLearner = (ownerId: string) => ({ actor: { kind: Actor_Kind.KIND_USER, id: ownerId } });

export function recordReviewRecorded(tx: SqlExecutor, review: ReviewRecordedPayload): Promise<string> {
  return enqueueEvent(tx, ReviewRecorded, review, byLearner(review.ownerId));
}

/** The ReviewRecorded outbox row, for a statement that inserts it itself (kit's `outboxValues`). */
export function reviewRecordedRow(review: ReviewRecordedPayload) {
  return outboxRow(ReviewRecorded, review, byLearner(review.ownerId));
}

export function recordReviewUndone(tx: SqlExecutor, undone: ReviewUndonePayload): Promise<string> {
  return enqueueEvent(tx, ReviewUndone, undone, byLearner(undone.ownerId));
}

/** The ReviewRestated outbox row, for a statement that inserts many (kit's `enqueueEventRows`). */
export function reviewRestatedRow(restated: ReviewRestatedPayload) {
  return outboxRow(ReviewRestated, restated, byLearner(restated.ownerId));
}
