// The dashboard's progress and streak on a device without the network (issue 29): what the server last said of
// them (answered with the device's offline set), moved on by the reviews done on the device since — the same counts the
// server makes once those reviews sync (services/cards handlers/progress-metrics.ts and streak.ts): cards by state,
// what is due today within the presets' limits, today's reviews against the daily goal, and the run of study days
// (current: the run that ends today or yesterday). No I/O here: the web app keeps the state in IndexedDB.
import type { MemoryState } from './memory-state.ts';
import type { Progress, Streak } from './offline.ts';
import { type DeviceState, dueToday } from './offline-practice.ts';
import { addDays, studyDayAround, studyDayOf } from './study-day.ts';

/** cards.progressMetrics' and cards.streak's answers (offline.ts: the offline set carries them). */
export type { Progress, Streak };

/** The progress and streak the server answered with the set, as of its time (a set kept by an earlier version has none). */
function standingOf(state: DeviceState): { at: string; progress: Progress; streak: Streak } | null {
  const { generatedAt, progress, streak } = state.set as Partial<typeof state.set>;
  return generatedAt && progress && streak ? { at: generatedAt, progress, streak } : null;
}

/** The learner's progress as the server will count it once the device's reviews sync; null before any standing. */
export function progressOnDevice(state: DeviceState, now: Date): Progress | null {
  const standing = standingOf(state);
  if (!standing) return null;
  const { timezone, dayStartHour } = state.settings;
  const { today, start } = studyDayAround(now, timezone, dayStartHour);
  const counts: Record<MemoryState['state'], number> = {
    new: standing.progress.new,
    learning: standing.progress.learning,
    review: standing.progress.review,
    relearning: standing.progress.relearning,
  };
  // Each item reviewed here leaves the state it had before its first review here for the state it has now.
  const firstBefore = new Map<string, MemoryState['state']>();
  for (const review of state.reviews)
    if (!firstBefore.has(review.itemId)) firstBefore.set(review.itemId, review.stateBefore);
  for (const [itemId, before] of firstBefore) {
    const item = state.set.items.find((kept) => kept.id === itemId);
    if (!item) continue;
    counts[before] -= 1;
    counts[item.memory.state] += 1;
  }
  const askedToday = studyDayOf(new Date(standing.at), timezone, dayStartHour) === today;
  const startIso = start.toISOString();
  return {
    ...standing.progress,
    ...counts,
    dueToday: dueToday(state, now).length,
    reviewedToday:
      (askedToday ? standing.progress.reviewedToday : 0) +
      state.reviews.filter((review) => review.reviewedAt >= startIso).length,
  };
}

/** The learner's streak as the server will count it once the device's reviews sync; null before any standing. */
export function streakOnDevice(state: DeviceState, now: Date): Streak | null {
  const standing = standingOf(state);
  if (!standing) return null;
  const { timezone, dayStartHour } = state.settings;
  const dayOf = (instant: Date) => studyDayOf(instant, timezone, dayStartHour);
  const today = dayOf(now);
  // The days with reviews: those done here, and the run the server counted, which ends on the day it was asked
  // (reviewed that day) or the day before. (The server's and the device's clocks may disagree a little: a review
  // done here may fall on a day before the one the server was asked on.)
  const reviewed = new Set(state.reviews.map((review) => dayOf(new Date(review.reviewedAt))));
  const asked = dayOf(new Date(standing.at));
  const end = standing.streak.reviewedToday ? asked : addDays(asked, -1);
  for (let n = 0; n < standing.streak.current; n += 1) reviewed.add(addDays(end, -n));
  let longest = standing.streak.longest;
  let run = 0;
  let last: string | undefined;
  for (const day of [...reviewed].sort()) {
    run = last !== undefined && addDays(last, 1) === day ? run + 1 : 1;
    last = day;
    longest = Math.max(longest, run);
  }
  const current = last !== undefined && last >= addDays(today, -1) ? run : 0;
  return { current, longest, reviewedToday: reviewed.has(today) };
}
