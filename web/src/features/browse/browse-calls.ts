// The Browse screen's calls: the search's pages and count, saved searches, duplicates, and bulk edits, each
// followed by a toast whose Undo puts the cards back (browse.undo) — one place, so every bulk action undoes alike.
import { BROWSE_PAGE_SIZE, type BulkEditInput } from '@engram/contracts/browse';
import type { BrowseSortName } from '@engram/contracts/search';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { refreshCards } from '../../entities/cards/queries';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { trpc, trpcClient } from '../../lib/trpc';

export type BrowseCard = inferOutput<typeof trpc.browse.search>['items'][number];

export const browseOptions = (query: string, sort: BrowseSortName, ascending: boolean) =>
  trpc.browse.search.infiniteQueryOptions(
    { query, sort, ascending, pageSize: BROWSE_PAGE_SIZE },
    { initialCursor: null, getNextPageParam: (page) => page.nextCursor },
  );

export const countOptions = (query: string) => trpc.browse.count.queryOptions({ query });
export const savedSearchesOptions = trpc.browse.savedSearches.queryOptions();
export const duplicatesOptions = trpc.browse.duplicates.queryOptions({ limit: 50 });

/** After a bulk edit or its undo: Browse's lists and every list of cards. */
async function refreshBrowse() {
  await Promise.all([queryClient.invalidateQueries({ queryKey: trpc.browse.pathKey() }), refreshCards()]);
}

/** What a toast says a bulk edit did, by action. */
const DONE: Record<BulkEditInput['action'], (count: number) => string> = {
  add_tags: (count) => m.browse_done_add_tags({ count }),
  remove_tags: (count) => m.browse_done_remove_tags({ count }),
  archive: (count) => m.browse_done_archive({ count }),
  unarchive: (count) => m.browse_done_unarchive({ count }),
  delete: (count) => m.browse_done_delete({ count }),
  set_due: (count) => m.browse_done_set_due({ count }),
  forget: (count) => m.browse_done_forget({ count }),
  set_preset: (count) => m.browse_done_set_preset({ count }),
};

async function undo(undoId: string) {
  try {
    const { restored } = await trpcClient.browse.undo.mutate({ undoId });
    toast.success(m.browse_undone({ count: restored }));
  } catch (error) {
    toastError(error);
  } finally {
    await refreshBrowse();
  }
}

/** Runs a bulk edit; its toast offers Undo. Resolves with whether it ran. */
export async function runBulkEdit(input: BulkEditInput): Promise<boolean> {
  try {
    const { undoId, changed } = await trpcClient.browse.bulkEdit.mutate(input);
    await refreshBrowse();
    if (changed === 0 || !undoId) {
      toast.info(m.browse_nothing_changed());
      return true;
    }
    toast.success(DONE[input.action](changed), {
      duration: 10_000,
      action: { label: m.browse_undo(), onClick: () => void undo(undoId) },
    });
    return true;
  } catch (error) {
    toastError(error);
    return false;
  }
}
