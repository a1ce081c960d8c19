-- AlterTable
ALTER TABLE "cards" ADD COLUMN     "deck_id" UUID,
ADD COLUMN     "origin_card_id" TEXT;

-- CreateTable
CREATE TABLE "deck_cards" (
    "deck_id" UUID NOT NULL,
    "origin_card_id" TEXT NOT NULL,
    "type" "card_type" NOT NULL DEFAULT 'basic',
    "front" TEXT NOT NULL DEFAULT '',
    "back" TEXT NOT NULL DEFAULT '',
    "revision" BIGINT NOT NULL,
    "withdrawn" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "deck_cards_pkey" PRIMARY KEY ("deck_id","origin_card_id")
);

-- CreateTable
CREATE TABLE "deck_subscribers" (
    "deck_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "deck_name" TEXT NOT NULL,
    "subscribed" BOOLEAN NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "deck_subscribers_pkey" PRIMARY KEY ("deck_id","user_id")
);

-- CreateIndex
CREATE INDEX "deck_subscribers_user_id_idx" ON "deck_subscribers"("user_id");

-- CreateIndex
CREATE INDEX "cards_deck_copies_idx" ON "cards"("deck_id", "origin_card_id") WHERE (deck_id IS NOT NULL);

-- CreateIndex
CREATE UNIQUE INDEX "cards_deck_copy_key" ON "cards"("owner_id", "deck_id", "origin_card_id") WHERE (deck_id IS NOT NULL);
