// Reviews done without the network wait on the device, in the order they were done, and go to the server when it
// answers again: in batches, each once, undos after the reviews before them; what the server stored replaces the
// device's state, a card deleted or archived meanwhile leaves the device, and a failed try leaves the rest for the next one.
// Each account on the device has its own queue. (IndexedDB here is fake-indexeddb, a complete implementation.)
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { memoryToJson, newMemoryState } from '@engram/contracts/memory-state';
import type { OfflineItem } from '@engram/contracts/offline';
import { type DeviceState, reviewOnDevice } from '@engram/contracts/offline-practice';
import { describe, expect, it } from 'vitest';
import { DeviceStore, type QueuedReview } from '../../src/entities/offline/device-store.ts';
import { type SyncApi, type SyncResult, syncQueue } from '../../src/entities/offline/sync.ts';

const SETTINGS = {
  timezone: 'Europe/Lisbon',
  dayStartHour: 4,
  maximumIntervalDays: 36_500,
  learningSteps: ['1m', '10m'],
  relearningSteps: ['10m'],
  fuzz: true,
  easyDays: [1, 1, 1, 1, 1, 1, 1],
  loadBalance: true,
  presets: [],
};

const item = (n: number): OfflineItem => ({
  id: randomUUID(),
  cardId: randomUUID(),
  type: 'basic',
  ordinal: 0,
  front: `Q${n}`,
  back: `A${n}`,
  tags: [],
  memory: memoryToJson(newMemoryState(new Date('2026-11-20T10:00:00Z'))),
  presetId: null,
});

function deviceWith(count: number): DeviceState {
  return {
    settings: SETTINGS,
    set: {
      generatedAt: new Date().toISOString(),
      items: Array.from({ length: count }, (_, n) => item(n)),
      doneToday: [],
      dueDays: [],
      complete: true,
      progress: {
        total: count,
        archived: 0,
        new: count,
        learning: 0,
        review: 0,
        relearning: 0,
        dueToday: count,
        reviewedToday: 0,
        dailyGoal: 20,
      },
      streak: { current: 0, longest: 0, reviewedToday: false },
    },
    reviews: [],
  };
}

const review = (itemId: string, minutesAgo: number): QueuedReview => ({
  reviewId: randomUUID(),
  id: itemId,
  rating: 'good',
  durationMs: 1000,
  reviewedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
});

/** A server that records every review it is sent, and answers a fresh set of `fresh` items. */
function server(fresh = deviceWith(0)) {
  const calls: string[] = [];
  const stored = new Map<string, QueuedReview>();
  const api: SyncApi & { calls: string[]; stored: Map<string, QueuedReview> } = {
    calls,
    stored,
    async syncReviews(reviews) {
      calls.push(`sync ${reviews.length}`);
      return {
        results: reviews.map((sent): SyncResult => {
          const status = stored.has(sent.reviewId) ? 'duplicate' : 'recorded';
          stored.set(sent.reviewId, sent);
          const memory = memoryToJson({ ...newMemoryState(new Date(sent.reviewedAt)), state: 'learning', reps: 1 });
          return { reviewId: sent.reviewId, status, item: memory, reason: null, message: null };
        }),
      };
    },
    async undoReview(reviewId) {
      calls.push(`undo ${reviewId}`);
    },
    async refresh() {
      calls.push('refresh');
      return { settings: fresh.settings, set: fresh.set };
    },
  };
  return api;
}

async function queueReviews(store: DeviceStore, reviews: QueuedReview[]) {
  for (const queued of reviews) await store.queueWith({ kind: 'review', review: queued }, (await store.state())!);
}

