// The signed-in learner's device as a place to practise without the network (issue 29): it keeps the next days'
// items (device-store.ts), schedules a review done offline as the server would (@engram/contracts/offline-practice),
// queues it with its real time, and syncs the queue whenever the server answers (sync.ts): at once after a review
// queued, when the browser says it is back online, at start, and after a failed try with growing waits. Then it
// takes a fresh offline set and fetches the kept cards' pictures and sounds, which the service worker keeps.
// The screens read `syncStatus` (reviews waiting, last sync) through useSyncStatus.

import type { RatingName } from '@engram/contracts/learning';
import { mediaAddressesIn } from '@engram/contracts/media-files';
import { type MemoryStateJson, memoryFromJson, memoryToJson } from '@engram/contracts/memory-state';
import type { OfflineItem } from '@engram/contracts/offline';
import { SYNC_REASONS } from '@engram/contracts/offline';
import { type Progress, progressOnDevice, type Streak, streakOnDevice } from '@engram/contracts/offline-dashboard';
import {
  type DeviceState,
  dueToday,
  intervalsOnDevice,
  reviewOnDevice,
  undoOnDevice,
  withServerState,
} from '@engram/contracts/offline-practice';
import { studyDayAround } from '@engram/contracts/study-day';
import { m } from '../../lib/i18n';
import { loadSession, refreshSession, watchSignedIn } from '../../lib/session';
import { toast } from '../../lib/toast';
import { trpcClient } from '../../lib/trpc';
import { MEDIA_CACHE } from './caches';
import { DeviceStore, type QueuedReview } from './device-store';
import { horizonDays } from './horizon';
import { forgotten } from './keep-only';
import { type SyncApi, syncQueue } from './sync';

export interface SyncStatus {
  /** Reviews done on this device that the server has not got yet. */
  waiting: number;
  /** What the device offers today, and the reviews done on it today since it last heard from the server. */
  dueToday: number;
  doneToday: number;
  lastSyncAt: string | null;
  syncing: boolean;
  /** The dashboard's progress and streak with the reviews done here (null before the server first told them). */
  progress: Progress | null;
  streak: Streak | null;
  /** The items kept for practice here, and whether they are all that are due by the horizon (null: no set yet). */
  kept: { items: number; complete: boolean } | null;
}

const NO_STATUS: SyncStatus = {
  waiting: 0,
  dueToday: 0,
  doneToday: 0,
  lastSyncAt: null,
  syncing: false,
  progress: null,
  streak: null,
  kept: null,
};

/**
 * The server, for `userId`'s device: every call first checks that `userId` is who is signed in now, so a queue is
 * never sent with another account's session (a sign-out, or a switch of account, while a retry was waiting).
 */
export function apiFor(userId: string): SyncApi {
  const asOwner =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      // The session as it has settled (a page just loaded is still asking for it).
      if ((await loadSession())?.user.id !== userId) throw new Error('not signed in as the owner of this queue');
      return call(...args);
    };
  return {
    syncReviews: asOwner((reviews) => trpcClient.cards.syncReviews.mutate({ reviews })),
    undoReview: asOwner((reviewId) => trpcClient.cards.undoReview.mutate({ reviewId })),
    refresh: asOwner(async () => {
      const [settings, set] = await Promise.all([
        trpcClient.settings.get.query(),
        trpcClient.cards.offlineSet.query({ horizonDays: horizonDays() }),
      ]);
      return { settings, set };
    }),
  };
}

const MAX_RETRY_MS = 60_000;

class Device {
  private status: SyncStatus = NO_STATUS;
  private readonly listeners = new Set<() => void>();
  private running: Promise<void> | undefined;
  private again = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private keeping: Promise<void> | undefined;
  private keepAgain = false;
  private mediaRetryTimer: ReturnType<typeof setTimeout> | undefined;
  private mediaFailures = 0;
  /** Closed (another account in use, or none): it touches its database no more. */
  private stopped = false;

  private readonly store: DeviceStore;
  private readonly api: SyncApi;

  constructor(store: DeviceStore) {
    this.store = store;
    this.api = apiFor(store.userId);
  }

  get userId(): string {
    return this.store.userId;
  }

  snapshot = (): SyncStatus => this.status;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  state(): Promise<DeviceState | undefined> {
    return this.store.state();
  }

  /** The kept items due today (those with one of `tagIds`, if given), as the due list would offer them now. */
  async dueToday(tagIds?: readonly string[]): Promise<(OfflineItem & { nextIntervals: Record<RatingName, number> })[]> {
    const state = await this.store.state();
    if (!state) return [];
    const now = new Date();
    return dueToday(state, now)
      .filter((item) => !tagIds?.length || item.tags.some((tag) => tagIds.includes(tag.id)))
      .map((item) => ({ ...item, nextIntervals: intervalsOnDevice(state, item, now) }));
  }

