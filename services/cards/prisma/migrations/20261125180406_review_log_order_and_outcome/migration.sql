-- A review id means one review. Each log keeps the state its review produced (after), so a retry answers
-- that state even after later reviews, and the order the reviews were applied in (seq, from the
-- database), so an undo finds an item's latest review without trusting the application servers' clocks.
-- A review's study day is read under the learner's settings lock (learner_review_day).

DROP INDEX "review_logs_item_id_reviewed_at_idx";

ALTER TABLE "review_logs" ADD COLUMN "after" JSONB,
ADD COLUMN "seq" BIGSERIAL NOT NULL;

-- The reviews already logged are numbered in the order of their times, the best order they have.
UPDATE "review_logs" l SET "seq" = o.n
FROM (SELECT "id", row_number() OVER (ORDER BY "reviewed_at", "id") AS n FROM "review_logs") o
WHERE o."id" = l."id";
SELECT setval(pg_get_serial_sequence('review_logs', 'seq'), GREATEST((SELECT max("seq") FROM "review_logs"), 1),
  EXISTS (SELECT 1 FROM "review_logs"));

-- What each logged review produced, in the JSON of "previous": the state the next review applied on top of
-- it found (one rep more than this one found); else, for the item's review in force, the item itself.
-- An undone review that nothing was applied on top of left no record of its stability and difficulty:
-- it keeps the ones it found, with the state, due date, reps and lapses its log says it produced.
UPDATE "review_logs" l SET "after" = COALESCE(
  (SELECT n."previous" FROM "review_logs" n
   WHERE n."item_id" = l."item_id" AND n."seq" > l."seq"
     AND (n."previous"->>'reps')::int = (l."previous"->>'reps')::int + 1
   ORDER BY n."seq" LIMIT 1),
  (SELECT jsonb_build_object(
     'state', (ARRAY['new', 'learning', 'review', 'relearning'])[i."state" + 1],
     'due', to_char(i."due" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
     'stability', i."stability", 'difficulty', i."difficulty", 'elapsedDays', i."elapsed_days",
     'scheduledDays', i."scheduled_days", 'learningStep', i."learning_step", 'reps', i."reps",
     'lapses', i."lapses",
     'lastReview', to_char(i."last_review" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
   FROM "review_items" i
   WHERE i."id" = l."item_id" AND l."undone_at" IS NULL AND i."reps" = (l."previous"->>'reps')::int + 1),
  l."previous" || jsonb_build_object(
     'state', (ARRAY['new', 'learning', 'review', 'relearning'])[l."state_after" + 1],
     'due', to_char(l."due_after" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
     'reps', COALESCE((l."previous"->>'reps')::int, 0) + 1,
     'lapses', COALESCE((l."previous"->>'lapses')::int, 0) + (l."state_before" = 2 AND l."rating" = 1)::int,
     'lastReview', to_char(l."reviewed_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));

ALTER TABLE "review_logs" ALTER COLUMN "after" SET NOT NULL;

CREATE INDEX "review_logs_item_id_seq_idx" ON "review_logs"("item_id", "seq" DESC);

-- The study day of a learner's review at `instant`, read under their settings lock: a review takes it
-- shared, a change of timezone or day start takes it alone (UpdateSettings locks
-- hashtext('cards-settings:' || owner) and recounts the learner's days). VOLATILE, so the settings are read
-- with a snapshot taken after the lock is held: a review statement that began before a change committed
-- counts into the day the change made, and a change never recounts without a review still in flight.
-- The defaults (a learner without settings) are the caller's, from @engram/contracts.
CREATE FUNCTION "learner_review_day"(learner TEXT, instant TIMESTAMPTZ, default_timezone TEXT,
  default_day_start INT) RETURNS DATE
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
DECLARE
  zone TEXT;
  start_hour INT;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('cards-settings:' || learner));
  SELECT s."timezone", s."day_start_hour" INTO zone, start_hour FROM "learner_settings" s WHERE s."owner_id" = learner;
  RETURN ((instant AT TIME ZONE COALESCE(zone, default_timezone))
    - make_interval(hours => COALESCE(start_hour, default_day_start)))::date;
END $$;
