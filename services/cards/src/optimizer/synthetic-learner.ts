// A learner whose memory follows known FSRS-6 parameters: each day of their study they learn new cards and
// review the ones Engram (scheduling with the default parameters) says are due, at a time of their own day in
// their timezone; whether they recall a card is drawn from their memory's recall probability. As real learners
// do, they take new cards through learning steps (Again, then Good ten minutes later, all on one day) and
// forgotten ones through relearning steps, as Anki and Engram schedule them. What the optimizer should find is
// then known: the parameters the reviews were drawn from. For tests and bench/ (no production code calls it).

import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import { addDays, studyDayOf, studyDayStart } from '@engram/contracts/study-day';
import { type BindingMemoryState, FSRSBinding } from '@open-spaced-repetition/binding';
import { forgetting_curve } from 'ts-fsrs';
import { seededRandom } from '../simulator/seeded-random.js';
import type { LoggedReview } from './history.js';

/** A learner who forgets faster than FSRS-6's defaults expect, most of all early on. */
export const FORGETFUL_PARAMETERS: readonly number[] = DEFAULT_PARAMETERS.map((weight, index) =>
  index <= 3 ? weight * 0.35 : index === 8 ? weight * 0.8 : index === 20 ? 0.45 : weight,
);

export interface SyntheticLearnerOptions {
  /** The parameters the learner's memory follows. */
  parameters: readonly number[];
  firstDay: string;
  days: number;
  newPerDay: number;
  timeZone: string;
  dayStartHour: number;
  seed: number;
  /** Minutes between a new card's learning steps (Anki's and Engram's default: 1 and 10); [] for none. */
  learningSteps?: readonly number[];
  /** Minutes of a forgotten card's relearning steps (default: 10); [] for none. */
  relearningSteps?: readonly number[];
}

interface Item {
  id: string;
  /** The learner's memory of it (their parameters). */
  memory: BindingMemoryState | null;
  /** Engram's idea of it (the default parameters), which sets when it is due. */
  scheduled: BindingMemoryState | null;
  lastDay: string;
  dueDay: string;
  state: number;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const [NEW, LEARNING, REVIEW, RELEARNING] = [0, 1, 2, 3];
const [AGAIN, HARD, GOOD, EASY] = [1, 2, 3, 4];

/** Every review the learner made, in order. */
export function syntheticLearner(options: SyntheticLearnerOptions): LoggedReview[] {
  const draw = seededRandom(options.seed);
  const learner = new FSRSBinding([...options.parameters]);
  const engram = new FSRSBinding([...DEFAULT_PARAMETERS]);
  const learningSteps = options.learningSteps ?? [1, 10];
  const relearningSteps = options.relearningSteps ?? [10];
  const items: Item[] = [];
  const reviews: LoggedReview[] = [];
  const pick = <T>(states: { again: T; hard: T; good: T; easy: T }, rating: number) =>
    [states.again, states.hard, states.good, states.easy][rating - 1] as T;
  const recalls = (item: Item, days: number) =>
    draw() < forgetting_curve([...options.parameters], days, item.memory?.stability ?? 0);
  const grade = (recalled: boolean) => {
    const roll = draw();
    return !recalled ? AGAIN : roll < 0.15 ? HARD : roll < 0.92 ? GOOD : EASY;
  };

  for (let offset = 0; offset < options.days; offset += 1) {
    const day = addDays(options.firstDay, offset);
    const sameDay = (at: number) => studyDayOf(new Date(at), options.timeZone, options.dayStartHour) === day;
    for (let n = 0; n < options.newPerDay; n += 1)
      items.push({ id: `item-${items.length}`, memory: null, scheduled: null, lastDay: day, dueDay: day, state: NEW });
    /** Records one review at `at` and moves both memories on; answers Engram's interval in days. */
    const review = (item: Item, rating: number, at: number, elapsed: number) => {
      reviews.push({ itemId: item.id, rating, stateBefore: item.state, reviewedAt: new Date(at), undone: false });
      item.memory = pick(learner.nextStates(item.memory, 0.9, elapsed), rating).memory;
      const next = pick(engram.nextStates(item.scheduled, 0.9, elapsed), rating);
      item.scheduled = next.memory;
      item.lastDay = day;
      return next.interval;
    };
    /**
     * The steps after a first sight or a lapse, as Anki and Engram schedule them: Again goes back to the first step,
     * Hard repeats the step half again as long, Good moves on, Easy (or Good past the last step) graduates. Each is
     * rated when it comes, on the same day; answers the interval Engram gave at the last of them.
     */
    const takeSteps = (
      item: Item,
      steps: readonly number[],
      first: { rating: number; interval: number },
      at: number,
    ) => {
      let { rating, interval } = first;
      let step = 0;
      let when = at;
      while (rating !== EASY) {
        step = rating === AGAIN ? 0 : rating === GOOD ? step + 1 : step;
        const minutes = steps[step];
        if (minutes === undefined) break;
        const wait = minutes * (rating === HARD ? 1.5 : 1) * MINUTE_MS * (0.9 + draw() * 0.2);
        when += wait;
        // Left in its steps at the day's end: due again the next day.
        if (!sameDay(when)) return 1;
        rating = grade(recalls(item, wait / DAY_MS));
        interval = review(item, rating, when, 0);
      }
      return interval;
    };

    // The learner studies at one sitting that starts between the day's start and 20 hours later (past
    // midnight at times: those reviews still belong to this study day).
    let at = studyDayStart(day, options.timeZone, options.dayStartHour).getTime() + draw() * 20 * 3_600_000;
    for (const item of items) {
      if (item.dueDay > day) continue;
      at += 8_000 + draw() * 20_000;
      if (!sameDay(at)) break;
      const elapsed = item.memory ? daysBetween(item.lastDay, day) : 0;
      const isNew = item.state === NEW;
      const rating = isNew ? firstRating(draw()) : grade(recalls(item, elapsed));
      let interval = review(item, rating, at, elapsed);
      // A new card's learning steps, a forgotten card's relearning steps.
      item.state = isNew ? LEARNING : rating === AGAIN ? RELEARNING : REVIEW;
      if (item.state !== REVIEW) {
        interval = takeSteps(item, isNew ? learningSteps : relearningSteps, { rating, interval }, at);
        item.state = REVIEW;
      }
      // Engram's interval, spread a little as its fuzz does.
      item.dueDay = addDays(day, Math.max(1, Math.round(interval * (0.95 + draw() * 0.1))));
    }
  }
  return reviews.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
}

/** A first rating as learners give them: a quarter forgotten at first sight. */
const firstRating = (roll: number) => (roll < 0.25 ? AGAIN : roll < 0.4 ? HARD : roll < 0.88 ? GOOD : EASY);
