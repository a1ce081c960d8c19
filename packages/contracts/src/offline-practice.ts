// Practising on a device without the network (issue 29): which of the items it keeps are due today, and each
// review scheduled as the cards service schedules it — the same FSRS scheduler with the card's preset, the same
// spreading within fuzz over the same counts of items due each day, the same daily limits and order of the due
// list (services/cards handlers/list-due.ts) — so the next card shows at once, "due today" stays right, and what
// the server stores when the review syncs is what the device showed. No I/O here: the web app keeps the state (in
// IndexedDB) and the server's answer to a sync replaces the device's state of each item.
import { type SpreadSettings, spreadDays, spreadOver } from './due-day.ts';
import { DEFAULT_SETTINGS, type RatingName, type Settings } from './learning.ts';
import { type MemoryState, type MemoryStateJson, memoryFromJson, memoryToJson } from './memory-state.ts';
import type { OfflineItem, OfflineSet } from './offline.ts';
import { DEFAULT_PARAMETERS, type NextIntervals, nextIntervals, scheduleReview } from './scheduler.ts';
import { studyDayAround, studyDayOf } from './study-day.ts';

/** A preset as the device needs it: its scheduling options and daily limits. */
export interface DevicePreset {
  id: string;
  isDefault: boolean;
  desiredRetention: number;
  /** Empty: FSRS-6's defaults. */
  parameters: readonly number[];
  newPerDay: number;
  reviewsPerDay: number;
}

/** The learner's settings and presets (settings.get), as the device schedules with them. */
export type DeviceSettings = Omit<Settings, 'desiredRetention' | 'dailyGoal'> & { presets: DevicePreset[] };

/** A review done on the device since its set was made: what the daily limits count of it. */
export interface DeviceReview {
  itemId: string;
  presetId: string | null;
  stateBefore: MemoryState['state'];
  reviewedAt: string;
}

/** What the device practises from: the set it keeps, the reviews done on it since, and each day's due items. */
export interface DeviceState {
  settings: DeviceSettings;
  set: OfflineSet;
  reviews: DeviceReview[];
}

/** The learner's default preset, or the defaults when none is made yet. */
function defaultPreset(settings: DeviceSettings): DevicePreset {
  return (
    settings.presets.find((preset) => preset.isDefault) ?? {
      id: '',
      isDefault: true,
      desiredRetention: DEFAULT_SETTINGS.desiredRetention,
      parameters: DEFAULT_PARAMETERS,
      newPerDay: 20,
      reviewsPerDay: 200,
    }
  );
}

/** The preset that schedules `item` (its own, else the default). */
export function presetOf(settings: DeviceSettings, presetId: string | null): DevicePreset {
  return settings.presets.find((preset) => preset.id === presetId) ?? defaultPreset(settings);
}

/** The options `item` is scheduled with: the learner's settings and its preset's retention and parameters. */
export function optionsOf(settings: DeviceSettings, presetId: string | null): SpreadSettings {
  const preset = presetOf(settings, presetId);
  return {
    ...settings,
    desiredRetention: preset.desiredRetention,
    parameters: preset.parameters.length > 0 ? preset.parameters : DEFAULT_PARAMETERS,
  };
}

/** New cards started and reviews (of review-state cards) done today, per preset id ('' the default). */
function doneToday(state: DeviceState, today: string, dayStart: Date) {
  const { settings, set } = state;
  const done = new Map<string, { newCards: number; reviews: number }>();
  const key = (presetId: string | null) => presetOf(settings, presetId).id;
  const add = (presetId: string | null, newCards: number, reviews: number) => {
    const entry = done.get(key(presetId)) ?? { newCards: 0, reviews: 0 };
    done.set(key(presetId), { newCards: entry.newCards + newCards, reviews: entry.reviews + reviews });
  };
  // The server's counts are of the day the set was made: today's only if that is still today.
  if (studyDayOf(new Date(set.generatedAt), settings.timezone, settings.dayStartHour) === today)
    for (const entry of set.doneToday) add(entry.presetId, entry.newCards, entry.reviews);
  for (const review of state.reviews) {
    if (new Date(review.reviewedAt) < dayStart) continue;
    add(review.presetId, review.stateBefore === 'new' ? 1 : 0, review.stateBefore === 'review' ? 1 : 0);
  }
  return (presetId: string | null) => done.get(key(presetId)) ?? { newCards: 0, reviews: 0 };
}

const byDue = (a: OfflineItem, b: OfflineItem) =>
  a.memory.due.localeCompare(b.memory.due) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The kept items due before the learner's day ends, as the due list offers them: learning steps always, reviews and
 * new cards within each preset's limits less what was done today (the earliest due first); those due by `now`
 * first (learning and relearning, then review, then new), then those due later today, each by due time.
 */
