-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "currency" TEXT,
ADD COLUMN     "interval" TEXT,
ADD COLUMN     "plan" TEXT;
