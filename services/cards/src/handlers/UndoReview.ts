// UndoReview: takes back the latest review of an item. The item gets the exact state it had before
// (kept in the log), the log stays as an undone tombstone (so a late retry of that review changes
// nothing) and the event says so. Undoing twice answers the same.
import { LEECH_LAPSES, undoReviewInput } from '@engram/contracts/learning';
import { inTransaction } from '@engram/kit/db';
import { FailedPrecondition, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { UndoReviewRequest, UndoReviewResponse } from '@engram/proto/cards/v1/review';
import type { Stores } from '../db.js';
import { recordReviewUndone } from '../events/review-events.js';
import {
  fromSnapshot,
  ITEM_COLUMNS,
  type ItemRow,
  itemState,
  memoryOf,
  type snapshot,
  UPDATE_ITEM,
  updateItemValues,
} from '../review/item-row.js';
import { UNDO_AND_UNCOUNT } from '../review/review-days.js';

const FIND_LOG = `
SELECT l.item_id, l.card_id, l.previous, l.undone_at, c.deck_id::text
FROM review_logs l LEFT JOIN cards c ON c.id = l.card_id
WHERE l.id = $1 AND l.owner_id = $2`;

const LOCK_ITEM = `SELECT ${ITEM_COLUMNS} FROM review_items i WHERE i.id = $1 FOR UPDATE`;

const LATEST_REVIEW = `
SELECT id FROM review_logs WHERE item_id = $1 AND undone_at IS NULL ORDER BY reviewed_at DESC LIMIT 1`;

const UNTAG_LEECH = `
DELETE FROM card_tags ct USING tags t
WHERE ct.card_id = $1 AND ct.tag_id = t.id AND t.owner_id = $2 AND t.name_key = 'leech'`;

const REVIEW_NOT_FOUND = () => new NotFound('Review not found.', 'REVIEW_NOT_FOUND');

export function undoReview({ pool }: Stores) {
  return async (request: UndoReviewRequest, ctx: CallContext): Promise<UndoReviewResponse> => {
    const ownerId = ctx.caller.userId;
    const { reviewId } = parseInput(undoReviewInput, request);
    return inTransaction(pool, async (client) => {
      const found = await client.query<{
        item_id: string;
        card_id: string;
        previous: ReturnType<typeof snapshot>;
        undone_at: Date | null;
        deck_id: string | null;
      }>(FIND_LOG, [reviewId, ownerId]);
      const log = found.rows[0];
      if (!log) throw REVIEW_NOT_FOUND();
      const locked = await client.query<ItemRow>(LOCK_ITEM, [log.item_id]);
      const row = locked.rows[0];
      if (!row) throw REVIEW_NOT_FOUND();
      if (log.undone_at) return { id: row.id, item: itemState(memoryOf(row)) };
      const latest = await client.query<{ id: string }>(LATEST_REVIEW, [row.id]);
      if (latest.rows[0]?.id !== reviewId) {
        throw new FailedPrecondition('Only the latest review of a card can be undone.', 'UNDO_NOT_LATEST');
      }
      const current = memoryOf(row);
      const previous = fromSnapshot(log.previous);
      await client.query(UPDATE_ITEM, updateItemValues(row.id, previous));
      await client.query(UNDO_AND_UNCOUNT, [reviewId, ownerId]);
      if (current.lapses >= LEECH_LAPSES && previous.lapses < LEECH_LAPSES) {
        await client.query(UNTAG_LEECH, [log.card_id, ownerId]);
      }
      await recordReviewUndone(client, { reviewId, ownerId, itemId: row.id, deckId: log.deck_id ?? '' });
      return { id: row.id, item: itemState(previous) };
    });
  };
}
