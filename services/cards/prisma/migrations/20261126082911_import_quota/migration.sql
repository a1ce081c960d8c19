-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "quota_bytes" BIGINT NOT NULL DEFAULT 0;
