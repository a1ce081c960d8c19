// The import screen's reads: the learner's imports a page at a time (newest first), and one import followed
// until it ends, asked again every second while the tab is in view (TanStack Query pauses an interval in a
// hidden tab).
import { IMPORT_PAGE_SIZE } from '@engram/contracts/imports';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';
import { isOver } from './wording';

/** How often a running import is asked about. */
export const POLL_MS = 1000;

export const importsOptions = trpc.imports.list.infiniteQueryOptions(
  { pageSize: IMPORT_PAGE_SIZE },
  { initialCursor: null, getNextPageParam: (page) => page.nextCursor },
);

export const importOptions = (importId: string) =>
  trpc.imports.get.queryOptions(
    { importId },
    { refetchInterval: (query) => (isOver(query.state.data) ? false : POLL_MS), staleTime: 0 },
  );

/** After an import starts or ends: the list of imports is read again. */
export const refreshImports = () => queryClient.invalidateQueries({ queryKey: trpc.imports.list.pathKey() });
