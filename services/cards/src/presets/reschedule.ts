// Rescheduling a preset's cards after its parameters or desired retention changed. First each reviewed card's
// memory state is worked out again with the preset's parameters from its review log since it last started as new,
// as Anki does (a card whose log does not go back that far, imported without it, keeps the state it has). Then
// each reviewed card (in the review state, not archived) whose interval is not one the preset's options allow now
// (the interval its memory state gives, within fuzz) gets one: counted from its last review, on the day within
// fuzz the learner's easy days and each day's load choose, as a review would. The same inputs give the same days,
// so a preview and the rescheduling that follows it agree. The preview says how many cards would get another due
// day and how many fall due on each of the learner's next days, before and after; the rescheduling writes the same
// plan (due days and memory states), leaving alone any card reviewed since it was read.

import { chooseDay, fuzzRange } from '@engram/contracts/due-day';
import { RATINGS } from '@engram/contracts/learning';
import {
  DEFAULT_PARAMETERS,
  type MemoryState,
  newMemoryState,
  type SchedulingSettings,
  scheduleReview,
  schedulerFor,
} from '@engram/contracts/scheduler';
import { addDays, studyDayOf } from '@engram/contracts/study-day';
import type pg from 'pg';
import type { Stores } from '../db.js';
import { cardPresetId } from '../learner/card-preset.js';
import { settingsOf } from '../learner/settings.js';
import { readSettings } from '../learner/settings-store.js';
import { learnerDayOf } from '../learner/study-days.js';
import { fromLastStart } from '../optimizer/history.js';

const DAY_MS = 86_400_000;
/** The preview's days: this many from today, then one that holds every later day. */
export const PREVIEW_DAYS = 30;

const REVIEWED_CARDS = `
SELECT i.id::text, i.due, i.stability, i.difficulty, i.last_review
FROM review_items i
WHERE i.owner_id = $1 AND NOT i.archived AND i.state = 2 AND i.stability > 0 AND i.last_review IS NOT NULL
  AND ${cardPresetId('i.card_id', '$1')} = $2::uuid
ORDER BY i.due, i.id`;

export interface ReviewedCard {
  id: string;
  due: Date;
  stability: number;
  difficulty: number;
  last_review: Date;
}

// Their reviews that moved the memory (not undone, not an imported preview), in the order they happened.
const HISTORIES = `
SELECT item_id::text AS item, rating::int AS rating, state_before::int AS "stateBefore", reviewed_at AS "reviewedAt"
FROM review_logs
WHERE owner_id = $1 AND undone_at IS NULL AND NOT preview AND item_id = ANY($2::uuid[])
ORDER BY item_id, reviewed_at, seq`;

export interface LoggedReview {
  item: string;
  rating: number;
  stateBefore: number;
  reviewedAt: Date;
}

/** The memory state one item's `reviews` (in order) leave under `options`; null when its log does not start as new. */
function replay(options: SchedulingSettings, reviews: LoggedReview[]): MemoryState | null {
  let memory: MemoryState | null = null;
  for (const review of fromLastStart(reviews)) {
    const rating = RATINGS[review.rating - 1];
    if (!rating) continue;
    memory = scheduleReview(options, memory ?? newMemoryState(review.reviewedAt), rating, review.reviewedAt).next;
  }
  return memory;
}

export interface PlannedDue {
  id: string;
  before: Date;
  after: Date;
  scheduledDays: number;
  stability: number;
  difficulty: number;
}

export interface ReschedulePlan {
  /** The preset's reviewed cards. */
  cards: number;
  /** Those whose due day moves. */
  moved: number;
  /** Those whose due day moves or whose memory state the preset's parameters work out otherwise. */
  changes: PlannedDue[];
  /** Each card's due day, before and after (unchanged cards alike). */
  days: { before: string; after: string }[];
  today: string;
}

// The learner's cards due on each of their days (their study day, as learner/study-days.ts counts it).
const LOADS = `
SELECT to_char(${learnerDayOf('due', '$1')}, 'YYYY-MM-DD') AS day, count(*)::int AS load
FROM review_items WHERE owner_id = $1 AND NOT archived
GROUP BY 1`;

/** What a plan is worked out from: the learner's settings, the preset, its reviewed cards and their logs. */
export interface RescheduleInput {
  settings: ReturnType<typeof settingsOf>;
  preset: { id: string; desiredRetention: number; parameters: number[] };
  cards: ReviewedCard[];
  loads: { day: string; load: number }[];
  logged: LoggedReview[];
  now: Date;
}

/** Reads what the plan for the cards of `preset` (a row of the learner's presets) of `ownerId` needs. */
export async function rescheduleInput(
  stores: Stores,
  ownerId: string,
  preset: { id: string; desiredRetention: number; parameters: number[] },
  now = new Date(),
): Promise<RescheduleInput> {
  const settings = settingsOf(await readSettings(stores.pool, ownerId));
  const [{ rows }, { rows: loads }] = await Promise.all([
    stores.pool.query<ReviewedCard>(REVIEWED_CARDS, [ownerId, preset.id]),
    stores.pool.query<{ day: string; load: number }>(LOADS, [ownerId]),
  ]);
  const { rows: logged } = await stores.pool.query<LoggedReview>(HISTORIES, [ownerId, rows.map(({ id }) => id)]);
  const { id, desiredRetention, parameters } = preset;
  return { settings, preset: { id, desiredRetention, parameters }, cards: rows, loads, logged, now };
}

