-- CreateTable
CREATE TABLE "exports" (
    "id" UUID NOT NULL,
    "owner_id" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "tag_ids" UUID[],
    "parts" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "progress_done" INTEGER NOT NULL DEFAULT 0,
    "progress_total" INTEGER NOT NULL DEFAULT 0,
    "failure" TEXT,
    "file_name" TEXT NOT NULL,
    "object_key" TEXT,
    "size" BIGINT NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "heartbeat_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "exports_owner_id_created_at_idx" ON "exports"("owner_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "exports_expires_at_idx" ON "exports"("expires_at");
