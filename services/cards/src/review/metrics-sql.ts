// The dashboard's metrics, computed in PostgreSQL (never by loading rows into JavaScript). A review's day
// is the learner's day: its time in their timezone, moved back by their day-start hour. Streaks and
// reviews by day read review_days (learner/study-days.ts), a row per learner and day, not every review. Review
// items carry their card's archived flag, so counts of items need no join to cards.
import { presetLimits, scheduledByLimit } from '../presets/daily-limits.js';

/** Due today and offered by the daily limits of the preset `l` (presets/daily-limits.ts): state `state`. */
const dueWithin = (state: string, left: string) => `(
  SELECT COALESCE(sum(least(l.${left}, (
    SELECT count(*) FROM review_items i
    WHERE i.owner_id = $1 AND NOT i.archived AND i.due < $2 AND ${state} AND ${scheduledByLimit('$7')}
  ))), 0)::int
  FROM (${presetLimits(4)}) l)`;

/**
 * $1 owner, $2 end of today, $3 start of today, $4–$7 the daily limits left (DailyLimits.values). Due today is what
 * the due list offers today: every learning step, and reviews and new cards within their presets' limits.
 */
export const PROGRESS = `
SELECT
  (SELECT count(*)::int FROM cards WHERE owner_id = $1 AND NOT archived) AS total,
  (SELECT count(*)::int FROM cards WHERE owner_id = $1 AND archived) AS archived,
  count(*) FILTER (WHERE i.state = 0)::int AS new,
  count(*) FILTER (WHERE i.state = 1)::int AS learning,
  count(*) FILTER (WHERE i.state = 2)::int AS review,
  count(*) FILTER (WHERE i.state = 3)::int AS relearning,
  count(*) FILTER (WHERE i.due < $2 AND i.state IN (1, 3))::int
    + ${dueWithin('i.state = 2', 'reviews_left')} + ${dueWithin('i.state NOT IN (1, 2, 3)', 'new_left')} AS due_today,
  (SELECT count(*)::int FROM review_logs
    WHERE owner_id = $1 AND undone_at IS NULL AND reviewed_at >= $3) AS reviewed_today
FROM review_items i
WHERE i.owner_id = $1 AND NOT i.archived`;

/** $1 owner, $2 today: islands of consecutive study days with a review (review_days, a row per day). */
export const STREAK = `
WITH runs AS (
  SELECT day, day - (row_number() OVER (ORDER BY day))::int AS island
  FROM review_days WHERE owner_id = $1 AND reviews > 0
), islands AS (
  SELECT max(day) AS last_day, count(*)::int AS length FROM runs GROUP BY island
)
SELECT COALESCE(max(length), 0)::int AS longest,
  COALESCE(max(length) FILTER (WHERE last_day >= $2::date - 1), 0)::int AS current,
  COALESCE(bool_or(last_day = $2::date), false) AS reviewed_today
FROM islands`;

/** $1 owner, $2 first study day: reviews per day by rating, from review_days. */
export const REVIEWS_BY_DAY = `
SELECT to_char(day, 'YYYY-MM-DD') AS date, reviews, again, hard, good, easy, mature, mature_recalled
FROM review_days WHERE owner_id = $1 AND day >= $2::date AND reviews > 0
ORDER BY day`;

/** $1 owner: reviews per month over the whole history, from review_days. */
export const REVIEWS_BY_MONTH = `
SELECT to_char(day, 'YYYY-MM') AS month, sum(reviews)::int AS reviews
FROM review_days WHERE owner_id = $1 AND reviews > 0
GROUP BY 1 ORDER BY 1`;

/** $1 owner, $2 first day, $3 last day: reviews per day between them, from review_days. */
export const REVIEWS_BETWEEN = `
SELECT to_char(day, 'YYYY-MM-DD') AS date, reviews AS count
FROM review_days WHERE owner_id = $1 AND day BETWEEN $2::date AND $3::date AND reviews > 0
ORDER BY day`;

/** $1 owner, $2 timezone, $3 day-start hour, $4 today, $5 end of the window (instant): items due per day. */
export const FORECAST = `
SELECT to_char(GREATEST(((i.due AT TIME ZONE $2) - make_interval(hours => $3))::date, $4::date), 'YYYY-MM-DD') AS date,
  count(*)::int AS count
FROM review_items i
WHERE i.owner_id = $1 AND NOT i.archived AND i.state <> 0 AND i.due < $5
GROUP BY 1 ORDER BY 1`;
