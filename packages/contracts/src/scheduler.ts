// Scheduling one review with FSRS-6 (ts-fsrs): the learner's settings become FSRS parameters, and a
// review item's memory state plus a rating become its next state and the review log. No I/O here.

import { default_w, type FSRS, fsrs, type Grade, generatorParameters, type StepUnit } from 'ts-fsrs';
import type { RatingName, ReviewState } from './learning.ts';
import { RATINGS } from './learning.ts';
import { fromFsrsCard, type MemoryState, toFsrsCard } from './memory-state.ts';

export { type MemoryState, newMemoryState, toFsrsCard } from './memory-state.ts';

/** FSRS-6's parameters for everyone, until a learner's own are fitted and adopted. */
export const DEFAULT_PARAMETERS: readonly number[] = Object.freeze([...default_w]);

export interface SchedulingSettings {
  desiredRetention: number;
  /** FSRS-6's 21 parameters: the defaults, or the learner's own. */
  parameters: readonly number[];
  maximumIntervalDays: number;
  learningSteps: string[];
  relearningSteps: string[];
  fuzz: boolean;
}

/** What one review changed, as the review log keeps it (the state is the one before the review). */
export interface ReviewOutcome {
  next: MemoryState;
  log: {
    rating: RatingName;
    stateBefore: ReviewState;
    elapsedDays: number;
    lastElapsedDays: number;
    scheduledDays: number;
    learningStep: number;
    stabilityBefore: number;
    difficultyBefore: number;
    dueBefore: Date;
  };
}

// Parameters are cheap to build but the FSRS object precomputes its interval modifier; learners share
// a handful of distinct settings, so a small cache keeps the hot path free of that work.
const schedulers = new Map<string, FSRS>();
const SCHEDULER_CACHE_LIMIT = 256;

export function schedulerFor(settings: SchedulingSettings): FSRS {
  const key = JSON.stringify([
    settings.desiredRetention,
    settings.parameters,
    settings.maximumIntervalDays,
    settings.learningSteps,
    settings.relearningSteps,
    settings.fuzz,
  ]);
  let scheduler = schedulers.get(key);
  if (!scheduler) {
    scheduler = fsrs(
      generatorParameters({
        w: [...settings.parameters],
        request_retention: settings.desiredRetention,
        maximum_interval: settings.maximumIntervalDays,
        enable_fuzz: settings.fuzz,
        enable_short_term: true,
        learning_steps: settings.learningSteps as StepUnit[],
        relearning_steps: settings.relearningSteps as StepUnit[],
      }),
    );
    if (schedulers.size >= SCHEDULER_CACHE_LIMIT) schedulers.clear();
    schedulers.set(key, scheduler);
  }
  return scheduler;
}

export const gradeOf = (rating: RatingName): Grade => (RATINGS.indexOf(rating) + 1) as Grade;

const DAY_MS = 86_400_000;

/**
 * ts-fsrs keeps hard < good < easy by adding a day, which pushes good and easy past the maximum interval
 * once hard reaches it; the learner's maximum is a promise, so it wins.
 */
function capInterval(next: MemoryState, maximumIntervalDays: number, now: Date): MemoryState {
  if (next.scheduledDays <= maximumIntervalDays) return next;
  return { ...next, scheduledDays: maximumIntervalDays, due: new Date(now.getTime() + maximumIntervalDays * DAY_MS) };
}

export type NextIntervals = Record<RatingName, number>;

/**
 * What each rating would give an item reviewed at `at`, in whole seconds: the labels of the rating buttons.
 * The same scheduling as scheduleReview, so a label names the interval the rating will give (with fuzz on,
 * an interval of days may land a day either side, as fuzz is drawn at the review itself).
 */
export function nextIntervals(settings: SchedulingSettings, memory: MemoryState, at: Date): NextIntervals {
  const preview = schedulerFor(settings).repeat(toFsrsCard(memory), at);
  const intervals = {} as NextIntervals;
  for (const rating of RATINGS) {
    const { due } = capInterval(fromFsrsCard(preview[gradeOf(rating)].card), settings.maximumIntervalDays, at);
    intervals[rating] = Math.max(0, Math.round((due.getTime() - at.getTime()) / 1000));
  }
  return intervals;
}

/** The next memory state of an item rated `rating` at `now`. */
export function scheduleReview(
  settings: SchedulingSettings,
  memory: MemoryState,
  rating: RatingName,
  now: Date,
): ReviewOutcome {
  const { card, log } = schedulerFor(settings).next(toFsrsCard(memory), now, gradeOf(rating));
  return {
    next: capInterval(fromFsrsCard(card), settings.maximumIntervalDays, now),
    log: {
      rating,
      stateBefore: memory.state,
      elapsedDays: log.elapsed_days,
      lastElapsedDays: log.last_elapsed_days,
      scheduledDays: log.scheduled_days,
      learningStep: log.learning_steps,
      stabilityBefore: memory.stability,
      difficultyBefore: memory.difficulty,
      dueBefore: memory.due,
    },
  };
}
