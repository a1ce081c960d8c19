// Syncing the reviews a device did without the network (cards.syncReviews). Each is applied exactly once, by its
// review id, at the time it was done: the batch in the order the reviews happened, in one transaction that reads and
// writes a statement per table for the whole batch (sync-read.ts, sync-plan.ts, sync-writes.ts); the reviews of an
// item done before its latest one are placed among its reviews in one replay of its history (late-review.ts).
//
// A review the server cannot apply is a conflict with its reason and words, and changes nothing: its card was
// deleted (or is not the caller's) or archived; its time is ahead of the server's clock by more than a clock's skew,
// older than SYNC_MAX_AGE_DAYS, or before its card was made (by more than a clock's skew: no review, and no streak,
// predates the card); or its review id names another review. A retried sync finds each review recorded and answers
// it as a duplicate.
import {
  SYNC_CLOCK_SKEW_MS,
  SYNC_MAX_AGE_DAYS,
  SYNC_REASONS,
  type SyncedReview,
  type SyncReviewsInput,
} from '@engram/contracts/offline';
import { gradeOf } from '@engram/contracts/scheduler';
import { inTransaction } from '@engram/kit/db';
import type { SyncResult, SyncReviewsResponse } from '@engram/proto/cards/v1/review';
import type pg from 'pg';
import { fromSnapshot, itemState } from './item-row.js';
import { type Accepted, planSync } from './sync-plan.js';
import { type LoggedReview, lockItems, loggedReviews, type SyncedItem } from './sync-read.js';
import { writeSynced } from './sync-writes.js';

const DAY_MS = 86_400_000;
const LOG_KEY = 'review_logs_pkey';

const REFUSALS = {
  inFuture: 'The review time is in the future; check the device clock.',
  tooOld: `Reviews older than ${SYNC_MAX_AGE_DAYS} days cannot be synced.`,
  itemGone: 'This card was deleted, so the review could not be kept.',
  cardArchived: 'This card was archived, so the review could not be kept.',
  beforeCard: 'The review time is before this card was made; check the device clock.',
  idReused: 'This review id was already used for another review.',
} satisfies Partial<Record<keyof typeof SYNC_REASONS, string>>;

type Refusal = keyof typeof REFUSALS;

const conflict = (review: SyncedReview, why: Refusal): SyncResult => ({
  reviewId: review.reviewId,
  status: 'conflict',
  item: undefined,
  reason: SYNC_REASONS[why],
  message: REFUSALS[why],
});

/** Why `review` cannot count at its time (a device clock running a little fast counts as now), if it cannot. */
function untimely(review: SyncedReview, now: Date): Refusal | undefined {
  const at = review.reviewedAt.getTime();
  if (at > now.getTime() + SYNC_CLOCK_SKEW_MS) return 'inFuture';
  if (at < now.getTime() - SYNC_MAX_AGE_DAYS * DAY_MS) return 'tooOld';
  return undefined;
}

/** Whether `logged` is this very review (of the caller, the same item and rating), sent again. */
const sameReview = (logged: LoggedReview, ownerId: string, review: SyncedReview) =>
  logged.owner_id === ownerId && logged.item_id === review.id && logged.rating === gradeOf(review.rating);

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
  const timely = byTime.filter(({ review, index }) => {
    const why = untimely(review, now);
    if (why) results[index] = conflict(review, why);
    return !why;
  });
  if (timely.length === 0) return { results };
  const apply = () => inTransaction(pool, (client) => applyBatch(client, ownerId, timely, now, results));
  try {
    await apply();
  } catch (error) {
    // A sync running at the same time logged one of these review ids for another card first: this one rolled back,
    // and sent again it finds that log and answers it.
    if ((error as { constraint?: string }).constraint !== LOG_KEY) throw error;
    await apply();
  }
  return { results };
}

/** Applies the reviews of `timely` (in the order done) that can be applied, answering each in `results`. */
async function applyBatch(
  client: pg.PoolClient,
  ownerId: string,
  timely: { review: SyncedReview; index: number }[],
  now: Date,
  results: SyncResult[],
): Promise<void> {
  const items = await lockItems(client, ownerId, [...new Set(timely.map(({ review }) => review.id))]);
  const logged = await loggedReviews(client, [...new Set(timely.map(({ review }) => review.reviewId))]);
  const accepted: Accepted[] = [];
  // The reviews of this batch by review id, so one sent twice in it counts once.
  const taken = new Map<string, Accepted>();
  const repeats: { review: SyncedReview; index: number; first: number }[] = [];
  for (const { review, index } of timely) {
    const row = items.get(review.id);
    const before = logged.get(review.reviewId);
    const first = taken.get(review.reviewId);
    if (!row) results[index] = conflict(review, 'itemGone');
    else if (before) results[index] = answered(review, before, ownerId);
    else if (first) {
      const same = first.row.id === row.id && first.review.rating === review.rating;
      if (same) repeats.push({ review, index, first: first.index });
      else results[index] = conflict(review, 'idReused');
    } else {
      const why = refusedFor(row, review);
      if (why) results[index] = conflict(review, why);
      else {
        const at = review.reviewedAt > now ? now : review.reviewedAt;
        const one = { index, row, review: { ...review, at } };
        accepted.push(one);
        taken.set(review.reviewId, one);
      }
    }
  }
  if (accepted.length === 0) return;
  const plan = await planSync(client, ownerId, accepted);
  await writeSynced(client, ownerId, plan.items);
  for (const { review, index } of accepted) results[index] = recorded(review.reviewId, 'recorded', plan.answers, index);
  for (const { review, index, first } of repeats)
    results[index] = recorded(review.reviewId, 'duplicate', plan.answers, first);
}

/** Why `review` cannot count for the item `row`: its card archived, or its time before the card was made. */
function refusedFor(row: SyncedItem, review: SyncedReview): Refusal | undefined {
  if (row.archived) return 'cardArchived';
  if (review.reviewedAt.getTime() < row.card_created_at.getTime() - SYNC_CLOCK_SKEW_MS) return 'beforeCard';
  return undefined;
}

/** The answer to a review id already logged: what that review produced, if this is that review. */
function answered(review: SyncedReview, logged: LoggedReview, ownerId: string): SyncResult {
  if (!sameReview(logged, ownerId, review)) return conflict(review, 'idReused');
  return {
    reviewId: review.reviewId,
    status: 'duplicate',
    item: itemState(fromSnapshot(logged.after)),
    reason: '',
    message: '',
  };
}

function recorded(
  reviewId: string,
  status: 'recorded' | 'duplicate',
  answers: Map<number, ReturnType<typeof fromSnapshot>>,
  index: number,
): SyncResult {
  return { reviewId, status, item: itemState(answers.get(index)!), reason: '', message: '' };
}
