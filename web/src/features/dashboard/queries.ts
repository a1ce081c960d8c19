// Every load of the dashboard (docs/product.md#routes): started together by the route loader so
// the tRPC batch link sends them in one HTTP request, and read by the panels with the same keys. The
// learner's pending invitations and the names of their organizations are identity's (better-auth): they
// are started in the same tick, beside the batch, rather than when the panels that show them render.

import { SHARED_DECK_PAGE_SIZE } from '@engram/contracts/shared-decks';
import { queryOptions } from '@tanstack/react-query';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { authClient } from '../../lib/auth-client';
import { trpc } from '../../lib/trpc';

export const progressOptions = trpc.cards.progressMetrics.queryOptions();
export const streakOptions = trpc.cards.streak.queryOptions();
export const reviewMetricsOptions = trpc.cards.reviewMetrics.queryOptions();
export const timezoneOptions = trpc.settings.getTimezone.queryOptions();
/** The caller's assignments in every organization of theirs, soonest due first, a page at a time. */
export const assignmentsOptions = trpc.orgs.assignments.infiniteQueryOptions(
  { pageSize: SHARED_DECK_PAGE_SIZE },
  { initialCursor: null, getNextPageParam: (page) => page.nextCursor },
);

export { customerOptions } from '../../entities/billing/queries';
export { cardsOptions, DEFAULT_FILTER } from '../../entities/cards/queries';
export { generationUsageOptions } from '../../entities/generation/usage';

export type ReviewMetrics = inferOutput<typeof trpc.cards.reviewMetrics>;
export type Progress = inferOutput<typeof trpc.cards.progressMetrics>;

export interface Invitation {
  id: string;
  organizationName: string;
  role: string;
  /** The custom role's label (identity adds it); null for a built-in role, named in the reader's language. */
  roleLabel?: string | null;
  status: string;
  expiresAt: string | Date;
}

export const INVITATIONS_KEY = ['auth', 'user-invitations'] as const;

/** The invitations still open to the learner (plain calls: the organization client stays off the dashboard). */
export const invitationsOptions = queryOptions({
  queryKey: INVITATIONS_KEY,
  queryFn: async (): Promise<Invitation[]> => {
    const { data, error } = await authClient.$fetch<Invitation[]>('/organization/list-user-invitations', {
      method: 'GET',
    });
    if (error) throw error;
    const now = Date.now();
    return (data ?? []).filter(
      (invitation) => invitation.status === 'pending' && new Date(invitation.expiresAt).getTime() > now,
    );
  },
});

export interface OrganizationSummary {
  id: string;
  name: string;
  slug: string;
}

/** The learner's organizations, which name the organization of each assignment. */
export const organizationsOptions = queryOptions({
  queryKey: ['auth', 'organizations'],
  queryFn: async (): Promise<OrganizationSummary[]> => {
    const { data, error } = await authClient.$fetch<OrganizationSummary[]>('/organization/list', { method: 'GET' });
    if (error) throw error;
    return data ?? [];
  },
});
