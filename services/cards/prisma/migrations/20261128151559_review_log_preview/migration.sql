-- AlterTable
ALTER TABLE "review_logs" ADD COLUMN     "preview" BOOLEAN NOT NULL DEFAULT false;
