// Recording one review exactly once. The item's row is locked, so concurrent reviews of one item
// apply one after the other and none is lost; the client's review id is the review log's key, so a
// retried review (even one racing the first) finds the log and answers the state it produced. The new
// state, the log and the event commit together.
import { LEECH_LAPSES, type ReviewInput } from '@engram/contracts/learning';
import { inTransaction } from '@engram/kit/db';
import { Conflict, NotFound } from '@engram/kit/errors';
import type { ReviewResponse } from '@engram/proto/cards/v1/review';
import type pg from 'pg';
import { gradeOf, scheduleReview } from '../domain/scheduler.js';
import { SETTINGS_COLUMNS, type SettingsRow, settingsOf } from '../domain/settings.js';
import { studyDayOf } from '../domain/study-day.js';
import { recordReviewRecorded } from '../events/review-events.js';
import {
  ITEM_COLUMNS,
  type ItemRow,
  itemState,
  memoryOf,
  snapshot,
  stateNumber,
  UPDATE_ITEM,
  updateItemValues,
} from './item-row.js';
import { countReview } from './review-days.js';

// Named, so each pooled connection plans these once. The log lookup rides along with the lock: when a
// concurrent retry of the same review commits while this one waits for the lock, the lookup (from
// before the wait) misses it and the insert below hits the log's primary key instead; the review is
// then read again, and the second read finds the log.
const LOCK_ITEM = {
  name: 'cards-review-lock',
  text: `
SELECT ${ITEM_COLUMNS}, ${SETTINGS_COLUMNS}, (SELECT l.owner_id FROM review_logs l WHERE l.id = $3) AS logged_by
FROM review_items i
LEFT JOIN learner_settings s ON s.owner_id = i.owner_id
WHERE i.id = $1 AND i.owner_id = $2
FOR UPDATE OF i`,
};

// The item's new state, its log and its study day's count in one statement: $1–$11 are UPDATE_ITEM's,
// $12–$23 the log's, $24 the owner and $25 the learner's day of the review.
const APPLY = {
  name: 'cards-review-apply',
  text: `
WITH item AS (${UPDATE_ITEM} RETURNING card_id, owner_id),
counted AS (${countReview('$24', '$25::date', '$13::smallint', '$14::smallint')})
INSERT INTO review_logs (id, owner_id, item_id, card_id, rating, state_before, state_after, reviewed_at,
  duration_ms, elapsed_days, last_elapsed_days, scheduled_days, learning_step, due_after, previous)
SELECT $12, item.owner_id, $1, item.card_id, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23 FROM item`,
};

const LOG_KEY = 'review_logs_pkey';

const TAG_LEECH = `
WITH tag AS (
  INSERT INTO tags (id, owner_id, name, name_key) VALUES (gen_random_uuid(), $1, 'leech', 'leech')
  ON CONFLICT (owner_id, name_key) DO UPDATE SET name = tags.name
  RETURNING id
)
INSERT INTO card_tags (card_id, tag_id) SELECT $2, id FROM tag ON CONFLICT DO NOTHING`;

const ITEM_NOT_FOUND = () => new NotFound('Review item not found.', 'ITEM_NOT_FOUND');

/** Records `input` for `ownerId` (already validated); the review handler's whole transaction. */
export async function recordReview(pool: pg.Pool, ownerId: string, input: ReviewInput): Promise<ReviewResponse> {
  try {
    return await attempt(pool, ownerId, input);
  } catch (error) {
    // A concurrent retry of this very review committed first: this attempt rolled back, the next one
    // finds the log and answers the state it produced.
    if ((error as { constraint?: string }).constraint !== LOG_KEY) throw error;
    return attempt(pool, ownerId, input);
  }
}

function attempt(pool: pg.Pool, ownerId: string, input: ReviewInput): Promise<ReviewResponse> {
  return inTransaction(pool, async (client) => {
    const locked = await client.query<ItemRow & SettingsRow & { logged_by: string | null }>({
      ...LOCK_ITEM,
      values: [input.id, ownerId, input.reviewId],
    });
    const row = locked.rows[0];
    if (!row) throw ITEM_NOT_FOUND();
    const memory = memoryOf(row);
    if (row.logged_by !== null) {
      if (row.logged_by !== ownerId) throw new Conflict('This review id was already used.', 'REVIEW_ID_USED');
      return { item: itemState(memory), leech: false };
    }
    const now = new Date();
    const settings = settingsOf(row);
    const { next, log } = scheduleReview(settings, memory, input.rating, now);
    await client.query({
      ...APPLY,
      values: [
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
        studyDayOf(now, settings.timezone, settings.dayStartHour),
      ],
    });
    const leech = memory.lapses < LEECH_LAPSES && next.lapses >= LEECH_LAPSES;
    if (leech) await client.query(TAG_LEECH, [ownerId, row.card_id]);
    await recordReviewRecorded(client, {
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
    });
    return { item: itemState(next), leech };
  });
}
