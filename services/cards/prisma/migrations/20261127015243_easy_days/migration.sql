-- AlterTable
ALTER TABLE "learner_settings" ADD COLUMN     "easy_days" DOUBLE PRECISION[] DEFAULT ARRAY[1, 1, 1, 1, 1, 1, 1]::DOUBLE PRECISION[],
ADD COLUMN     "load_balance" BOOLEAN NOT NULL DEFAULT true;
