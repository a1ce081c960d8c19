// Reviews done before the item's latest one: two devices reviewed the same card offline, and the one that reviewed it
// first syncs last. Every review counts, in the order they happened, on every device: each late review goes where
// its time puts it (scheduled from the state the item had then), and every review after the first of them is
// scheduled again from the state the one before it now leaves, each at its own time; the item takes the state the
// last one gives. However many late reviews of the item a sync brings, its history is replayed once (sync-reviews.ts
// writes the outcome a statement per table): 50 late reviews of a card cost one replay, not 50.
//
// Each log's before and after are rewritten, so an undo of the latest review still puts back exactly the state
// before it, and each is numbered again in the order of its time (seq, the order an undo reads); the reviews whose
// states changed are told to other services again (ReviewRestated). Rescheduled reviews are not spread over days
// again (review/spread-review.ts): the item keeps the due date FSRS gives its last review.
import { RATINGS, type RatingName } from '@engram/contracts/learning';
import { type MemoryState, type ReviewOutcome, scheduleReview } from '@engram/contracts/scheduler';
import type { LearnerSettings } from '../learner/settings.js';
import { fromSnapshot, type ItemRow, memoryOf, type snapshot, stateNumber } from './item-row.js';

const NEW = 0;

/** One of the item's logged reviews that count (not undone), as the replay reads it. */
export interface StoredLog {
  id: string;
  rating: number;
  state_before: number;
  state_after: number;
  reviewed_at: Date;
  previous: ReturnType<typeof snapshot>;
}

/** A synced review to record, at its time. */
export interface TimedReview {
  reviewId: string;
  rating: RatingName;
  durationMs: number;
  at: Date;
}

/**
 * A review scheduled on the state `before`, leaving `next` (what the scheduler gave, or spread over days): a synced
 * one (`review`), or a logged one scheduled again (`stored`).
 */
export interface ScheduledLog {
  before: MemoryState;
  outcome: ReviewOutcome;
  next: MemoryState;
  review?: TimedReview;
  stored?: StoredLog;
}

export interface Replayed {
  /** The late reviews and the logged ones after the first of them, scheduled in the order of their times. */
  timeline: ScheduledLog[];
  /** The item's state once every review after the first late one is scheduled again. */
  after: MemoryState;
}

/** Whether a logged review's states before and after changed in the replay (its ReviewRestated tells them). */
export const restates = ({ stored, before, next }: ScheduledLog) =>
  stored !== undefined &&
  (stateNumber(before.state) !== stored.state_before || stateNumber(next.state) !== stored.state_after);

/**
 * Places `late` (in the order of their times, the first before the item's latest review) among the item's logged
 * reviews `history` (those that count, in the order of their times) and schedules every review from the first of
 * them on again.
 */
export function replayLate(
  settings: LearnerSettings,
  row: ItemRow,
  history: StoredLog[],
  late: TimedReview[],
): Replayed {
  const first = late[0]!.at;
  const earlier = history.filter((log) => log.reviewed_at <= first);
  const later = history.filter((log) => log.reviewed_at > first);
  // The state the item had at the first late review: the one the first later review started from (or its state
  // now, if an undo left no later review).
  let current = later[0] ? fromSnapshot(later[0].previous) : memoryOf(row);
  // Whether a logged review came before: one after it that still found the item new had it reset in between
  // (Anki's Forget), and starts again from new.
  let loggedBefore = earlier.length > 0;
  const timeline: ScheduledLog[] = [];
  let next = 0;
  for (const review of late) {
    // A logged review at the same time as a late one came first.
    for (; next < later.length && later[next]!.reviewed_at <= review.at; next += 1) {
      const stored = again(settings, later[next]!, current, loggedBefore);
      loggedBefore = true;
      if (stored) timeline.push(stored);
      current = stored?.next ?? current;
    }
    const outcome = scheduleReview(settings, current, review.rating, review.at);
    timeline.push({ before: current, outcome, next: outcome.next, review });
    current = outcome.next;
  }
  for (; next < later.length; next += 1) {
    const stored = again(settings, later[next]!, current, loggedBefore);
    loggedBefore = true;
    if (stored) timeline.push(stored);
    current = stored?.next ?? current;
  }
  return { timeline, after: current };
}

/** `log` scheduled again on `current` (or, after a reset, on the state it found); undefined for a rating unknown. */
function again(
  settings: LearnerSettings,
  log: StoredLog,
  current: MemoryState,
  loggedBefore: boolean,
): ScheduledLog | undefined {
  const rating = RATINGS[log.rating - 1];
  if (!rating) return undefined;
  const before = log.state_before === NEW && loggedBefore ? fromSnapshot(log.previous) : current;
  const outcome = scheduleReview(settings, before, rating, log.reviewed_at);
  return { before, outcome, next: outcome.next, stored: log };
}