  /**
   * Queues a review done at `review.reviewedAt` and schedules it on the device; answers what each rating will give
   * the item when it next falls due (null if the device does not keep it).
   */
  async recordReview(review: QueuedReview): Promise<{ nextIntervals: Record<RatingName, number> | null }> {
    const state = await this.store.state();
    const item = state?.set.items.find((kept) => kept.id === review.id);
    let nextIntervals: Record<RatingName, number> | null = null;
    let before: MemoryStateJson | undefined;
    let next = state;
    if (state && item) {
      const outcome = reviewOnDevice(state, item, review.rating, new Date(review.reviewedAt));
      next = outcome.state;
      before = item.memory;
      const at = outcome.next.due > new Date() ? outcome.next.due : new Date();
      nextIntervals = intervalsOnDevice(next, { ...item, memory: memoryToJson(outcome.next) }, at);
    }
    await this.store.queueWith({ kind: 'review', review, ...(before && { before }) }, next);
    await this.update(next);
    void this.sync();
    return { nextIntervals };
  }

  /** Keeps the state the server answered a review made online with, and counts the review toward today's limits. */
  async keepServerState(review: QueuedReview, answer: MemoryStateJson): Promise<void> {
    const state = await this.store.state();
    const item = state?.set.items.find((kept) => kept.id === review.id);
    if (!state || !item) return;
    // The answer's memory state alone (the review's answer also says whether it made a leech, and the intervals).
    const memory = memoryToJson(memoryFromJson(answer));
    const kept = withServerState(state, review.id, memory);
    const next = {
      ...kept,
      reviews: [
        ...kept.reviews,
        { itemId: item.id, presetId: item.presetId, stateBefore: item.memory.state, reviewedAt: review.reviewedAt },
      ],
    };
    await this.store.saveState(next);
    await this.update(next);
  }

  /** Whether the review `reviewId` waits in this device's queue (not yet synced). */
  async isQueued(reviewId: string): Promise<boolean> {
    return (await this.store.queued()).some(
      ({ delivery }) => delivery.kind === 'review' && delivery.review.reviewId === reviewId,
    );
  }

  /** Takes back a review done on this device: the item as it was, and the server told after the review itself. */
  async recordUndo(reviewId: string): Promise<void> {
    const queued = await this.store.queued();
    const entry = queued.find(({ delivery }) => delivery.kind === 'review' && delivery.review.reviewId === reviewId);
    let state = await this.store.state();
    if (state && entry?.delivery.kind === 'review' && entry.delivery.before)
      state = undoOnDevice(state, entry.delivery.review.id, entry.delivery.review.reviewedAt, entry.delivery.before);
    await this.store.queueWith({ kind: 'undo', reviewId }, state);
    await this.update(state);
    void this.sync();
  }

  /** Syncs now (or right after the sync running now); resolves when that try ends, whatever its outcome. */
  sync(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    // Offline there is no one to ask: the browser's online event starts the next try.
    if (!navigator.onLine) return this.update();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    clearTimeout(this.retryTimer);
    this.running = (async () => {
      this.set({ syncing: true });
      try {
        const outcome = await syncQueue(this.store, this.api);
        this.failures = 0;
        for (const conflict of outcome.conflicts) announceConflict(conflict.reason);
        void this.keepMedia();
      } catch {
        this.failures += 1;
        if (!this.stopped)
          this.retryTimer = setTimeout(() => void this.sync(), Math.min(MAX_RETRY_MS, 1000 * 2 ** this.failures));
      } finally {
        this.running = undefined;
        await this.update();
        this.set({ syncing: false });
      }
      if (this.again) {
        this.again = false;
        await this.sync();
      }
    })();
    return this.running;
  }

  close(): void {
    clearTimeout(this.retryTimer);
    clearTimeout(this.mediaRetryTimer);
    this.store.close();
  }

  /**
   * Fetches the kept cards' files not yet kept, so the service worker keeps them for offline practice. A file that
   * could not be fetched (the network failing, the server busy) is tried again after a growing wait, as a sync is;
   * one run at a time, and a run asked for meanwhile runs once this one ends.
   */
  private keepMedia(): Promise<void> {
    if (this.keeping) {
      this.keepAgain = true;
      return this.keeping;
    }
    clearTimeout(this.mediaRetryTimer);
    this.keeping = (async () => {
      let missed = 0;
      try {
        missed = await this.fetchMissingMedia();
      } catch {
        missed = 1;
      } finally {
        this.keeping = undefined;
      }
      if (this.stopped) return;
      if (this.keepAgain) {
        this.keepAgain = false;
        return this.keepMedia();
      }
      this.mediaFailures = missed > 0 ? this.mediaFailures + 1 : 0;
      if (missed > 0)
        this.mediaRetryTimer = setTimeout(
          () => void this.keepMedia(),
          Math.min(MAX_RETRY_MS, 1000 * 2 ** this.mediaFailures),
        );
    })();
    return this.keeping;
  }

