// Sending what the device queued while it practised without the network (device-store.ts), in the order it was
// done: runs of reviews in batches of up to SYNC_BATCH_MAX (cards.syncReviews, each review applied once at its own
// time), an undo on its own. The server's state of each item replaces the device's; a review it could not apply
// (its card deleted or archived meanwhile, a time out of bounds) is dropped from the queue and reported once. A network
// failure leaves the rest queued for the next try. Once the queue is empty the device takes a fresh offline set
// (the learner's settings, the items due the next days) and applies again whatever was queued while it synced.

import type { MemoryStateJson } from '@engram/contracts/memory-state';
import { SYNC_BATCH_MAX, SYNC_REASONS, type SyncStatus } from '@engram/contracts/offline';
import { type DeviceState, reviewOnDevice, withServerState } from '@engram/contracts/offline-practice';
import { isFinalRefusal } from '../../lib/error-codes';
import type { DeviceStore, QueuedReview } from './device-store';

export interface SyncResult {
  reviewId: string;
  status: SyncStatus;
  item: MemoryStateJson | null;
  reason: string | null;
  message: string | null;
}

const OUT_OF_PRACTICE = new Set<string>([SYNC_REASONS.itemGone, SYNC_REASONS.cardArchived]);

/** What syncing needs of the server. */
export interface SyncApi {
  syncReviews(reviews: QueuedReview[]): Promise<{ results: SyncResult[] }>;
  undoReview(reviewId: string): Promise<unknown>;
  /** The learner's settings and a fresh offline set (with the dashboard's progress and streak as of it). */
  refresh(): Promise<Pick<DeviceState, 'settings' | 'set'>>;
}

export interface SyncOutcome {
  /** Reviews the server recorded now or had already. */
  synced: number;
  /** Reviews it could not apply, with why (the domain reason). */
  conflicts: { reviewId: string; reason: string }[];
}

/** The device's state once the queued reviews still unsent are applied again to `state` (a fresh set). */
async function withQueued(store: DeviceStore, state: DeviceState): Promise<DeviceState> {
  let next = state;
  for (const { delivery } of await store.queued()) {
    if (delivery.kind !== 'review') continue;
    const item = next.set.items.find((kept) => kept.id === delivery.review.id);
    if (item) next = reviewOnDevice(next, item, delivery.review.rating, new Date(delivery.review.reviewedAt)).state;
  }
  return next;
}

/** Sends the queue of `store` through `api`, in order; throws (the rest left queued) when the network fails. */
export async function sendQueue(store: DeviceStore, api: Omit<SyncApi, 'refresh'>): Promise<SyncOutcome> {
  const outcome: SyncOutcome = { synced: 0, conflicts: [] };
  for (;;) {
    const queued = await store.queued();
    const [first] = queued;
    if (!first) break;
    if (first.delivery.kind === 'undo') {
      try {
        await api.undoReview(first.delivery.reviewId);
      } catch (error) {
        // Refused for good (the review was never recorded, or another came after it): nothing left to undo.
        if (!isFinalRefusal(error)) throw error;
      }
      await store.dequeue([first.seq]);
      continue;
    }
    // The run of reviews up to the next undo, at most a batch of them.
    const batch: { seq: number; review: QueuedReview }[] = [];
    for (const { seq, delivery } of queued) {
      if (delivery.kind !== 'review' || batch.length === SYNC_BATCH_MAX) break;
      batch.push({ seq, review: delivery.review });
    }
    const { results } = await api.syncReviews(batch.map(({ review }) => review));
    let state = await store.state();
    results.forEach((result, n) => {
      const itemId = batch[n]?.review.id;
      if (result.status === 'conflict')
        outcome.conflicts.push({ reviewId: result.reviewId, reason: result.reason ?? '' });
      else outcome.synced += 1;
      // A card deleted or archived meanwhile leaves the device's practice.
      if (state && itemId && (result.item || OUT_OF_PRACTICE.has(result.reason ?? '')))
        state = withServerState(state, itemId, result.item);
    });
    if (state) await store.saveState(state);
    await store.dequeue(batch.map(({ seq }) => seq));
    await store.saveMeta({ lastSyncAt: new Date().toISOString() });
  }
  return outcome;
}

/** Sends the queue of `store`, then takes a fresh offline set; throws (the rest left queued) when the network fails. */
export async function syncQueue(store: DeviceStore, api: SyncApi): Promise<SyncOutcome> {
  const outcome = await sendQueue(store, api);
  const fresh = await api.refresh();
  await store.saveState(await withQueued(store, { ...fresh, reviews: [] }));
  await store.saveMeta({ lastSyncAt: new Date().toISOString() });
  return outcome;
}
