-- AlterTable
ALTER TABLE "review_items" ADD COLUMN     "archived" BOOLEAN NOT NULL DEFAULT false;

-- Items of cards archived before this migration
UPDATE "review_items" i SET "archived" = true FROM "cards" c WHERE c."id" = i."card_id" AND c."archived";