  /** One pass over the kept cards' files: fetches each one the media cache lacks; answers how many it still lacks. */
  private async fetchMissingMedia(): Promise<number> {
    const state = await this.store.state();
    // Only a service worker keeps what is fetched here (sw.ts); without one this would fetch them for nothing. The
    // worker a first visit installs takes the page over once active, and this runs again then (start()).
    if (!state || typeof caches === 'undefined' || !navigator.serviceWorker?.controller) return 0;
    const cache = await caches.open(MEDIA_CACHE);
    const urls = new Set(state.set.items.flatMap((item) => mediaAddressesIn(`${item.front}\n${item.back}`)));
    let missed = 0;
    for (const url of urls) {
      // Closed meanwhile (signing out): its files are being forgotten, none is fetched again.
      if (this.stopped) return 0;
      if (await cache.match(url)) continue;
      const response = await fetch(url, { credentials: 'same-origin' }).catch(() => undefined);
      // A file gone from the server (404) is not asked for again and again; a failure to reach it is.
      if (!response || response.status >= 500 || response.status === 429) missed += 1;
    }
    return missed;
  }

  /** Works the status out again; `known` is the device's state when the caller has just read or written it. */
  private async update(known?: DeviceState): Promise<void> {
    if (this.stopped) return;
    const [waiting, meta, state] = await Promise.all([
      this.store.unsyncedReviews(),
      this.store.meta(),
      known ?? this.store.state(),
    ]);
    const now = new Date();
    const dayStart = state
      ? studyDayAround(now, state.settings.timezone, state.settings.dayStartHour).start.toISOString()
      : '';
    // The progress works out what is due today too: the due list is gone through once.
    const progress = state ? progressOnDevice(state, now) : null;
    this.set({
      waiting,
      lastSyncAt: meta.lastSyncAt,
      dueToday: progress?.dueToday ?? (state ? dueToday(state, now).length : 0),
      doneToday: state?.reviews.filter((review) => review.reviewedAt >= dayStart).length ?? 0,
      progress,
      streak: state ? streakOnDevice(state, now) : null,
      kept: state ? { items: state.set.items.length, complete: state.set.complete } : null,
    });
  }

  private set(change: Partial<SyncStatus>): void {
    this.status = { ...this.status, ...change };
    for (const listener of this.listeners) listener();
  }

  async start(): Promise<void> {
    await this.update();
    window.addEventListener('online', this.onOnline);
    navigator.serviceWorker?.addEventListener('controllerchange', this.onController);
    void this.sync();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('online', this.onOnline);
    navigator.serviceWorker?.removeEventListener('controllerchange', this.onController);
    this.close();
  }

  // Back online: the session is fetched again (offline it could not be), then the queue goes.
  private onOnline = () => void refreshSession().then(() => this.sync());

  // The service worker has taken this page over (the first visit's, once installed): the files can be kept now.
  private onController = () => void this.keepMedia();
}

/** What the learner reads of a review the server did not keep: its card gone or archived, or its time refused. */
const CONFLICT_WORDS: Record<string, () => string> = {
  [SYNC_REASONS.itemGone]: m.offline_conflict_deleted,
  [SYNC_REASONS.cardArchived]: m.offline_conflict_archived,
};

function announceConflict(reason: string): void {
  toast.message((CONFLICT_WORDS[reason] ?? m.offline_conflict_refused)());
}

let current: { userId: string; device: Promise<Device> } | undefined;
let watching = false;

/** Closes the device open now, if any: it sends nothing and keeps nothing more (until deviceOf opens it again). */
export async function closeDevice(): Promise<void> {
  const open = current?.device;
  current = undefined;
  (await open?.catch(() => undefined))?.stop();
}

/**
 * The device of the signed-in `userId`: another account's is closed first, and never sends a thing again; so is this
 * one once the session is found ended or another account is in use. It opens once the offline data of accounts no
 * longer in use is forgotten (keep-only.ts).
 */
export function deviceOf(userId: string): Promise<Device> {
  if (!watching) {
    watching = true;
    watchSignedIn((signedIn) => {
      if (current && current.userId !== signedIn) void closeDevice();
    });
  }
  if (current?.userId === userId) return current.device;
  const previous = current?.device;
  const device = (async () => {
    (await previous?.catch(() => undefined))?.stop();
    await forgotten();
    const opened = new Device(await DeviceStore.open(userId));
    await opened.start();
    return opened;
  })();
  current = { userId, device };
  return device;
}

export type { Device };
export { NO_STATUS };
