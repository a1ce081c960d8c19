// What the simulator starts from for one of a learner's presets: the cards it schedules (not archived) as they
// stand today, in their days; the preset's parameters and limits; and their habits from their own review log —
// how long a first review, a recalled one and a forgotten one take them (medians) and how their ratings fall —
// where they have enough reviews of a kind (else the defaults).
import { createHash } from 'node:crypto';
import { PRESET_DEFAULTS } from '@engram/contracts/learning';
import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import { studyDayOf } from '@engram/contracts/study-day';
import type { Stores } from '../db.js';
import { cardPresetId } from '../learner/card-preset.js';
import { settingsOf } from '../learner/settings.js';
import { readSettings } from '../learner/settings-store.js';
import { PRESET_NOT_FOUND } from '../presets/presets.js';
import { PACKED_CARD_LINE, type PackedCards } from './packed-cards.js';
import { DEFAULT_HABITS, type LearnerHabits, type SimulationInput } from './simulate.js';

/** Fewer reviews of a kind than this, and the default habit stands in for the learner's. */
const ENOUGH_REVIEWS = 20;
/** A review longer than this is someone who walked away: it does not set the learner's pace. */
const LONGEST_REVIEW_MS = 120_000;

// The cards the preset schedules (learner/card-preset.ts); $2 null: the learner has no preset yet, so all. Their due
// day and last review's day as days from today ($5) in the learner's days ($3 their timezone, $4 the hour a day
// starts), as studyDayOf counts them, packed a line each in the order of their ids (packed-cards.ts): worked out by
// PostgreSQL, so a large collection costs the service one string, not rows of dates to parse and convert.
const CARDS = `
SELECT coalesce(string_agg(${PACKED_CARD_LINE}, E'\n' ORDER BY card_id), '') AS cards
FROM (
  SELECT i.card_id, i.state, i.stability, i.difficulty,
    ((i.due AT TIME ZONE $3) - make_interval(hours => $4))::date - $5::date AS due_day,
    ((i.last_review AT TIME ZONE $3) - make_interval(hours => $4))::date - $5::date AS last_day
  FROM review_items i
  WHERE i.owner_id = $1 AND NOT i.archived AND ($2::uuid IS NULL OR ${cardPresetId('i.card_id', '$1')} = $2::uuid)
) c`;

const HABITS = `
SELECT
  count(*) FILTER (WHERE state_before = 0)::int AS firsts,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE state_before = 0) AS first_ms,
  count(*) FILTER (WHERE state_before <> 0 AND rating > 1)::int AS recalls,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE state_before <> 0 AND rating > 1) AS recall_ms,
  count(*) FILTER (WHERE state_before <> 0 AND rating = 1)::int AS lapses,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) FILTER (WHERE state_before <> 0 AND rating = 1) AS forget_ms,
  ARRAY[
    count(*) FILTER (WHERE state_before = 0 AND rating = 1), count(*) FILTER (WHERE state_before = 0 AND rating = 2),
    count(*) FILTER (WHERE state_before = 0 AND rating = 3), count(*) FILTER (WHERE state_before = 0 AND rating = 4)
  ]::int[] AS first_ratings,
  ARRAY[
    count(*) FILTER (WHERE state_before <> 0 AND rating = 2), count(*) FILTER (WHERE state_before <> 0 AND rating = 3),
    count(*) FILTER (WHERE state_before <> 0 AND rating = 4)
  ]::int[] AS recall_ratings
FROM review_logs
WHERE owner_id = $1 AND undone_at IS NULL AND duration_ms > 0 AND duration_ms <= $2`;

interface HabitsRow {
  firsts: number;
  first_ms: number | null;
  recalls: number;
  recall_ms: number | null;
  lapses: number;
  forget_ms: number | null;
  first_ratings: number[];
  recall_ratings: number[];
}

const shares = (counts: number[]) => {
  const total = counts.reduce((sum, count) => sum + count, 0);
  return counts.map((count) => count / total);
};

function habitsOf(row: HabitsRow | undefined): LearnerHabits {
  if (!row) return DEFAULT_HABITS;
  const seconds = (count: number, ms: number | null, fallback: number) =>
    count >= ENOUGH_REVIEWS && ms !== null ? ms / 1000 : fallback;
  const recallCount = row.recall_ratings.reduce((sum, count) => sum + count, 0);
  return {
    seconds: {
      new: seconds(row.firsts, row.first_ms, DEFAULT_HABITS.seconds.new),
      recall: seconds(row.recalls, row.recall_ms, DEFAULT_HABITS.seconds.recall),
      forget: seconds(row.lapses, row.forget_ms, DEFAULT_HABITS.seconds.forget),
    },
    firstRatings:
      row.firsts >= ENOUGH_REVIEWS
        ? (shares(row.first_ratings) as LearnerHabits['firstRatings'])
        : DEFAULT_HABITS.firstRatings,
    recallRatings:
      recallCount >= ENOUGH_REVIEWS
        ? (shares(row.recall_ratings) as LearnerHabits['recallRatings'])
        : DEFAULT_HABITS.recallRatings,
  };
}

/** The same learner and preset draw the same simulated future each time they ask. */
const seedOf = (ownerId: string, presetId: string) =>
  createHash('sha256').update(`${ownerId}:${presetId}`).digest().readUInt32LE(0);

/** What a simulation is given, its cards packed (packed-cards.ts). */
export type PackedWorkload = Omit<SimulationInput, 'desiredRetention' | 'cards'> & { cards: PackedCards };

export interface LearnerWorkload {
  input: Omit<PackedWorkload, 'days'>;
  currentRetention: number;
  today: string;
}

/** The simulator's input for `presetId` (none: the default preset) of `ownerId`; another's preset is not found. */
export async function learnerWorkload(stores: Stores, ownerId: string, presetId: string | undefined, now = new Date()) {
  const settings = settingsOf(await readSettings(stores.pool, ownerId));
  const preset = await stores.db.preset.findFirst({
    where: presetId === undefined ? { ownerId, isDefault: true } : { ownerId, id: presetId },
  });
  if (presetId !== undefined && !preset) throw PRESET_NOT_FOUND();
  const today = studyDayOf(now, settings.timezone, settings.dayStartHour);
  const [{ rows: cardRows }, { rows: habitRows }] = await Promise.all([
    stores.pool.query<{ cards: PackedCards }>(CARDS, [
      ownerId,
      preset?.id ?? null,
      settings.timezone,
      settings.dayStartHour,
      today,
    ]),
    stores.pool.query<HabitsRow>(HABITS, [ownerId, LONGEST_REVIEW_MS]),
  ]);
  const parameters = preset && preset.parameters.length > 0 ? preset.parameters : DEFAULT_PARAMETERS;
  return {
    input: {
      cards: cardRows[0]?.cards ?? '',
      parameters,
      newPerDay: preset?.newPerDay ?? PRESET_DEFAULTS.newPerDay,
      reviewsPerDay: preset?.reviewsPerDay ?? PRESET_DEFAULTS.reviewsPerDay,
      maximumIntervalDays: settings.maximumIntervalDays,
      habits: habitsOf(habitRows[0]),
      seed: seedOf(ownerId, preset?.id ?? ''),
    },
    currentRetention: preset?.desiredRetention ?? settings.desiredRetention,
    today,
  } satisfies LearnerWorkload;
}
