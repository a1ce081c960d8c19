// The cards and tags lists more than one screen reads (docs/product.md#routes): the dashboard's cards ten a page,
// by filter, and the user's tags fifty a page, both following nextCursor.
import { DASHBOARD_PAGE_SIZE, TAG_PAGE_SIZE } from '@engram/contracts/cards';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { queryClient } from '../../lib/query-client';
import { trpc } from '../../lib/trpc';

export type Card = inferOutput<typeof trpc.cards.create>;
export type Tag = Card['tags'][number];

export type CardFilter = { archived: boolean; query?: string; tagIds?: string[] };
export const DEFAULT_FILTER: CardFilter = { archived: false };

export const cardsOptions = (filter: CardFilter) =>
  trpc.cards.list.infiniteQueryOptions(
    { pageSize: DASHBOARD_PAGE_SIZE, ...filter },
    { initialCursor: null, getNextPageParam: (page) => page.nextCursor },
  );

export const tagsOptions = trpc.cards.listTags.infiniteQueryOptions(
  { pageSize: TAG_PAGE_SIZE },
  { initialCursor: null, getNextPageParam: (page) => page.nextCursor },
);

/** After any change to cards: every list, the due lists and the metrics are fetched again. */
export const refreshCards = () => queryClient.invalidateQueries({ queryKey: trpc.cards.pathKey() });
