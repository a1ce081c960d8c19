// "/dashboard": the signed-in home. Its screen, and the tRPC client it needs, load with the route.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateDashboardSearch } from '../lib/practice-search';
import { queryClient } from '../lib/query-client';
import { protectedRoute } from './protected';

export const dashboardRoute = createRoute({
  getParentRoute: () => protectedRoute,
  path: '/dashboard',
  // ?q= is the card list's search text; a malformed one is corrected (dropped), never an error.
  validateSearch: validateDashboardSearch,
  // Starts every load in the same tick, so the batch link sends them as one request, without waiting for
  // them: a failing fetch's retries must not hold up the page, and each panel shows its own states.
  // Only on the way in: typing a search changes ?q= and so "stays" on the route, and prefetching again
  // then would cut the card list's loaded pages back to the first.
  loader: async ({ cause }) => {
    if (cause === 'stay') return;
    const q = await import('../features/dashboard/queries');
    void queryClient.prefetchQuery(q.progressOptions);
    void queryClient.prefetchQuery(q.streakOptions);
    void queryClient.prefetchQuery(q.reviewMetricsOptions);
    void queryClient.prefetchQuery(q.timezoneOptions);
    void queryClient.prefetchQuery(q.generationUsageOptions);
    void queryClient.prefetchInfiniteQuery(q.cardsOptions(q.DEFAULT_FILTER));
    void queryClient.prefetchQuery(q.customerOptions);
    void queryClient.prefetchInfiniteQuery(q.assignmentsOptions);
  },
  component: lazyRouteComponent(() => import('../features/dashboard/dashboard-screen'), 'DashboardScreen'),
});
