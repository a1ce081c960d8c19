// "/organization/$slug/learning": the organization's shared decks (shared decks, assignments,
// progress). The static segment outranks the organization views' "$pathname", so this view is its own.
// The organization found by slug goes into the route context, and the loader starts the view's three loads
// (the first page of each) at once so they travel in one batched request.
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { DEFAULT_REDIRECT, ORGANIZATION_BASE_PATH } from '../lib/auth-views';
import { queryClient } from '../lib/query-client';
import { requireOrganization } from './organization';
import { protectedRoute } from './protected';

export const organizationLearningRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: `${ORGANIZATION_BASE_PATH}/$slug/learning`,
  beforeLoad: async ({ params: { slug } }) => {
    const organization = await requireOrganization(slug);
    // The list could not be read: nothing to show the view for.
    if (!organization) throw redirect({ to: DEFAULT_REDIRECT, replace: true });
    return { organization };
  },
  loader: async ({ context: { organization } }) => {
    const q = await import('../features/organization/shared-decks/queries');
    const organizationId = organization.id;
    void queryClient.prefetchInfiniteQuery(q.decksOptions(organizationId));
    void queryClient.prefetchInfiniteQuery(q.organizationAssignmentsOptions(organizationId));
    void queryClient.prefetchInfiniteQuery(q.progressOptions(organizationId));
  },
  component: lazyRouteComponent(
    () => import('../features/organization/shared-decks/shared-decks-screen'),
    'SharedDecksScreen',
  ),
});
