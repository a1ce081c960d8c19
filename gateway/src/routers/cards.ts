// The cards procedures: each line points at one handler with its input schema beside it.
import { archiveCard, archiveCardInput } from '../handlers/cards/archive.js';
import { createCard, createCardInput } from '../handlers/cards/create.js';
import { createMany, createManyInput } from '../handlers/cards/create-many.js';
import { createTag, createTagInput } from '../handlers/cards/create-tag.js';
import { deleteCard, deleteCardInput } from '../handlers/cards/delete.js';
import { deleteTag, deleteTagInput } from '../handlers/cards/delete-tag.js';
import { generationUsage } from '../handlers/cards/generation-usage.js';
import { listCards, listCardsInput } from '../handlers/cards/list.js';
import { listDue, listDueInput } from '../handlers/cards/list-due.js';
import { listTags, listTagsInput } from '../handlers/cards/list-tags.js';
import {
  createNoteType,
  createNoteTypeInput,
  deleteNoteType,
  deleteNoteTypeInput,
  noteTypes,
  updateNoteType,
  updateNoteTypeInput,
} from '../handlers/cards/note-types.js';
import { offlineSet, offlineSetInput } from '../handlers/cards/offline-set.js';
import { progressMetrics } from '../handlers/cards/progress-metrics.js';
import { renameTag, renameTagInput } from '../handlers/cards/rename-tag.js';
import { review, reviewInput } from '../handlers/cards/review.js';
import { reviewMetrics, reviewMetricsInput } from '../handlers/cards/review-metrics.js';
import { streak } from '../handlers/cards/streak.js';
import { syncReviews, syncReviewsInput } from '../handlers/cards/sync-reviews.js';
import { undoReview, undoReviewInput } from '../handlers/cards/undo-review.js';
import { updateCard, updateCardInput } from '../handlers/cards/update.js';
import { protectedProcedure, router } from '../trpc.js';

export const cardsRouter = router({
  list: protectedProcedure.input(listCardsInput).query(listCards),
  create: protectedProcedure.input(createCardInput).mutation(createCard),
  createMany: protectedProcedure.input(createManyInput).mutation(createMany),
  update: protectedProcedure.input(updateCardInput).mutation(updateCard),
  archive: protectedProcedure.input(archiveCardInput).mutation(archiveCard),
  delete: protectedProcedure.input(deleteCardInput).mutation(deleteCard),
  listTags: protectedProcedure.input(listTagsInput).query(listTags),
  createTag: protectedProcedure.input(createTagInput).mutation(createTag),
  renameTag: protectedProcedure.input(renameTagInput).mutation(renameTag),
  deleteTag: protectedProcedure.input(deleteTagInput).mutation(deleteTag),
  noteTypes: protectedProcedure.query(noteTypes),
  createNoteType: protectedProcedure.input(createNoteTypeInput).mutation(createNoteType),
  updateNoteType: protectedProcedure.input(updateNoteTypeInput).mutation(updateNoteType),
  deleteNoteType: protectedProcedure.input(deleteNoteTypeInput).mutation(deleteNoteType),
  listDue: protectedProcedure.input(listDueInput).query(listDue),
  review: protectedProcedure.input(reviewInput).mutation(review),
  undoReview: protectedProcedure.input(undoReviewInput).mutation(undoReview),
  syncReviews: protectedProcedure.input(syncReviewsInput).mutation(syncReviews),
  offlineSet: protectedProcedure.input(offlineSetInput).query(offlineSet),
  progressMetrics: protectedProcedure.query(progressMetrics),
  streak: protectedProcedure.query(streak),
  reviewMetrics: protectedProcedure.input(reviewMetricsInput).query(reviewMetrics),
  generationUsage: protectedProcedure.query(generationUsage),
});
