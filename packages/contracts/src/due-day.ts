// Spreading reviews within fuzz (Anki's load balancer and easy days): of the days a review's interval may land on
// (ts-fsrs's fuzz range around it), the one chosen is the least loaded once each day's load is weighed by how
// much of a usual day it takes — a day at 50% counts its cards twice, a day off is never chosen while another
// day is allowed. With load balancing off only the easy days weigh; ties go to the day the review would have taken
// without spreading (for a review, the day fuzz drew), then the earlier one. No I/O here: the cards service (its
// review/spread-review.ts) and a device practising offline each count the cards due on the candidate days from
// what they hold, and choose the same way.
import { get_fuzz_range } from 'ts-fsrs';
import type { RatingName } from './learning.ts';
import { type MemoryState, type SchedulingSettings, scheduleReview } from './scheduler.ts';
import { addDays, studyDayOf, studyDayStart } from './study-day.ts';

export interface Spreading {
  /** How much of a usual day each weekday takes, Monday first (0..1). */
  easyDays: readonly number[];
  loadBalance: boolean;
}

export interface CandidateDay {
  /** Days from the review. */
  offset: number;
  /** The learner's day it falls on, YYYY-MM-DD. */
  day: string;
  /** The cards already due that day. */
  load: number;
}

/** Whether spreading can change anything: load balancing is on, or some weekday is lighter than usual. */
export const spreads = ({ easyDays, loadBalance }: Spreading) => loadBalance || easyDays.some((share) => share < 1);

/** The days fuzz allows an interval of `interval` days (at least `elapsedDays` since the last review). */
export function fuzzRange(interval: number, elapsedDays: number, maximumIntervalDays: number) {
  const { min_ivl: earliest, max_ivl: latest } = get_fuzz_range(interval, elapsedDays, maximumIntervalDays);
  return { earliest, latest };
}

/** Monday 0 … Sunday 6, of a YYYY-MM-DD day. */
const weekday = (day: string) => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;

/** The offset of the day chosen among `candidates`; `preferred` is the offset it would take without spreading. */
export function chooseDay(candidates: readonly CandidateDay[], preferred: number, spreading: Spreading): number {
  const share = (candidate: CandidateDay) => spreading.easyDays[weekday(candidate.day)] ?? 1;
  const open = candidates.some((candidate) => share(candidate) > 0)
    ? candidates.filter((candidate) => share(candidate) > 0)
    : candidates;
  const weight = (candidate: CandidateDay) => {
    const days = Math.max(share(candidate), 0.01);
    return (spreading.loadBalance ? candidate.load + 1 : 1) / days;
  };
  let best: CandidateDay | undefined;
  for (const candidate of open) {
    if (
      !best ||
      weight(candidate) < weight(best) ||
      (weight(candidate) === weight(best) && Math.abs(candidate.offset - preferred) < Math.abs(best.offset - preferred))
    ) {
      best = candidate;
    }
  }
  return best?.offset ?? preferred;
}

const DAY_MS = 86_400_000;
/** ts-fsrs fuzzes intervals of 2.5 days or more. */
const FUZZED_FROM_DAYS = 3;

/** What spreading a review reads of the learner's settings. */
export interface SpreadSettings extends SchedulingSettings, Spreading {
  timezone: string;
  dayStartHour: number;
}

/** A review as the scheduler gave it: the state before, the rating, the state after and its elapsed days. */
export interface ScheduledReview {
  memory: MemoryState;
  rating: RatingName;
  next: MemoryState;
  elapsedDays: number;
}

/** A day a review may be spread to: its offset from the review, the learner's day and the instants it spans. */
export interface SpreadDay {
  offset: number;
  day: string;
  start: Date;
  end: Date;
}

/**
 * The days `review` (rated at `now`) may go to, or null when it keeps what the scheduler gave: only a review that
 * graduates to (or stays in) the review state with an interval fuzz applies to (3 days or more) is spread.
 */
export function spreadDays(settings: SpreadSettings, review: ScheduledReview, now: Date): SpreadDay[] | null {
  if (review.next.state !== 'review' || !settings.fuzz || !spreads(settings)) return null;
  const interval = scheduleReview({ ...settings, fuzz: false }, review.memory, review.rating, now).next.scheduledDays;
  if (interval < FUZZED_FROM_DAYS) return null;
  const { earliest, latest } = fuzzRange(interval, review.elapsedDays, settings.maximumIntervalDays);
  const bound = (day: string) => studyDayStart(day, settings.timezone, settings.dayStartHour);
  return Array.from({ length: latest - earliest + 1 }, (_, n) => {
    const offset = earliest + n;
    const day = studyDayOf(new Date(now.getTime() + offset * DAY_MS), settings.timezone, settings.dayStartHour);
    return { offset, day, start: bound(day), end: bound(addDays(day, 1)) };
  });
}

/** `review`'s next state once sent to the day chosen among `days`, `loads[n]` the cards already due on `days[n]`. */
export function spreadOver(
  settings: SpreadSettings,
  review: ScheduledReview,
  now: Date,
  days: readonly SpreadDay[],
  loads: readonly number[],
): MemoryState {
  const candidates = days.map(({ offset, day }, n) => ({ offset, day, load: loads[n] ?? 0 }));
  // Among equals, the day fuzz drew stays: spreading moves a review only off a busier or lighter day.
  const offset = chooseDay(candidates, review.next.scheduledDays, settings);
  return { ...review.next, scheduledDays: offset, due: new Date(now.getTime() + offset * DAY_MS) };
}
