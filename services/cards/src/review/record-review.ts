// Recording one review exactly once. The client's review id is the review log's key, so a retried
// review (even one racing the first) finds the log and answers the state it produced, kept in the log
// (even after later reviews of the item); the same id sent with another item or rating is refused and
// changes nothing. Concurrent reviews of one item apply one after the other and none is lost. The new
// state, the log, the study day's count and the event commit together; the day is read in that statement
// under the learner's settings lock (learner/study-days.ts), so a change of timezone cannot race it.
//
// Most reviews take the optimistic path: the item is read without a lock and its new state written by a
// single statement (item, log, day count and outbox row in one implicit transaction) on the condition
// that the row is still the version read (its xmin). Two round trips instead of a five-statement
// transaction holding a row lock. When the condition fails (a concurrent review of the same item, or a
// retry of the same review racing the first), or the review makes a leech, the review runs again as a
// transaction that locks the item first. A card archived meanwhile is refused (its items are out of practice).
//
// Reviews synced from a device, each at its own time, go their own way (sync-reviews.ts).
import { CARD_ARCHIVED_MESSAGE, REVIEW_REASONS, type ReviewInput } from '@engram/contracts/learning';
import { gradeOf, type MemoryState, nextIntervals, scheduleReview } from '@engram/contracts/scheduler';
import { inTransaction } from '@engram/kit/db';
import { Conflict, FailedPrecondition, NotFound } from '@engram/kit/errors';
import { OUTBOX_INSERT, outboxValues } from '@engram/kit/events/outbox';
import { announceOutbox } from '@engram/kit/events/outbox-announce';
import type { ReviewResponse } from '@engram/proto/cards/v1/review';
import type pg from 'pg';
import { recordReviewRecorded, reviewRecordedRow } from '../events/review-events.js';
import { cardPresetJoin } from '../learner/card-preset.js';
import { SETTINGS_COLUMNS, type SettingsRow, settingsOf } from '../learner/settings.js';
import { countReview, reviewDayOf } from '../learner/study-days.js';
import {
  fromSnapshot,
  ITEM_COLUMNS,
  type ItemRow,
  itemState,
  memoryOf,
  snapshot,
  stateNumber,
  UPDATE_ITEM,
  updateItemValues,
} from './item-row.js';
import { makesLeech, TAG_LEECHES } from './leech.js';
import { spreadReview } from './spread-review.js';

/** The review this review id already names, if any: whose, of which item and rating, and what it produced. */
interface LoggedReview {
  logged_by: string | null;
  logged_item: string | null;
  logged_rating: number | null;
  logged_after: ReturnType<typeof snapshot> | null;
  logged_lapses_before: number | null;
}

type ReadRow = ItemRow & SettingsRow & LoggedReview & { version: string; deck_id: string | null; archived: boolean };

// The item, its learner's settings with its card's preset (learner/card-preset.ts), the row's version, the
// review this review id already names and the shared deck its card is a copy of (for the event).
const READ_ITEM = (lock: string) => `
SELECT ${ITEM_COLUMNS}, ${SETTINGS_COLUMNS}, i.xmin::text AS version, i.archived,
  l.owner_id AS logged_by, l.item_id::text AS logged_item, l.rating::int AS logged_rating,
  l.after AS logged_after, (l.previous->>'lapses')::int AS logged_lapses_before,
  (SELECT c.deck_id::text FROM cards c WHERE c.id = i.card_id) AS deck_id
FROM review_items i
LEFT JOIN learner_settings s ON s.owner_id = i.owner_id
${cardPresetJoin('i.card_id', 'i.owner_id')}
LEFT JOIN review_logs l ON l.id = $3
WHERE i.id = $1 AND i.owner_id = $2 ${lock}`;

// Named, so each pooled connection plans these once.
const READ = { name: 'cards-review-read', text: READ_ITEM('') };

