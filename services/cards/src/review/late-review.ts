// A review done before the item's latest one: two devices reviewed the same card offline, and the one that
// reviewed it first syncs last. Both reviews count, in the order they happened, on every device: the late review
// goes where its time puts it (scheduled from the state the item had then), and every review after it is
// scheduled again from the state the one before it now leaves, each at its own time; the item takes the state
// the last one gives. Each log's before and after are rewritten, so an undo of the latest review still puts back
// exactly the state before it, and each is applied again after the late one (an undo takes back the review applied
// last); the reviews whose states changed are told to other services again (ReviewRestated, sent by the caller with
// the late review's ReviewRecorded). The days the item's reviews fall on are counted again (a review's state before
// decides whether it counts as mature), under the learner's settings lock so no review counts into them meanwhile.
//
// Runs inside the locking review transaction (record-review.ts), the item row locked. Rescheduled reviews are
// not spread over days again (review/spread-review.ts): the item keeps the due date FSRS gives its last review.
import { RATINGS, type ReviewInput } from '@engram/contracts/learning';
import { gradeOf, type MemoryState, scheduleReview } from '@engram/contracts/scheduler';
import type pg from 'pg';
import { type SettingsRow, settingsOf } from '../domain/settings.js';
import {
  fromSnapshot,
  type ItemRow,
  memoryOf,
  snapshot,
  stateNumber,
  UPDATE_ITEM,
  updateItemValues,
} from './item-row.js';
import { learnerDayOf, recountReviewDays, settingsLockKey } from './review-days.js';

const NEW = 0;

// The item's reviews that count, in the order they happened.
const ITEM_LOGS = `
SELECT id, rating::int AS rating, state_before::int AS state_before, state_after::int AS state_after, reviewed_at,
  previous
FROM review_logs
WHERE item_id = $1 AND undone_at IS NULL
ORDER BY reviewed_at, seq`;

interface ItemLog {
  id: string;
  rating: number;
  state_before: number;
  state_after: number;
  reviewed_at: Date;
  previous: ReturnType<typeof snapshot>;
}

const INSERT_LOG = `
INSERT INTO review_logs (id, owner_id, item_id, card_id, rating, state_before, state_after, reviewed_at,
  duration_ms, elapsed_days, last_elapsed_days, scheduled_days, learning_step, due_after, previous, after)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`;

// Also applied after the late review: its place in the order reviews were applied (seq, the order an undo
// reads) comes after the late one's.
const RESCHEDULE_LOG = `
UPDATE review_logs SET state_before = $2, state_after = $3, elapsed_days = $4, last_elapsed_days = $5,
  scheduled_days = $6, learning_step = $7, due_after = $8, previous = $9, after = $10,
  seq = nextval(pg_get_serial_sequence('review_logs', 'seq'))
WHERE id = $1`;

// The learner's days that hold a review of the item from $3 on; each counted again from every review of theirs on it.
const ITEM_DAYS = `
SELECT DISTINCT to_char(${learnerDayOf('reviewed_at', '$1')}, 'YYYY-MM-DD') AS day
FROM review_logs WHERE item_id = $2 AND reviewed_at >= $3 AND undone_at IS NULL`;

const json = (memory: MemoryState) => JSON.stringify(snapshot(memory));

export interface PlacedReview {
  /** The item's state once every review after the late one is scheduled again. */
  after: MemoryState;
  /** The state the item had at the late review's time, and the one the late review gave it (its event tells both). */
  before: MemoryState;
  next: MemoryState;
  /** The later reviews whose states before or after changed (each one's ReviewRestated tells them). */
  restated: { reviewId: string; stateBefore: MemoryState['state']; stateAfter: MemoryState['state'] }[];
}

/** Places `input`, done at `at` (before the item's latest review), among the item's reviews. */
export async function placeLateReview(
  client: pg.PoolClient,
  ownerId: string,
  row: ItemRow & SettingsRow,
  input: ReviewInput,
  at: Date,
): Promise<PlacedReview> {
  // A change of timezone or a review counting into a day waits until the days are counted again.
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [settingsLockKey(ownerId)]);
  const settings = settingsOf(row);
  const { rows: logs } = await client.query<ItemLog>(ITEM_LOGS, [row.id]);
  const later = logs.filter((log) => log.reviewed_at > at);
  // The state the item had at `at`: the one the first later review started from (or its state now, if an
  // undo left no later review).
  const before = later[0] ? fromSnapshot(later[0].previous) : memoryOf(row);
  const late = scheduleReview(settings, before, input.rating, at);
  await client.query(INSERT_LOG, [
    input.reviewId,
    ownerId,
    row.id,
    row.card_id,
    gradeOf(input.rating),
    stateNumber(before.state),
    stateNumber(late.next.state),
    at,
    input.durationMs,
    late.log.elapsedDays,
    late.log.lastElapsedDays,
    late.log.scheduledDays,
    late.log.learningStep,
    late.next.due,
    json(before),
    json(late.next),
  ]);
  let current = late.next;
  const restated: PlacedReview['restated'] = [];
  // Whether a review came before, in the item's history as it stood: a review after one that still found the
  // item new had it reset in between, and starts again from new.
  let reviewedBefore = later.length < logs.length;
  for (const log of later) {
    const rating = RATINGS[log.rating - 1];
    if (!rating) continue;
    const from = log.state_before === NEW && reviewedBefore ? fromSnapshot(log.previous) : current;
    reviewedBefore = true;
    const again = scheduleReview(settings, from, rating, log.reviewed_at);
    await client.query(RESCHEDULE_LOG, [
      log.id,
      stateNumber(from.state),
      stateNumber(again.next.state),
      again.log.elapsedDays,
      again.log.lastElapsedDays,
      again.log.scheduledDays,
      again.log.learningStep,
      again.next.due,
      json(from),
      json(again.next),
    ]);
    if (stateNumber(from.state) !== log.state_before || stateNumber(again.next.state) !== log.state_after) {
      restated.push({ reviewId: log.id, stateBefore: from.state, stateAfter: again.next.state });
    }
    current = again.next;
  }
  await client.query(UPDATE_ITEM, updateItemValues(row.id, current));
  const { rows: days } = await client.query<{ day: string }>(ITEM_DAYS, [ownerId, row.id, at]);
  await recountReviewDays(
    client,
    ownerId,
    days.map(({ day }) => day),
  );
  return {
    after: current,
    before,
    next: late.next,
    restated,
  };
}
