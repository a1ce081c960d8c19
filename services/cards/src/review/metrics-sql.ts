// The dashboard's metrics, computed in PostgreSQL (never by loading rows into JavaScript). A review's day
// is the learner's day: its time in their timezone, moved back by their day-start hour.

/** The learner's day of review_logs.reviewed_at: $tz and $dayStart are the query's parameters named. */
export const reviewDay = (tz: string, dayStart: string) =>
  `((reviewed_at AT TIME ZONE ${tz}) - make_interval(hours => ${dayStart}))::date`;

/** $1 owner, $2 end of today, $3 start of today. */
export const PROGRESS = `
SELECT
  (SELECT count(*)::int FROM cards WHERE owner_id = $1 AND NOT archived) AS total,
  (SELECT count(*)::int FROM cards WHERE owner_id = $1 AND archived) AS archived,
  count(*) FILTER (WHERE i.state = 0)::int AS new,
  count(*) FILTER (WHERE i.state = 1)::int AS learning,
  count(*) FILTER (WHERE i.state = 2)::int AS review,
  count(*) FILTER (WHERE i.state = 3)::int AS relearning,
  count(*) FILTER (WHERE i.due < $2)::int AS due_today,
  (SELECT count(*)::int FROM review_logs
    WHERE owner_id = $1 AND undone_at IS NULL AND reviewed_at >= $3) AS reviewed_today
FROM review_items i JOIN cards c ON c.id = i.card_id AND NOT c.archived
WHERE i.owner_id = $1`;

/** $1 owner, $2 timezone, $3 day-start hour, $4 today: islands of consecutive review days. */
export const STREAK = `
WITH days AS (
  SELECT DISTINCT ${reviewDay('$2', '$3')} AS day
  FROM review_logs WHERE owner_id = $1 AND undone_at IS NULL
), runs AS (
  SELECT day, day - (row_number() OVER (ORDER BY day))::int AS island FROM days
), islands AS (
  SELECT max(day) AS last_day, count(*)::int AS length FROM runs GROUP BY island
)
SELECT COALESCE(max(length), 0)::int AS longest,
  COALESCE(max(length) FILTER (WHERE last_day >= $4::date - 1), 0)::int AS current,
  COALESCE(bool_or(last_day = $4::date), false) AS reviewed_today
FROM islands`;

/** $1 owner, $2 timezone, $3 day-start hour, $4 from (instant): reviews per day by rating. */
export const REVIEWS_BY_DAY = `
SELECT to_char(day, 'YYYY-MM-DD') AS date, count(*)::int AS reviews,
  count(*) FILTER (WHERE rating = 1)::int AS again,
  count(*) FILTER (WHERE rating = 2)::int AS hard,
  count(*) FILTER (WHERE rating = 3)::int AS good,
  count(*) FILTER (WHERE rating = 4)::int AS easy,
  count(*) FILTER (WHERE state_before = 2)::int AS mature,
  count(*) FILTER (WHERE state_before = 2 AND rating > 1)::int AS mature_recalled
FROM (
  SELECT ${reviewDay('$2', '$3')} AS day, rating, state_before
  FROM review_logs WHERE owner_id = $1 AND undone_at IS NULL AND reviewed_at >= $4
) reviews
GROUP BY day ORDER BY day`;

/** $1 owner, $2 timezone, $3 day-start hour, $4 today, $5 end of the window (instant): items due per day. */
export const FORECAST = `
SELECT to_char(GREATEST(((i.due AT TIME ZONE $2) - make_interval(hours => $3))::date, $4::date), 'YYYY-MM-DD') AS date,
  count(*)::int AS count
FROM review_items i JOIN cards c ON c.id = i.card_id AND NOT c.archived
WHERE i.owner_id = $1 AND i.state <> 0 AND i.due < $5
GROUP BY 1 ORDER BY 1`;
