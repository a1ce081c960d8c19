// UndoReview: takes back the latest review of an item. The item gets the exact state it had before
// (kept in the log), the log stays as an undone tombstone (so a late retry of that review changes
// nothing) and the event says so. Undoing twice answers the same. Concurrent undos of one item run one
// after the other under its row lock, each deciding on what the one before it committed.
import { LEECH_LAPSES, undoReviewInput } from '@engram/contracts/learning';
import { inTransaction } from '@engram/kit/db';
import { FailedPrecondition, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { UndoReviewRequest, UndoReviewResponse } from '@engram/proto/cards/v1/review';
import type { Stores } from '../db.js';
import { recordReviewUndone } from '../events/review-events.js';
import { SHARE_SETTINGS_LOCK, settingsLockKey, UNDO_AND_UNCOUNT } from '../learner/study-days.js';
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

const FIND_ITEM = 'SELECT item_id FROM review_logs WHERE id = $1 AND owner_id = $2';

const LOCK_ITEM = `SELECT ${ITEM_COLUMNS} FROM review_items i WHERE i.id = $1 FOR UPDATE`;

// Read under the item's lock, so a concurrent undo or review of the item has committed or not begun. The
// latest review is the last applied (seq, the database's order), not the one with the latest time: those
// times come from the application servers' clocks.
const READ_LOG = `
SELECT l.card_id, l.previous, l.undone_at, c.deck_id::text,
  (SELECT latest.id FROM review_logs latest WHERE latest.item_id = l.item_id AND latest.undone_at IS NULL
   ORDER BY latest.seq DESC LIMIT 1) AS latest_id
FROM review_logs l LEFT JOIN cards c ON c.id = l.card_id
WHERE l.id = $1`;

const UNTAG_LEECH = `
DELETE FROM card_tags ct USING tags t
WHERE ct.card_id = $1 AND ct.tag_id = t.id AND t.owner_id = $2 AND t.name_key = 'leech'`;

const REVIEW_NOT_FOUND = () => new NotFound('Review not found.', 'REVIEW_NOT_FOUND');

export function undoReview({ pool }: Stores) {
  return async (request: UndoReviewRequest, ctx: CallContext): Promise<UndoReviewResponse> => {
    const ownerId = ctx.caller.userId;
    const { reviewId } = parseInput(undoReviewInput, request);
    return inTransaction(pool, async (client) => {
      const found = await client.query<{ item_id: string }>(FIND_ITEM, [reviewId, ownerId]);
      if (!found.rows[0]) throw REVIEW_NOT_FOUND();
      const locked = await client.query<ItemRow>(LOCK_ITEM, [found.rows[0].item_id]);
      const row = locked.rows[0];
      if (!row) throw REVIEW_NOT_FOUND();
      // Before the day's count is read back: a change of timezone waits for this undo, or it for the change.
      await client.query(SHARE_SETTINGS_LOCK, [settingsLockKey(ownerId)]);
      const read = await client.query<{
        card_id: string;
        previous: ReturnType<typeof snapshot>;
        undone_at: Date | null;
        deck_id: string | null;
        latest_id: string | null;
      }>(READ_LOG, [reviewId]);
      const log = read.rows[0];
      if (!log) throw REVIEW_NOT_FOUND();
      const previous = fromSnapshot(log.previous);
      // Undone already (this undo sent again, or racing itself): it answers what the undo produced.
      if (log.undone_at) return { id: row.id, item: itemState(previous) };
      if (log.latest_id !== reviewId) {
        throw new FailedPrecondition('Only the latest review of a card can be undone.', 'UNDO_NOT_LATEST');
      }
      const current = memoryOf(row);
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
