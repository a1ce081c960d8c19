-- AlterTable
ALTER TABLE "cards" ADD COLUMN     "external_id" TEXT;

-- CreateTable
CREATE TABLE "imports" (
    "id" UUID NOT NULL,
    "owner_id" TEXT NOT NULL,
    "upload_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "mapping" JSONB,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "progress_done" INTEGER NOT NULL DEFAULT 0,
    "progress_total" INTEGER NOT NULL DEFAULT 0,
    "counts" JSONB NOT NULL DEFAULT '{}',
    "problems" JSONB NOT NULL DEFAULT '[]',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "heartbeat_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "imports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "imports_upload_id_key" ON "imports"("upload_id");

-- CreateIndex
CREATE INDEX "imports_owner_id_created_at_idx" ON "imports"("owner_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "cards_external_key" ON "cards"("owner_id", "external_id") WHERE (external_id IS NOT NULL);
