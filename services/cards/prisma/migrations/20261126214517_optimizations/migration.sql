-- CreateTable
CREATE TABLE "optimizations" (
    "id" UUID NOT NULL,
    "owner_id" TEXT NOT NULL,
    "preset_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "progress_done" INTEGER NOT NULL DEFAULT 0,
    "progress_total" INTEGER NOT NULL DEFAULT 0,
    "exclude_deleted" BOOLEAN NOT NULL DEFAULT false,
    "outcome" TEXT,
    "evaluation" JSONB,
    "reviews" INTEGER NOT NULL DEFAULT 0,
    "needed" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "heartbeat_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "optimizations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "optimizations_owner_id_created_at_idx" ON "optimizations"("owner_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "optimizations_preset_id_idx" ON "optimizations"("preset_id");

-- AddForeignKey
ALTER TABLE "optimizations" ADD CONSTRAINT "optimizations_preset_id_fkey" FOREIGN KEY ("preset_id") REFERENCES "presets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