/**
 * The plan (no I/O: the cards service works it out in a process of its own, compute/compute-process.ts, as its
 * replays take seconds for a large collection).
 */
export function planReschedule({
  settings,
  preset,
  cards: rows,
  loads: loadRows,
  logged,
  now,
}: RescheduleInput): ReschedulePlan {
  const options = {
    ...settings,
    desiredRetention: preset.desiredRetention,
    parameters: preset.parameters.length > 0 ? preset.parameters : DEFAULT_PARAMETERS,
    fuzz: false,
  };
  const scheduler = schedulerFor(options);
  const histories = new Map<string, LoggedReview[]>();
  for (const review of logged) {
    const history = histories.get(review.item);
    if (history) history.push(review);
    else histories.set(review.item, [review]);
  }
  const loads = new Map(loadRows.map(({ day, load }) => [day, load]));
  const dayOf = (instant: Date) => studyDayOf(instant, settings.timezone, settings.dayStartHour);
  const today = dayOf(now);
  const changes: PlannedDue[] = [];
  const days: ReschedulePlan['days'] = [];
  let moved = 0;
  for (const card of rows) {
    const replayed = replay(options, histories.get(card.id) ?? []);
    const memory =
      replayed?.state === 'review' && replayed.stability > 0
        ? { stability: replayed.stability, difficulty: replayed.difficulty }
        : { stability: card.stability, difficulty: card.difficulty };
    const interval = Math.min(scheduler.next_interval(memory.stability, 0), settings.maximumIntervalDays);
    const { earliest, latest } = settings.fuzz
      ? fuzzRange(interval, 0, settings.maximumIntervalDays)
      : { earliest: interval, latest: interval };
    // A card whose interval is already one fuzz allows keeps it: only those outside move, to the day within fuzz
    // the learner's easy days and each day's load choose (@engram/contracts/due-day), as a review would.
    const current = Math.round((card.due.getTime() - card.last_review.getTime()) / DAY_MS);
    const at = (offset: number) => new Date(card.last_review.getTime() + offset * DAY_MS);
    let scheduledDays = current;
    if (current < earliest || current > latest) {
      const candidates = Array.from({ length: latest - earliest + 1 }, (_, n) => {
        const day = dayOf(at(earliest + n));
        return { offset: earliest + n, day, load: loads.get(day) ?? 0 };
      });
      scheduledDays = chooseDay(candidates, interval, settings);
    }
    const after = at(scheduledDays);
    const day = { before: dayOf(card.due), after: dayOf(after) };
    days.push(day);
    const remembered =
      Math.abs(memory.stability - card.stability) > 1e-6 || Math.abs(memory.difficulty - card.difficulty) > 1e-6;
    if (day.before !== day.after) {
      moved += 1;
      loads.set(day.before, (loads.get(day.before) ?? 1) - 1);
      loads.set(day.after, (loads.get(day.after) ?? 0) + 1);
    }
    if (day.before !== day.after || remembered) {
      const due = day.before !== day.after ? after : card.due;
      changes.push({ id: card.id, before: card.due, after: due, scheduledDays, ...memory });
    }
  }
  return { cards: rows.length, moved, changes, days, today };
}

/** How many cards fall due on each of the next PREVIEW_DAYS days (overdue ones today), then on any later day. */
export function dueDays(plan: ReschedulePlan) {
  const counts = Array.from({ length: PREVIEW_DAYS + 1 }, (_, index) => ({
    date: addDays(plan.today, index),
    before: 0,
    after: 0,
  }));
  const bucket = (day: string) => {
    const offset = Math.round((Date.parse(day) - Date.parse(plan.today)) / DAY_MS);
    return counts[Math.max(0, Math.min(PREVIEW_DAYS, offset))] as (typeof counts)[number];
  };
  for (const { before, after } of plan.days) {
    bucket(before).before += 1;
    bucket(after).after += 1;
  }
  return counts;
}

// Each change applies only while the item is still due when it was planned (not reviewed since).
const APPLY = `
UPDATE review_items i SET due = c.after, scheduled_days = c.scheduled_days, stability = c.stability,
  difficulty = c.difficulty
FROM unnest($2::uuid[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::float8[], $7::float8[])
  AS c(id, before, after, scheduled_days, stability, difficulty)
WHERE i.id = c.id AND i.owner_id = $1 AND i.due = c.before AND i.state = 2
RETURNING c.after <> c.before AS moved`;

/** Writes the plan's changes; how many cards it gave another due day. */
export async function applyReschedule(pool: pg.Pool, ownerId: string, plan: ReschedulePlan): Promise<number> {
  const { changes } = plan;
  const { rows } = await pool.query<{ moved: boolean }>(APPLY, [
    ownerId,
    changes.map(({ id }) => id),
    changes.map(({ before }) => before),
    changes.map(({ after }) => after),
    changes.map(({ scheduledDays }) => scheduledDays),
    changes.map(({ stability }) => stability),
    changes.map(({ difficulty }) => difficulty),
  ]);
  return rows.filter(({ moved }) => moved).length;
}
