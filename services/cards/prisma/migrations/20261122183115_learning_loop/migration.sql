-- CreateEnum
CREATE TYPE "card_type" AS ENUM ('basic', 'reversed', 'cloze');

-- AlterTable
ALTER TABLE "cards" ADD COLUMN     "type" "card_type" NOT NULL DEFAULT 'basic';

-- CreateTable
CREATE TABLE "tags" (
    "id" UUID NOT NULL,
    "owner_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "card_tags" (
    "card_id" UUID NOT NULL,
    "tag_id" UUID NOT NULL,

    CONSTRAINT "card_tags_pkey" PRIMARY KEY ("card_id","tag_id")
);

-- CreateTable
CREATE TABLE "review_items" (
    "id" UUID NOT NULL,
    "card_id" UUID NOT NULL,
    "owner_id" TEXT NOT NULL,
    "ordinal" SMALLINT NOT NULL,
    "state" SMALLINT NOT NULL DEFAULT 0,
    "due" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stability" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "difficulty" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "elapsed_days" INTEGER NOT NULL DEFAULT 0,
    "scheduled_days" INTEGER NOT NULL DEFAULT 0,
    "learning_step" SMALLINT NOT NULL DEFAULT 0,
    "reps" INTEGER NOT NULL DEFAULT 0,
    "lapses" INTEGER NOT NULL DEFAULT 0,
    "last_review" TIMESTAMPTZ(3),

    CONSTRAINT "review_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_logs" (
    "id" UUID NOT NULL,
    "owner_id" TEXT NOT NULL,
    "item_id" UUID NOT NULL,
    "card_id" UUID NOT NULL,
    "rating" SMALLINT NOT NULL,
    "state_before" SMALLINT NOT NULL,
    "state_after" SMALLINT NOT NULL,
    "reviewed_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "elapsed_days" INTEGER NOT NULL,
    "last_elapsed_days" INTEGER NOT NULL,
    "scheduled_days" INTEGER NOT NULL,
    "learning_step" SMALLINT NOT NULL,
    "due_after" TIMESTAMPTZ(3) NOT NULL,
    "previous" JSONB NOT NULL,
    "undone_at" TIMESTAMPTZ(3),

    CONSTRAINT "review_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "learner_settings" (
    "owner_id" TEXT NOT NULL,
    "timezone" TEXT NOT NULL,
    "day_start_hour" SMALLINT NOT NULL,
    "desired_retention" DOUBLE PRECISION NOT NULL,
    "maximum_interval_days" INTEGER NOT NULL,
    "learning_steps" TEXT[],
    "relearning_steps" TEXT[],
    "fuzz" BOOLEAN NOT NULL,
    "daily_goal" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "learner_settings_pkey" PRIMARY KEY ("owner_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tags_owner_id_name_key_key" ON "tags"("owner_id", "name_key");

-- CreateIndex
CREATE INDEX "card_tags_tag_id_card_id_idx" ON "card_tags"("tag_id", "card_id");

-- CreateIndex
CREATE INDEX "review_items_owner_id_due_idx" ON "review_items"("owner_id", "due");

-- CreateIndex
CREATE UNIQUE INDEX "review_items_card_id_ordinal_key" ON "review_items"("card_id", "ordinal");

-- CreateIndex
CREATE INDEX "review_logs_owner_id_reviewed_at_idx" ON "review_logs"("owner_id", "reviewed_at");

-- CreateIndex
CREATE INDEX "review_logs_item_id_reviewed_at_idx" ON "review_logs"("item_id", "reviewed_at" DESC);

-- AddForeignKey
ALTER TABLE "card_tags" ADD CONSTRAINT "card_tags_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "cards"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "card_tags" ADD CONSTRAINT "card_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "cards"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Cards created before review items existed were basic cards: each gets its one review direction,
-- new and due since it was created.
INSERT INTO "review_items" ("id", "card_id", "owner_id", "ordinal", "due")
SELECT gen_random_uuid(), "id", "owner_id", 0, "created_at" FROM "cards";