// Locked, the log lookup rides along with the lock: when a concurrent retry of the same review commits
// while this one waits for the lock, the lookup (from before the wait) misses it and the insert below
// hits the log's primary key instead; the review is then read again, and the second read finds the log.
const LOCK = { name: 'cards-review-lock', text: READ_ITEM('FOR UPDATE OF i') };

// $1–$11 are UPDATE_ITEM's, $12–$23 and $25 the log's, $24 the owner. The day is the learner's day of
// the review ($16), read by this statement under their settings lock.
const LOG_AND_COUNT = `
counted AS (${countReview('item', '$24', reviewDayOf('$24', '$16::timestamptz'), '$13::smallint', '$14::smallint')})
INSERT INTO review_logs (id, owner_id, item_id, card_id, rating, state_before, state_after, reviewed_at,
  duration_ms, elapsed_days, last_elapsed_days, scheduled_days, learning_step, due_after, previous, after)
SELECT $12, item.owner_id, $1, item.card_id, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $25
FROM item`;

/** Inside the locking transaction: the item is already locked, the event is enqueued separately. */
const APPLY_LOCKED = {
  name: 'cards-review-apply',
  text: `WITH item AS (${UPDATE_ITEM} RETURNING card_id, owner_id), ${LOG_AND_COUNT}`,
};

/** On its own: only if the item is still at version $26 and still the owner's; $27–$30 the event's row. */
const APPLY_IF_UNCHANGED = {
  name: 'cards-review-apply-if-unchanged',
  text: `
WITH item AS (${UPDATE_ITEM} AND owner_id = $24 AND xmin = $26::xid RETURNING card_id, owner_id),
evented AS (${OUTBOX_INSERT} SELECT ${outboxValues(27)} FROM item),
${LOG_AND_COUNT}`,
};

const LOG_KEY = 'review_logs_pkey';

const ITEM_NOT_FOUND = () => new NotFound('Review item not found.', 'ITEM_NOT_FOUND');

const CARD_ARCHIVED = () => new FailedPrecondition(CARD_ARCHIVED_MESSAGE, REVIEW_REASONS.cardArchived);

/** The answer to a review that left the item at `after`: its state, and its rating buttons' labels for when it falls due. */
function answer(row: ReadRow, after: MemoryState, leech: boolean, now: Date): ReviewResponse {
  const at = after.due > now ? after.due : now;
  return { item: itemState(after), leech, nextIntervals: nextIntervals(settingsOf(row), after, at) };
}

/** The answer of a review id already logged: what that review produced, if this request is that review. */
function loggedAnswer(row: ReadRow, ownerId: string, input: ReviewInput): ReviewResponse {
  if (row.logged_by !== ownerId) throw new Conflict('This review id was already used.', 'REVIEW_ID_USED');
  if (row.logged_item !== row.id || row.logged_rating !== gradeOf(input.rating)) {
    throw new Conflict('This review id was already used for another review.', 'REVIEW_ID_REUSED');
  }
  const after = fromSnapshot(row.logged_after!);
  return answer(row, after, makesLeech(row.logged_lapses_before ?? 0, after.lapses), new Date());
}

interface Planned {
  row: ReadRow;
  memory: MemoryState;
  next: MemoryState;
  now: Date;
  /** The statement's values $1–$25. */
  values: unknown[];
  leech: boolean;
}

