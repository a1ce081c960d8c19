-- AlterEnum
ALTER TYPE "card_type" ADD VALUE 'note';

-- AlterTable
ALTER TABLE "cards" ADD COLUMN     "fields" TEXT[],
ADD COLUMN     "note_type_id" TEXT;

-- CreateTable
CREATE TABLE "note_types" (
    "id" UUID NOT NULL,
    "owner_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'standard',
    "fields" TEXT[],
    "templates" JSONB NOT NULL,
    "css" TEXT NOT NULL DEFAULT '',
    "anki" JSONB,
    "external_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "note_types_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "note_types_owner_id_name_key" ON "note_types"("owner_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "note_types_external_key" ON "note_types"("owner_id", "external_id") WHERE (external_id IS NOT NULL);

-- CreateIndex
CREATE INDEX "cards_owner_id_note_type_id_idx" ON "cards"("owner_id", "note_type_id") WHERE (note_type_id IS NOT NULL);
