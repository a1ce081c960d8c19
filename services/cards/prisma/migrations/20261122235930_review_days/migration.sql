-- CreateTable
CREATE TABLE "review_days" (
    "owner_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "reviews" INTEGER NOT NULL,
    "again" INTEGER NOT NULL,
    "hard" INTEGER NOT NULL,
    "good" INTEGER NOT NULL,
    "easy" INTEGER NOT NULL,
    "mature" INTEGER NOT NULL,
    "mature_recalled" INTEGER NOT NULL,

    CONSTRAINT "review_days_pkey" PRIMARY KEY ("owner_id","day")
);

-- Count the reviews already logged, in each learner's days (their settings, or UTC and 4 o'clock).
INSERT INTO "review_days" ("owner_id", "day", "reviews", "again", "hard", "good", "easy", "mature", "mature_recalled")
SELECT l."owner_id",
  ((l."reviewed_at" AT TIME ZONE COALESCE(s."timezone", 'UTC')) - make_interval(hours => COALESCE(s."day_start_hour", 4)))::date,
  count(*), count(*) FILTER (WHERE l."rating" = 1), count(*) FILTER (WHERE l."rating" = 2),
  count(*) FILTER (WHERE l."rating" = 3), count(*) FILTER (WHERE l."rating" = 4),
  count(*) FILTER (WHERE l."state_before" = 2), count(*) FILTER (WHERE l."state_before" = 2 AND l."rating" > 1)
FROM "review_logs" l
LEFT JOIN "learner_settings" s ON s."owner_id" = l."owner_id"
WHERE l."undone_at" IS NULL
GROUP BY 1, 2;