/** What an already recorded review answers, or the review planned on `row` (found and the owner's) now. */
async function plan(
  db: pg.Pool | pg.PoolClient,
  row: ReadRow | undefined,
  ownerId: string,
  input: ReviewInput,
): Promise<ReviewResponse | Planned> {
  if (!row) throw ITEM_NOT_FOUND();
  if (row.logged_by !== null) return loggedAnswer(row, ownerId, input);
  if (row.archived) throw CARD_ARCHIVED();
  const memory = memoryOf(row);
  const now = new Date();
  const settings = settingsOf(row);
  const scheduled = scheduleReview(settings, memory, input.rating, now);
  const { log } = scheduled;
  // Spread within fuzz: easy days and the load of each day it may land on (review/spread-review.ts).
  const next = await spreadReview(
    db,
    { ownerId, itemId: row.id },
    settings,
    { memory, rating: input.rating, next: scheduled.next, elapsedDays: log.elapsedDays },
    now,
  );
  const values = [
    ...updateItemValues(row.id, next),
    input.reviewId,
    gradeOf(log.rating),
    stateNumber(memory.state),
    stateNumber(next.state),
    now,
    input.durationMs,
    log.elapsedDays,
    log.lastElapsedDays,
    log.scheduledDays,
    log.learningStep,
    next.due,
    JSON.stringify(snapshot(memory)),
    ownerId,
    JSON.stringify(snapshot(next)),
  ];
  const leech = makesLeech(memory.lapses, next.lapses);
  return { row, memory, next, now, values, leech };
}

function reviewEvent(
  ownerId: string,
  input: ReviewInput,
  { row, memory, next, now }: Pick<Planned, 'row' | 'memory' | 'next' | 'now'>,
) {
  return {
    reviewId: input.reviewId,
    ownerId,
    cardId: row.card_id,
    itemId: row.id,
    rating: input.rating,
    stateBefore: memory.state,
    stateAfter: next.state,
    reviewedAt: now,
    durationMs: input.durationMs,
    due: next.due,
    lapses: next.lapses,
    deckId: row.deck_id ?? '',
  };
}

/** Records `input` for `ownerId` (already validated) now, exactly once; the review handler's whole write. */
export async function recordReview(pool: pg.Pool, ownerId: string, input: ReviewInput): Promise<ReviewResponse> {
  const optimistic = await recordIfUnchanged(pool, ownerId, input);
  if (optimistic) return optimistic;
  try {
    return await recordLocked(pool, ownerId, input);
  } catch (error) {
    // A concurrent retry of this very review committed first: this attempt rolled back, the next one
    // finds the log and answers the state it produced.
    if ((error as { constraint?: string }).constraint !== LOG_KEY) throw error;
    return recordLocked(pool, ownerId, input);
  }
}

/** The optimistic path; undefined when the locking transaction must take over. */
async function recordIfUnchanged(pool: pg.Pool, ownerId: string, input: ReviewInput) {
  const read = await pool.query<ReadRow>({ ...READ, values: [input.id, ownerId, input.reviewId] });
  const planned = await plan(pool, read.rows[0], ownerId, input);
  if (!('values' in planned)) return planned;
  if (planned.leech) return undefined;
  const event = reviewRecordedRow(reviewEvent(ownerId, input, planned));
  try {
    const applied = await pool.query({
      ...APPLY_IF_UNCHANGED,
      values: [...planned.values, planned.row.version, ...event.values],
    });
    if (applied.rowCount !== 1) return undefined;
  } catch (error) {
    if ((error as { constraint?: string }).constraint === LOG_KEY) return undefined;
    throw error;
  }
  announceOutbox(pool);
  return answer(planned.row, planned.next, false, planned.now);
}

function recordLocked(pool: pg.Pool, ownerId: string, input: ReviewInput): Promise<ReviewResponse> {
  return inTransaction(pool, async (client) => {
    const locked = await client.query<ReadRow>({ ...LOCK, values: [input.id, ownerId, input.reviewId] });
    const planned = await plan(client, locked.rows[0], ownerId, input);
    if (!('values' in planned)) return planned;
    await client.query({ ...APPLY_LOCKED, values: planned.values });
    if (planned.leech) await client.query(TAG_LEECHES, [ownerId, [planned.row.card_id]]);
    await recordReviewRecorded(client, reviewEvent(ownerId, input, planned));
    return answer(planned.row, planned.next, planned.leech, planned.now);
  });
}
