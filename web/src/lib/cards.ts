// The cards list query the dashboard shows (spec §2: page size 10, not archived), shared by its loader and view.
import type { inferOutput } from '@trpc/tanstack-react-query';
import { trpc } from './trpc';

export type Card = inferOutput<typeof trpc.cards.create>;

export const DASHBOARD_PAGE_SIZE = 10;

export const cardsListOptions = trpc.cards.list.infiniteQueryOptions(
  { pageSize: DASHBOARD_PAGE_SIZE, archived: false },
  { initialCursor: null, getNextPageParam: (page) => page.nextCursor },
);
