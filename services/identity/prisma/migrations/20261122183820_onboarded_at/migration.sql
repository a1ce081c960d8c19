-- AlterTable
ALTER TABLE "users" ADD COLUMN     "onboarded_at" TIMESTAMPTZ(3);
