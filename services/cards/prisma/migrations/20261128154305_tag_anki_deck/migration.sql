-- AlterTable
ALTER TABLE "tags" ADD COLUMN     "anki_deck" BOOLEAN NOT NULL DEFAULT false;
