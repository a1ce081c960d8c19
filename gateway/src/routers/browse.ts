// The Browse procedures: Anki's search over the learner's cards, bulk edits with undo, saved searches, duplicates.
import {
  browse,
  browseInput,
  bulkEdit,
  bulkEditInput,
  count,
  countInput,
  deleteSavedSearch,
  deleteSavedSearchInput,
  duplicates,
  duplicatesInput,
  savedSearches,
  saveSearch,
  saveSearchInput,
  undo,
  undoBulkEditInput,
} from '../handlers/browse/browse.js';
import { protectedProcedure, router } from '../trpc.js';

export const browseRouter = router({
  search: protectedProcedure.input(browseInput).query(browse),
  count: protectedProcedure.input(countInput).query(count),
  bulkEdit: protectedProcedure.input(bulkEditInput).mutation(bulkEdit),
  undo: protectedProcedure.input(undoBulkEditInput).mutation(undo),
  savedSearches: protectedProcedure.query(savedSearches),
  saveSearch: protectedProcedure.input(saveSearchInput).mutation(saveSearch),
  deleteSavedSearch: protectedProcedure.input(deleteSavedSearchInput).mutation(deleteSavedSearch),
  duplicates: protectedProcedure.input(duplicatesInput).query(duplicates),
});