export function dueToday(state: DeviceState, now: Date): OfflineItem[] {
  const { settings } = state;
  const { today, start, end } = studyDayAround(now, settings.timezone, settings.dayStartHour);
  const done = doneToday(state, today, start);
  const endIso = end.toISOString();
  const due = state.set.items.filter((item) => item.memory.due < endIso).sort(byDue);
  const taken = new Map<string, number>();
  const within = (item: OfflineItem, limit: (preset: DevicePreset) => number) => {
    const preset = presetOf(settings, item.presetId);
    const group = `${item.memory.state}:${preset.id}`;
    const count = taken.get(group) ?? 0;
    if (count >= limit(preset)) return false;
    taken.set(group, count + 1);
    return true;
  };
  const offered = due.filter((item) => {
    const { state } = item.memory;
    if (state === 'learning' || state === 'relearning') return true;
    const left = done(item.presetId);
    if (state === 'review') return within(item, (preset) => preset.reviewsPerDay - left.reviews);
    return within(item, (preset) => preset.newPerDay - left.newCards);
  });
  const nowIso = now.toISOString();
  const rank = (item: OfflineItem) => {
    const group = { learning: 0, relearning: 0, review: 1, new: 2 }[item.memory.state];
    return item.memory.due <= nowIso ? group : group + 3;
  };
  return offered.sort((a, b) => rank(a) - rank(b) || byDue(a, b));
}

/** What each rating would give `item` if rated at `at` (the rating buttons' labels), with its preset's options. */
export function intervalsOnDevice(state: DeviceState, item: OfflineItem, at: Date): NextIntervals {
  return nextIntervals(optionsOf(state.settings, item.presetId), memoryFromJson(item.memory), at);
}

/**
 * `item` rated `rating` at `at` on the device: its next state (spread within fuzz over the days' loads, the item
 * itself left out of them, as the server does), and the state of the device after it — the item's new state in the
 * set, the review counted toward today's limits, and the item moved from the day it was due to its new one.
 */
export function reviewOnDevice(
  state: DeviceState,
  item: OfflineItem,
  rating: RatingName,
  at: Date,
): { next: MemoryState; state: DeviceState } {
  const { settings } = state;
  const options = optionsOf(settings, item.presetId);
  const memory = memoryFromJson(item.memory);
  const scheduled = scheduleReview(options, memory, rating, at);
  const review = { memory, rating, next: scheduled.next, elapsedDays: scheduled.log.elapsedDays };
  const days = spreadDays(options, review, at);
  const dayOf = (instant: Date) => studyDayOf(instant, settings.timezone, settings.dayStartHour);
  // The items due on each day, as the set counted them and the reviews on the device moved them since.
  const loads = new Map(state.set.dueDays.map(({ day, items }) => [day, items]));
  const ownDay = dayOf(memory.due);
  const next = days
    ? spreadOver(
        options,
        review,
        at,
        days,
        days.map(({ day }) => (loads.get(day) ?? 0) - (day === ownDay ? 1 : 0)),
      )
    : scheduled.next;
  return {
    next,
    state: {
      ...state,
      set: {
        ...state.set,
        items: state.set.items.map((kept) => (kept.id === item.id ? { ...kept, memory: memoryToJson(next) } : kept)),
        // The item leaves the day it was due on (if counted: from today on) for its new one.
        dueDays: moveDue(state, memory.due, next.due, at),
      },
      reviews: [
        ...state.reviews,
        { itemId: item.id, presetId: item.presetId, stateBefore: memory.state, reviewedAt: at.toISOString() },
      ],
    },
  };
}

/** The items due per day with `item` moved from the day of `from` to the day of `to` (counted from today on). */
function moveDue(state: DeviceState, from: Date, to: Date | null, at: Date): OfflineSet['dueDays'] {
  const { settings } = state;
  const dayOf = (instant: Date) => studyDayOf(instant, settings.timezone, settings.dayStartHour);
  const dueDays = new Map(state.set.dueDays.map(({ day, items }) => [day, items]));
  if (from >= studyDayAround(at, settings.timezone, settings.dayStartHour).start)
    dueDays.set(dayOf(from), Math.max(0, (dueDays.get(dayOf(from)) ?? 0) - 1));
  if (to) dueDays.set(dayOf(to), (dueDays.get(dayOf(to)) ?? 0) + 1);
  return [...dueDays].sort(([a], [b]) => a.localeCompare(b)).map(([day, items]) => ({ day, items }));
}

/**
 * The device after the server's word on item `itemId`: its stored state replaces the device's (null: the item is
 * gone — deleted, or not the learner's — and leaves the set).
 */
export function withServerState(state: DeviceState, itemId: string, memory: MemoryStateJson | null): DeviceState {
  const kept = state.set.items.find((item) => item.id === itemId);
  if (!kept) return state;
  const at = new Date();
  return {
    ...state,
    set: {
      ...state.set,
      items: memory
        ? state.set.items.map((item) => (item.id === itemId ? { ...item, memory } : item))
        : state.set.items.filter((item) => item.id !== itemId),
      dueDays: moveDue(state, new Date(kept.memory.due), memory ? new Date(memory.due) : null, at),
    },
  };
}

/** The device once the review of `itemId` done at `reviewedAt` (not yet synced) is taken back: the item as before it. */
export function undoOnDevice(
  state: DeviceState,
  itemId: string,
  reviewedAt: string,
  before: MemoryStateJson,
): DeviceState {
  const undone = withServerState(state, itemId, before);
  const index = state.reviews.findLastIndex((review) => review.itemId === itemId && review.reviewedAt === reviewedAt);
  return { ...undone, reviews: state.reviews.filter((_, n) => n !== index) };
}
