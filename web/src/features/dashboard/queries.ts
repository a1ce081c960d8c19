// Every load of the dashboard (spec §2 — those that exist today): started together by the route loader so
// the tRPC batch link sends them in one HTTP request, and read by the panels with the same keys.

import { LEARNING_PAGE_SIZE } from '@engram/contracts/shared-decks';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { trpc } from '../../lib/trpc';

export const progressOptions = trpc.cards.progressMetrics.queryOptions();
export const streakOptions = trpc.cards.streak.queryOptions();
export const reviewMetricsOptions = trpc.cards.reviewMetrics.queryOptions();
export const timezoneOptions = trpc.settings.getTimezone.queryOptions();
/** The caller's assignments in every organization of theirs, soonest due first, a page at a time. */
export const assignmentsOptions = trpc.orgs.assignments.infiniteQueryOptions(
  { pageSize: LEARNING_PAGE_SIZE },
  { initialCursor: null, getNextPageParam: (page) => page.nextCursor },
);

export { cardsOptions, DEFAULT_FILTER } from '../../lib/cards';
export { generationUsageOptions } from '../../lib/generation';
export { customerOptions } from '../billing/queries';

export type ReviewMetrics = inferOutput<typeof trpc.cards.reviewMetrics>;
export type Progress = inferOutput<typeof trpc.cards.progressMetrics>;
