// A learner's review log as the FSRS optimizer reads it, the way Anki and fsrs-rs build it. Each review item's
// reviews, in order, give one training item per review on a later day than the one before it: the reviews up to
// it, each with the days since the one before. Days are the learner's study days (their timezone, from their
// day-start hour), as their due lists count them: a review at 1 am belongs to the day before, and two reviews on
// one study day are 0 days apart (a learning or relearning step). A step is part of the history the later
// reviews are predicted from, but is not itself a review to predict: fsrs-rs refuses an item with no review a
// day or more after the one before (it panics, which aborts the process), and Anki leaves such items out too.
// Left out as well: reviews that were undone, anything not rated 1–4, and what came before an item last started
// as new (a card that was reset starts its history again). An item whose history does not start as new
// (imported without its first learning) teaches nothing about first ratings and is left out whole.

import { studyDayOf } from '@engram/contracts/study-day';
import { FSRSBindingItem, FSRSBindingReview } from '@open-spaced-repetition/binding';

/** What the optimizer needs of one review_logs row. */
export interface LoggedReview {
  itemId: string;
  /** 1 again … 4 easy. */
  rating: number;
  /** The item's state before the review: 0 new, 1 learning, 2 review, 3 relearning. */
  stateBefore: number;
  reviewedAt: Date;
  /** Undone by the learner: it never happened. */
  undone: boolean;
}

export interface LearnerDay {
  timeZone: string;
  dayStartHour: number;
}

/** One review to predict, with the history before it, and when it happened (for a split by time). */
export interface TrainingItem {
  item: FSRSBindingItem;
  reviewedAt: Date;
}

const DAY_MS = 86_400_000;
const NEW = 0;

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

// Every timezone's offset, and every change of it, is a whole number of quarter hours, and a day starts on the
// hour: the study day is the same throughout each quarter hour of UTC. A learner reviews in sittings, so one
// lookup (Intl, about 17 µs) serves many reviews.
const QUARTER_HOUR_MS = 900_000;

function studyDays(day: LearnerDay) {
  const known = new Map<number, string>();
  return (instant: Date): string => {
    const quarter = Math.floor(instant.getTime() / QUARTER_HOUR_MS);
    let found = known.get(quarter);
    if (found === undefined) {
      found = studyDayOf(new Date(quarter * QUARTER_HOUR_MS), day.timeZone, day.dayStartHour);
      known.set(quarter, found);
    }
    return found;
  };
}

/**
 * The reviews of one item (in order) from its last start as new, or nothing when it never started as new here: what
 * the optimizer learns from, and what rescheduling replays (presets/reschedule.ts).
 */
export function fromLastStart<Review extends { stateBefore: number }>(reviews: Review[]): Review[] {
  for (let index = reviews.length - 1; index >= 0; index -= 1)
    if (reviews[index]?.stateBefore === NEW) return reviews.slice(index);
  return [];
}

/** The training items of a learner's reviews (any order), oldest review first. */
export function trainingItems(reviews: Iterable<LoggedReview>, day: LearnerDay): TrainingItem[] {
  const byItem = new Map<string, LoggedReview[]>();
  for (const review of reviews) {
    if (review.undone || !Number.isInteger(review.rating) || review.rating < 1 || review.rating > 4) continue;
    const list = byItem.get(review.itemId);
    if (list) list.push(review);
    else byItem.set(review.itemId, [review]);
  }
  const items: TrainingItem[] = [];
  const studyDay = studyDays(day);
  for (const list of byItem.values()) {
    list.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
    const history = fromLastStart(list);
    const bindingReviews: FSRSBindingReview[] = [];
    let previousDay: string | undefined;
    for (const review of history) {
      const reviewDay = studyDay(review.reviewedAt);
      const daysSince = previousDay ? daysBetween(previousDay, reviewDay) : 0;
      bindingReviews.push(new FSRSBindingReview(review.rating, daysSince));
      previousDay = reviewDay;
      if (daysSince > 0) items.push({ item: new FSRSBindingItem([...bindingReviews]), reviewedAt: review.reviewedAt });
    }
  }
  return items.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
}
