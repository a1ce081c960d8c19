// Practice anywhere (issue 29): the shapes and limits of syncing reviews done without the network. Apart from
// learning.ts, so the app's first load does not carry them.
import { type CardType, RATINGS, REVIEW_DURATION_MAX_MS, REVIEW_REASONS, uuid } from './learning.ts';
import type { MemoryStateJson } from './memory-state.ts';
import { z } from './zod.ts';

/** The learner's days a device keeps cards for, today first: by default, and at most. */
export const OFFLINE_HORIZON_DAYS = 3;
export const OFFLINE_HORIZON_DAYS_MAX = 14;

/** The most items a device keeps (the earliest due first); a learner's media is fetched for these only. */
export const OFFLINE_MAX_ITEMS = 2000;

/** cards.offlineSet: how many days ahead to keep. */
export const offlineSetInput = z
  .object({
    horizonDays: z
      .number()
      .int(`Keep from 1 to ${OFFLINE_HORIZON_DAYS_MAX} days.`)
      .min(1, `Keep from 1 to ${OFFLINE_HORIZON_DAYS_MAX} days.`)
      .max(OFFLINE_HORIZON_DAYS_MAX, `Keep from 1 to ${OFFLINE_HORIZON_DAYS_MAX} days.`)
      .optional(),
  })
  .default({});

/** The most reviews one cards.syncReviews call carries; a longer queue goes in batches of this many. */
export const SYNC_BATCH_MAX = 500;

/**
 * How far a device's clock may be off the server's and its reviews still count: a review timed this much ahead of
 * the server's clock counts as now, and one timed this much before its card was made (a card made on the server and
 * reviewed at once on a device whose clock runs slow) counts at its time. A few minutes: more would let a device
 * date a new card's reviews into the day before, and start a streak no one earned.
 */
export const SYNC_CLOCK_SKEW_MS = 5 * 60_000;

/** The oldest review a sync takes: one done more than this many days ago is refused. */
export const SYNC_MAX_AGE_DAYS = 30;

/** One review done on the device: the item, the rating, how long it took and when it happened. */
export const syncedReview = z.object({
  reviewId: uuid('Review id'),
  id: uuid('Review item id'),
  rating: z.enum(RATINGS, 'Rating must be again, hard, good or easy.'),
  durationMs: z
    .number()
    .int()
    .min(0, 'Duration must not be negative.')
    .transform((ms) => Math.min(ms, REVIEW_DURATION_MAX_MS)),
  reviewedAt: z.coerce.date('Review time must be a date and time.'),
});
export type SyncedReview = z.infer<typeof syncedReview>;

/** cards.syncReviews: up to SYNC_BATCH_MAX reviews, applied in the order they were done. */
export const syncReviewsInput = z.object({
  reviews: z
    .array(syncedReview)
    .min(1, 'Send at least one review to sync.')
    .max(SYNC_BATCH_MAX, `Send at most ${SYNC_BATCH_MAX} reviews at once.`),
});
export type SyncReviewsInput = z.infer<typeof syncReviewsInput>;

/**
 * What became of one synced review: recorded now, recorded before (a sync sent again), or not applicable (the
 * reason says why; the device drops it).
 */
export const SYNC_STATUSES = ['recorded', 'duplicate', 'conflict'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** Why a synced review was not applied (the domain reason the web app words in the user's language). */
export const SYNC_REASONS = {
  /** The card (or this direction of it) was deleted, or is not the learner's. */
  itemGone: 'ITEM_NOT_FOUND',
  /** The review time is ahead of the server's clock by more than SYNC_CLOCK_SKEW_MS. */
  inFuture: 'REVIEW_IN_FUTURE',
  /** The review was done more than SYNC_MAX_AGE_DAYS days ago. */
  tooOld: 'REVIEW_TOO_OLD',
  /** The review id names another review (another item or rating). */
  idReused: 'REVIEW_ID_REUSED',
  /** The review time is before the card was made (by more than SYNC_CLOCK_SKEW_MS): a wrong device clock. */
  beforeCard: 'REVIEW_BEFORE_CARD',
  /** The card was archived meanwhile: it is out of practice. */
  cardArchived: REVIEW_REASONS.cardArchived,
} as const;

/** A review item as practice shows it: its prompt and answer, its card and the card's tags (the due list's too). */
export interface ItemSides {
  id: string;
  cardId: string;
  type: CardType;
  ordinal: number;
  front: string;
  back: string;
  tags: { id: string; name: string }[];
  /** A note's item whose template asks for a typed answer: what is to be typed (a typed card's is its back). */
  typed?: { expected: string; ignoreAccents: boolean };
  /** A note's note type, whose styling its cards are drawn with. */
  noteTypeId?: string;
}

/** One item a device keeps: its sides, whole memory state and preset (null: the default). */
export interface OfflineItem extends ItemSides {
  memory: MemoryStateJson;
  presetId: string | null;
}

/** cards.progressMetrics' answer. */
export interface Progress {
  total: number;
  archived: number;
  new: number;
  learning: number;
  review: number;
  relearning: number;
  dueToday: number;
  reviewedToday: number;
  dailyGoal: number;
}

/** cards.streak's answer. */
export interface Streak {
  current: number;
  longest: number;
  reviewedToday: boolean;
}

/** cards.offlineSet's answer: what a device keeps to practise the next days without the network. */
export interface OfflineSet {
  generatedAt: string;
  /** Learning and review items due by the horizon's end (the earliest first), then new items in their order. */
  items: OfflineItem[];
  /** What the learner did of each preset's daily limits on the day of generatedAt (presetId null: the default). */
  doneToday: { presetId: string | null; newCards: number; reviews: number }[];
  /** The learner's items due on each of their days from today on (YYYY-MM-DD). */
  dueDays: { day: string; items: number }[];
  /** False when more were due than a device keeps (OFFLINE_MAX_ITEMS). */
  complete: boolean;
  /** The dashboard's progress and streak as of generatedAt (offline-dashboard.ts moves them on offline). */
  progress: Progress;
  streak: Streak;
  /**
   * The styling of the learner's own note types whose notes the set holds (each as the type keeps it, scoped when
   * drawn), so a note practised offline looks as it does online. Absent from sets kept before it was sent.
   */
  noteTypeStyles?: { id: string; css: string }[];
}
