-- AlterTable
ALTER TABLE "presets" ADD COLUMN     "reviews_since_optimized" INTEGER NOT NULL DEFAULT 0;
