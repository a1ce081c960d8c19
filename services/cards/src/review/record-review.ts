// Recording one review exactly once. The item's row is locked, so concurrent reviews of one item
// apply one after the other and none is lost; the client's review id is the review log's key, so a
// retried review (even one racing the first) finds the log and answers the state it produced. The new
// state, the log and the event commit together.
import { LEECH_LAPSES, type ReviewInput } from '@engram/contracts/learning';
import { Conflict, NotFound } from '@engram/kit/errors';
import type { ReviewResponse } from '@engram/proto/cards/v1/review';
import type pg from 'pg';
import { gradeOf, scheduleReview } from '../domain/scheduler.js';
import { SETTINGS_COLUMNS, type SettingsRow, settingsOf } from '../domain/settings.js';
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
import { inTransaction } from './transaction.js';

const LOCK_ITEM = `
SELECT ${ITEM_COLUMNS}, ${SETTINGS_COLUMNS}
FROM review_items i
LEFT JOIN learner_settings s ON s.owner_id = i.owner_id
WHERE i.id = $1 AND i.owner_id = $2
FOR UPDATE OF i`;

// A separate statement after the lock: it sees a log committed by a concurrent retry we waited for.
const FIND_LOG = 'SELECT owner_id FROM review_logs WHERE id = $1';

const INSERT_LOG = `
INSERT INTO review_logs (id, owner_id, item_id, card_id, rating, state_before, state_after, reviewed_at,
  duration_ms, elapsed_days, last_elapsed_days, scheduled_days, learning_step, due_after, previous)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`;

const TAG_LEECH = `
WITH tag AS (
  INSERT INTO tags (id, owner_id, name, name_key) VALUES (gen_random_uuid(), $1, 'leech', 'leech')
  ON CONFLICT (owner_id, name_key) DO UPDATE SET name = tags.name
  RETURNING id
)
INSERT INTO card_tags (card_id, tag_id) SELECT $2, id FROM tag ON CONFLICT DO NOTHING`;

const ITEM_NOT_FOUND = () => new NotFound('Review item not found.', 'ITEM_NOT_FOUND');

/** Records `input` for `ownerId` (already validated); the review handler's whole transaction. */
export function recordReview(pool: pg.Pool, ownerId: string, input: ReviewInput): Promise<ReviewResponse> {
  return inTransaction(pool, async (client) => {
    const locked = await client.query<ItemRow & SettingsRow>(LOCK_ITEM, [input.id, ownerId]);
    const row = locked.rows[0];
    if (!row) throw ITEM_NOT_FOUND();
    const memory = memoryOf(row);
    const earlier = await client.query<{ owner_id: string }>(FIND_LOG, [input.reviewId]);
    if (earlier.rows[0]) {
      if (earlier.rows[0].owner_id !== ownerId)
        throw new Conflict('This review id was already used.', 'REVIEW_ID_USED');
      return { item: itemState(memory), leech: false };
    }
    const now = new Date();
    const settings = settingsOf(row);
    const { next, log } = scheduleReview(settings, memory, input.rating, now);
    await client.query(UPDATE_ITEM, updateItemValues(row.id, next));
    await client.query(INSERT_LOG, [
      input.reviewId,
      ownerId,
      row.id,
      row.card_id,
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
    ]);
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