describe('syncing what the device queued', () => {
  it('sends 1,001 queued reviews in three requests, in the order they were done, and empties the queue', async () => {
    const store = await DeviceStore.open(`batches-${randomUUID()}`);
    const device = deviceWith(1);
    await store.saveState(device);
    const reviews = Array.from({ length: 1001 }, (_, n) => review(device.set.items[0]!.id, 2000 - n));
    await queueReviews(store, reviews);
    expect(await store.unsyncedReviews()).toBe(1001);
    const api = server();
    expect(await syncQueue(store, api)).toEqual({ synced: 1001, conflicts: [] });
    expect(api.calls).toEqual(['sync 500', 'sync 500', 'sync 1', 'refresh']);
    expect([...api.stored.keys()]).toEqual(reviews.map((sent) => sent.reviewId));
    expect(await store.queued()).toEqual([]);
    expect((await store.meta()).lastSyncAt).not.toBeNull();
  });

  it('sends an undo after the reviews before it and before those after it', async () => {
    const store = await DeviceStore.open(`undo-${randomUUID()}`);
    const device = deviceWith(2);
    await store.saveState(device);
    const [first, second] = [review(device.set.items[0]!.id, 3), review(device.set.items[1]!.id, 1)];
    await store.queueWith({ kind: 'review', review: first }, device);
    await store.queueWith({ kind: 'undo', reviewId: first.reviewId }, device);
    await store.queueWith({ kind: 'review', review: second }, device);
    const api = server();
    await syncQueue(store, api);
    expect(api.calls).toEqual(['sync 1', `undo ${first.reviewId}`, 'sync 1', 'refresh']);
  });

  it('leaves the rest queued when the network fails, and a retry sends each review once', async () => {
    const store = await DeviceStore.open(`network-${randomUUID()}`);
    const device = deviceWith(1);
    await store.saveState(device);
    await queueReviews(
      store,
      Array.from({ length: 600 }, (_, n) => review(device.set.items[0]!.id, 700 - n)),
    );
    const api = server();
    const reachable = api.syncReviews;
    let tries = 0;
    api.syncReviews = async (reviews) => {
      tries += 1;
      if (tries === 2) throw new TypeError('Failed to fetch');
      return reachable(reviews);
    };
    await expect(syncQueue(store, api)).rejects.toThrow('Failed to fetch');
    expect(await store.unsyncedReviews()).toBe(100);
    await syncQueue(store, api);
    expect(api.stored.size).toBe(600);
    expect(await store.unsyncedReviews()).toBe(0);
  });

  it('keeps the state the server stored for each item, and drops a card deleted or archived meanwhile, saying so', async () => {
    const store = await DeviceStore.open(`conflict-${randomUUID()}`);
    const device = deviceWith(3);
    const [kept, deleted, archived] = device.set.items as [OfflineItem, OfflineItem, OfflineItem];
    // What the device scheduled for the kept card.
    const rated = reviewOnDevice(device, kept, 'good', new Date(Date.now() - 60_000)).state;
    await store.saveState(rated);
    const api = server(rated);
    const answer = api.syncReviews;
    api.syncReviews = async (reviews) => {
      const { results } = await answer(reviews);
      return {
        results: results.map((result, n) => {
          const reason = { [deleted.id]: 'ITEM_NOT_FOUND', [archived.id]: 'CARD_ARCHIVED' }[reviews[n]!.id];
          return reason ? { ...result, status: 'conflict' as const, item: null, reason, message: 'gone' } : result;
        }),
      };
    };
    // The refresh answers nothing new here, so what the sync kept is what remains.
    api.refresh = async () => ({ settings: SETTINGS, set: (await store.state())!.set });
    const keptReview = review(kept.id, 1);
    const deletedReview = review(deleted.id, 0);
    const archivedReview = review(archived.id, 0);
    await queueReviews(store, [keptReview, deletedReview, archivedReview]);
    const outcome = await syncQueue(store, api);
    expect(outcome).toEqual({
      synced: 1,
      conflicts: [
        { reviewId: deletedReview.reviewId, reason: 'ITEM_NOT_FOUND' },
        { reviewId: archivedReview.reviewId, reason: 'CARD_ARCHIVED' },
      ],
    });
    const after = (await store.state())!;
    expect(after.set.items.map((left) => left.id)).toEqual([kept.id]);
    expect(after.set.items[0]!.memory).toMatchObject({ state: 'learning', reps: 1, lastReview: null });
  });

  it("keeps each account's queue apart: one signed in next never sees, let alone sends, another's", async () => {
    const ana = await DeviceStore.open(`ana-${randomUUID()}`);
    const bruno = await DeviceStore.open(`bruno-${randomUUID()}`);
    const device = deviceWith(1);
    await ana.saveState(device);
    await queueReviews(ana, [review(device.set.items[0]!.id, 1)]);
    expect(await bruno.queued()).toEqual([]);
    expect(await bruno.state()).toBeUndefined();
    expect(await ana.unsyncedReviews()).toBe(1);
  });
});
