-- AlterTable
ALTER TABLE "exports" ADD COLUMN     "card_ids" UUID[] DEFAULT ARRAY[]::UUID[];
