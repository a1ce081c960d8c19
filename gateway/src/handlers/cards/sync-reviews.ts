// cards.syncReviews: the reviews a device did offline, sent when the network returns; each applied exactly once,
// at its own time, and answered with what became of it and the item's state after it.
import { type SyncReviewsInput, type SyncStatus, syncReviewsInput } from '@engram/contracts/offline';
import { asUser, type UserCallSettings } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type ItemState, itemStateJson } from './card-json.js';

export { syncReviewsInput };

/** A full batch applies its reviews one by one: more than a single review's deadline, still bounded. */
const SYNC_CALL: UserCallSettings = { timeoutMs: 30_000 };

export interface SyncResult {
  reviewId: string;
  status: SyncStatus;
  /** The item's state once the review is applied; null for a conflict. */
  item: ItemState | null;
  /** For a conflict: its domain reason and the message in words; null otherwise. */
  reason: string | null;
  message: string | null;
}

export async function syncReviews({ ctx, input }: HandlerArgs<SyncReviewsInput>): Promise<{ results: SyncResult[] }> {
  const { results } = await asUser(ctx).reviews.syncReviews(input, SYNC_CALL);
  return {
    results: results.map((result) => ({
      reviewId: result.reviewId,
      status: result.status as SyncStatus,
      item: result.item ? itemStateJson(result.item) : null,
      reason: result.reason || null,
      message: result.message || null,
    })),
  };
}
