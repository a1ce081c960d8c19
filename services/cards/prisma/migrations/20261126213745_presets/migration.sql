-- AlterTable
ALTER TABLE "learner_settings" ALTER COLUMN "desired_retention" DROP NOT NULL;

-- CreateTable
CREATE TABLE "presets" (
    "id" UUID NOT NULL,
    "owner_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "desired_retention" DOUBLE PRECISION NOT NULL,
    "parameters" DOUBLE PRECISION[] DEFAULT ARRAY[]::DOUBLE PRECISION[],
    "optimized_at" TIMESTAMPTZ(3),
    "evaluation" JSONB,
    "new_per_day" INTEGER NOT NULL,
    "reviews_per_day" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "presets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "preset_tags" (
    "tag_id" UUID NOT NULL,
    "preset_id" UUID NOT NULL,

    CONSTRAINT "preset_tags_pkey" PRIMARY KEY ("tag_id")
);

-- CreateIndex
CREATE INDEX "presets_owner_id_idx" ON "presets"("owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "presets_one_default_key" ON "presets"("owner_id", "is_default") WHERE (is_default);

-- CreateIndex
CREATE INDEX "preset_tags_preset_id_idx" ON "preset_tags"("preset_id");

-- AddForeignKey
ALTER TABLE "preset_tags" ADD CONSTRAINT "preset_tags_preset_id_fkey" FOREIGN KEY ("preset_id") REFERENCES "presets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "preset_tags" ADD CONSTRAINT "preset_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each learner who saved settings gets their default preset, with the desired retention they chose (their
-- presets hold it from now on) and FSRS-6's default parameters.
INSERT INTO "presets" ("id", "owner_id", "name", "is_default", "desired_retention", "new_per_day", "reviews_per_day")
SELECT gen_random_uuid(), "owner_id", 'Default', true, COALESCE("desired_retention", 0.9), 20, 200
FROM "learner_settings";
