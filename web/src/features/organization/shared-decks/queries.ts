// The shared decks view's loads: the organization's decks, its assignments and its members' progress (started
// together by the route's loader, a page each, "Load more" following nextCursor), and the organization
// itself with its members and teams, and what the caller may do there, from identity through the
// organization client.
import { MAX_PAGE_SIZE } from '@engram/contracts/cards';
import { SHARED_DECK_PAGE_SIZE } from '@engram/contracts/shared-decks';
import { type InfiniteData, type UseInfiniteQueryResult, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { organizationAuthClient } from '../../../lib/organization-client';
import { trpc } from '../../../lib/trpc';

const pages = { initialCursor: null, getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor };

export const decksOptions = (organizationId: string, pageSize = SHARED_DECK_PAGE_SIZE) =>
  trpc.orgs.decks.infiniteQueryOptions({ organizationId, pageSize }, pages);
export const organizationAssignmentsOptions = (organizationId: string, pageSize = SHARED_DECK_PAGE_SIZE) =>
  trpc.orgs.assignments.infiniteQueryOptions({ organizationId, pageSize }, pages);
export const progressOptions = (organizationId: string, assignmentId?: string) =>
  trpc.orgs.progress.infiniteQueryOptions(
    { organizationId, pageSize: SHARED_DECK_PAGE_SIZE, ...(assignmentId && { assignmentId }) },
    pages,
  );

/** Page after page until the last, for a picker, which must offer every choice. */
function useEveryPage<T>(list: UseInfiniteQueryResult<InfiniteData<{ items: T[] }>, unknown>): T[] {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return list.data?.pages.flatMap((page) => page.items) ?? [];
}

/** Every deck the caller sees there, the largest pages at a time (the assignment form's choices). */
export const useAllDecks = (organizationId: string) =>
  useEveryPage(useInfiniteQuery(decksOptions(organizationId, MAX_PAGE_SIZE)));
/** Every assignment there (the progress view's choices). */
export const useAllAssignments = (organizationId: string) =>
  useEveryPage(useInfiniteQuery(organizationAssignmentsOptions(organizationId, MAX_PAGE_SIZE)));

/** The organization with its members (their names and emails) and teams. */
export function useFullOrganization(organizationId: string) {
  return useQuery({
    queryKey: ['auth', 'full-organization', organizationId],
    queryFn: async () => {
      const { data, error } = await organizationAuthClient.organization.getFullOrganization({
        query: { organizationId },
      });
      if (error) throw error;
      return data;
    },
  });
}

/** Whether the caller may do `action` to `resource` here; the service refuses anyway, this only hides controls. */
export function usePermission(organizationId: string, resource: 'deck' | 'assignment', action: 'create' | 'delete') {
  const permission = useQuery({
    queryKey: ['auth', 'permission', organizationId, resource, action],
    queryFn: async () => {
      const { data, error } = await organizationAuthClient.organization.hasPermission({
        organizationId,
        permissions: { [resource]: [action] },
      });
      if (error) throw error;
      return data?.success ?? false;
    },
  });
  return permission.data ?? false;
}
