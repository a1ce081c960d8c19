-- DropIndex
DROP INDEX "deck_reviews_user_id_idx";

-- CreateIndex
CREATE INDEX "deck_reviews_user_id_item_id_reviewed_at_idx" ON "deck_reviews"("user_id", "item_id", "reviewed_at");
