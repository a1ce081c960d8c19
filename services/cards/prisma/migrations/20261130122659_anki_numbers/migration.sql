-- Numbers for Anki's tools (issue 44): a card is an Anki note (cards.number its note id), a review item an Anki
-- card (review_items.number its card id), a tag a deck (tags.number its deck id). BIGSERIAL numbers every
-- existing row as the column is added.
-- AlterTable
ALTER TABLE "cards" ADD COLUMN     "first_key" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "number" BIGSERIAL NOT NULL;

-- AlterTable
ALTER TABLE "tags" ADD COLUMN     "number" BIGSERIAL NOT NULL;

-- AlterTable
ALTER TABLE "review_items" ADD COLUMN     "number" BIGSERIAL NOT NULL;

-- A card's first side as duplicates are found by (AnkiConnect's duplicate check, Browse's duplicate finder): the
-- pictures and sounds of its Markdown, HTML tags and Markdown's emphasis marks left out, spaces collapsed and
-- trimmed, then accents and case folded (search_fold). Kept by a trigger so that every writer of a front (a
-- card typed, generated, imported by COPY, copied from a shared deck) keeps it without knowing of it.
CREATE FUNCTION "first_side_key"(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT search_fold(btrim(regexp_replace(
    regexp_replace(
      regexp_replace(value, '!\[[^\]]*\]\([^)]*\)|\[sound\]\([^)]*\)|<[^>]*>', ' ', 'g'),
      '[*_~`\\]', '', 'g'),
    '\s+', ' ', 'g')))
$$;

CREATE FUNCTION "cards_first_key"() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  NEW.first_key := first_side_key(NEW.front);
  RETURN NEW;
END
$$;

UPDATE "cards" SET "first_key" = first_side_key("front");

CREATE TRIGGER "cards_first_key" BEFORE INSERT OR UPDATE OF "front" ON "cards"
FOR EACH ROW EXECUTE FUNCTION "cards_first_key"();

-- CreateTable
CREATE TABLE "anki_media_names" (
    "owner_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "media_id" UUID NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "anki_media_names_pkey" PRIMARY KEY ("owner_id","name")
);

-- CreateIndex
CREATE INDEX "anki_media_names_media_id_idx" ON "anki_media_names"("media_id");

-- CreateIndex
CREATE UNIQUE INDEX "cards_number_key" ON "cards"("number");

-- CreateIndex
CREATE INDEX "cards_owner_id_first_key_idx" ON "cards"("owner_id", "first_key");

-- CreateIndex
CREATE UNIQUE INDEX "tags_number_key" ON "tags"("number");

-- CreateIndex
CREATE UNIQUE INDEX "review_items_number_key" ON "review_items"("number");

-- AddForeignKey
ALTER TABLE "anki_media_names" ADD CONSTRAINT "anki_media_names_media_id_fkey" FOREIGN KEY ("media_id") REFERENCES "media"("id") ON DELETE CASCADE ON UPDATE CASCADE;
