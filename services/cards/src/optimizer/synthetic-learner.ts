// A learner whose memory follows known FSRS-6 parameters: each day of their study they learn new cards and
// review the ones Engram (scheduling with the default parameters) says are due, at a time of their own day in
// their timezone; whether they recall a card is drawn from their memory's recall probability. What the
// optimizer should find is then known: the parameters the reviews were drawn from. For tests and bench/ (no
// production code calls it).

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
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const AGAIN = 1;

/** Every review the learner made, in order. */
export function syntheticLearner(options: SyntheticLearnerOptions): LoggedReview[] {
  const draw = seededRandom(options.seed);
  const learner = new FSRSBinding([...options.parameters]);
  const engram = new FSRSBinding([...DEFAULT_PARAMETERS]);
  const items: Item[] = [];
  const reviews: LoggedReview[] = [];
  const pick = <T>(states: { again: T; hard: T; good: T; easy: T }, rating: number) =>
    [states.again, states.hard, states.good, states.easy][rating - 1] as T;
  for (let offset = 0; offset < options.days; offset += 1) {
    const day = addDays(options.firstDay, offset);
    for (let n = 0; n < options.newPerDay; n += 1)
      items.push({ id: `item-${items.length}`, memory: null, scheduled: null, lastDay: day, dueDay: day, state: 0 });
    // The learner studies at one sitting that starts between the day's start and 20 hours later (past
    // midnight at times: those reviews still belong to this study day).
    let at = studyDayStart(day, options.timeZone, options.dayStartHour).getTime() + draw() * 20 * 3_600_000;
    for (const item of items) {
      if (item.dueDay > day) continue;
      const elapsed = item.memory ? daysBetween(item.lastDay, day) : 0;
      let rating: number;
      if (!item.memory) {
        const roll = draw();
        rating = roll < 0.25 ? 1 : roll < 0.4 ? 2 : roll < 0.88 ? 3 : 4;
      } else {
        const recall = forgetting_curve([...options.parameters], elapsed, item.memory.stability);
        const roll = draw();
        rating = draw() >= recall ? AGAIN : roll < 0.15 ? 2 : roll < 0.92 ? 3 : 4;
      }
      at += 8_000 + draw() * 20_000;
      const reviewedAt = new Date(at);
      if (studyDayOf(reviewedAt, options.timeZone, options.dayStartHour) !== day) break;
      reviews.push({ itemId: item.id, rating, stateBefore: item.state, reviewedAt, undone: false });
      item.memory = pick(learner.nextStates(item.memory, 0.9, elapsed), rating).memory;
      const next = pick(engram.nextStates(item.scheduled, 0.9, elapsed), rating);
      item.scheduled = next.memory;
      // Engram's interval, spread a little as its fuzz does.
      const interval = Math.max(1, Math.round(next.interval * (0.95 + draw() * 0.1)));
      item.lastDay = day;
      item.dueDay = addDays(day, interval);
      item.state = rating === AGAIN && item.state === 2 ? 3 : 2;
    }
  }
  return reviews;
}
