// The learner's reviews counted per study day (their timezone, moved back by their day-start hour), kept
// in step with review_logs inside the transactions that change them: a review adds one, an undo takes it
// back, and a new timezone or day start recounts the learner's days from their logs. Streaks, reviews by
// rating, retention and the heatmap then read at most a row per day instead of every review.
import { DEFAULT_SETTINGS } from '@engram/contracts/learning';
import { executeCount, type SqlExecutor } from '@engram/kit/events/outbox';

const DEFAULT_TZ = `'${DEFAULT_SETTINGS.timezone}'`;
const DEFAULT_DAY_START = String(DEFAULT_SETTINGS.dayStartHour);

/**
 * What a change of timezone or day start locks alone (pg_advisory_xact_lock(hashtext(key))) and a review
 * or an undo shares while it counts into a day; migration review_log_order_and_outcome's
 * learner_review_day spells the same key.
 */
export const settingsLockKey = (ownerId: string) => `cards-settings:${ownerId}`;

/** Taken by an undo before it reads the learner's settings, so a change of them waits for it (or it for the change). */
export const SHARE_SETTINGS_LOCK = 'SELECT pg_advisory_xact_lock_shared(hashtext($1))';

/**
 * The study day of a review at `instant` for the learner `owner` (SQL expressions), from their settings
 * or the defaults, read under the settings lock taken shared (learner_review_day): a review statement that
 * began before a change of timezone committed still counts into the day the change made.
 */
export const reviewDayOf = (owner: string, instant: string) =>
  `learner_review_day(${owner}, ${instant}, ${DEFAULT_TZ}, ${DEFAULT_DAY_START})`;

/** The study day of `instant` for the learner `owner` (SQL expressions), from their settings or the defaults. */
export const learnerDayOf = (instant: string, owner: string) => `
((${instant} AT TIME ZONE COALESCE((SELECT timezone FROM learner_settings WHERE owner_id = ${owner}), ${DEFAULT_TZ}))
  - make_interval(hours => COALESCE((SELECT day_start_hour FROM learner_settings WHERE owner_id = ${owner}), ${DEFAULT_DAY_START})))::date`;

/** The counts one review log adds to its day. */
const counts = (rating: string, stateBefore: string) => `
  1, (${rating} = 1)::int, (${rating} = 2)::int, (${rating} = 3)::int, (${rating} = 4)::int,
  (${stateBefore} = 2)::int, (${stateBefore} = 2 AND ${rating} > 1)::int`;

/**
 * A CTE for the review's statement: adds one review rated `rating` (state before: `stateBefore`) to the
 * owner's `day`, once for each row of `source` (the CTE of the updated item: none when nothing changed).
 */
export const countReview = (source: string, owner: string, day: string, rating: string, stateBefore: string) => `
INSERT INTO review_days (owner_id, day, reviews, again, hard, good, easy, mature, mature_recalled)
SELECT ${owner}, ${day}, ${counts(rating, stateBefore)} FROM ${source}
ON CONFLICT (owner_id, day) DO UPDATE SET reviews = review_days.reviews + 1,
  again = review_days.again + EXCLUDED.again, hard = review_days.hard + EXCLUDED.hard,
  good = review_days.good + EXCLUDED.good, easy = review_days.easy + EXCLUDED.easy,
  mature = review_days.mature + EXCLUDED.mature,
  mature_recalled = review_days.mature_recalled + EXCLUDED.mature_recalled`;

/** $1 review id, $2 owner: marks the review undone and takes it back from its day's counts. */
export const UNDO_AND_UNCOUNT = `
WITH undone AS (
  UPDATE review_logs SET undone_at = now() WHERE id = $1 AND owner_id = $2 AND undone_at IS NULL
  RETURNING owner_id, reviewed_at, rating, state_before
)
UPDATE review_days d SET reviews = d.reviews - 1,
  again = d.again - (u.rating = 1)::int, hard = d.hard - (u.rating = 2)::int,
  good = d.good - (u.rating = 3)::int, easy = d.easy - (u.rating = 4)::int,
  mature = d.mature - (u.state_before = 2)::int,
  mature_recalled = d.mature_recalled - (u.state_before = 2 AND u.rating > 1)::int
FROM undone u
WHERE d.owner_id = u.owner_id AND d.day = ${learnerDayOf('u.reviewed_at', 'u.owner_id')}`;

// $2: the days to count again (null: all of them).
const FORGET_DAYS = 'DELETE FROM review_days WHERE owner_id = $1 AND ($2::date[] IS NULL OR day = ANY($2::date[]))';

const COUNT_DAYS = `
INSERT INTO review_days (owner_id, day, reviews, again, hard, good, easy, mature, mature_recalled)
SELECT $1, ${learnerDayOf('reviewed_at', '$1')}, count(*), count(*) FILTER (WHERE rating = 1),
  count(*) FILTER (WHERE rating = 2), count(*) FILTER (WHERE rating = 3), count(*) FILTER (WHERE rating = 4),
  count(*) FILTER (WHERE state_before = 2), count(*) FILTER (WHERE state_before = 2 AND rating > 1)
FROM review_logs WHERE owner_id = $1 AND undone_at IS NULL
  AND ($2::date[] IS NULL OR ${learnerDayOf('reviewed_at', '$1')} = ANY($2::date[]))
GROUP BY 2`;

/**
 * Counts the learner's days (`days` only, as YYYY-MM-DD, if given) again from their logs: after their timezone or
 * day start changed, or an import.
 */
export async function recountReviewDays(client: SqlExecutor, ownerId: string, days?: string[]): Promise<void> {
  await executeCount(client, FORGET_DAYS, [ownerId, days ?? null]);
  await executeCount(client, COUNT_DAYS, [ownerId, days ?? null]);
}
