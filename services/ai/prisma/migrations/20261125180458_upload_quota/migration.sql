-- DropIndex
DROP INDEX "uploaded_files_user_id_idx";

-- AlterTable
ALTER TABLE "uploaded_files" ADD COLUMN     "bytes" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "uploaded_files_user_id_created_at_idx" ON "uploaded_files"("user_id", "created_at");
