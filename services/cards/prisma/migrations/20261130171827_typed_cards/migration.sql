-- Typed answers (issue 45): a basic card whose back the learner types before it shows, as Anki's "Basic (type in the
-- answer)" asks it.
-- AlterEnum
ALTER TYPE "card_type" ADD VALUE 'typed';
